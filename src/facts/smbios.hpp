// What the SMBIOS table says of the memory and the processors, read either
// from the binary table itself (/sys/firmware/dmi/tables/DMI) or from the
// text `dmidecode` prints of it: both parsers fill these same structures,
// so everything after them (channels, peaks, faults) has one code path.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace movebench::facts {

// SMBIOS type 17, one per slot, empty slots included.
struct MemoryDevice {
  std::string locator;                          // "DIMM 0", "CPU1_DIMM_A1"
  std::string bank_locator;                     // "P0 CHANNEL A", "NODE 1"
  bool installed = false;                       // false: "No Module Installed" (size 0)
  std::optional<std::uint64_t> size_bytes;      // unknown when not given
  std::string type = "unknown";                 // "DDR4", "DDR5"; "unknown" where not told
  std::string type_note;                        // how "type" was inferred, where it was
  std::optional<std::uint32_t> rated_mts;       // "Speed"
  std::optional<std::uint32_t> configured_mts;  // "Configured Memory Speed" / "Configured Clock Speed"
  std::optional<std::uint32_t> data_width_bits;
  std::optional<std::uint32_t> total_width_bits;
  std::string form_factor;  // "DIMM", "SODIMM", "Row Of Chips"
  std::string manufacturer;
  std::string part_number;
};

// SMBIOS type 4: a processor socket.
struct Processor {
  std::string socket;        // "CPU1", "P0"
  std::string version;       // the model string; "" where not given
  std::string manufacturer;  // "NVIDIA", "Ampere(R)"; "" where not given
  std::string family;        // "ARMv8", "Xeon"; "" where not given or not named (dmidecode's <OUT OF SPEC>)
  bool populated = false;
};

// SMBIOS type 16: a physical memory array (one per socket on most servers).
struct MemoryArray {
  std::string location;
  std::optional<std::uint32_t> devices;  // slots
};

struct SmbiosMemory {
  std::vector<MemoryDevice> devices;
  std::vector<Processor> processors;
  std::vector<MemoryArray> arrays;
  std::string source;  // "dmidecode FILE", "/sys/firmware/dmi/tables/DMI"
};

// The text of `dmidecode`, `dmidecode -t memory`, `-t 17` or `-t 4`. Throws
// UsageError when it holds no DMI structure at all (not dmidecode output).
SmbiosMemory parse_dmidecode_text(std::string_view text);

// The binary structure table (the DMI file): every read bounds-checked, a
// truncated or malformed structure ends the walk, never reads past `table`.
SmbiosMemory parse_smbios_table(std::span<const std::uint8_t> table);

// "DDR5" from the type byte of type 17 (SMBIOS 3.x table 76); "" for
// "Other"/"Unknown", "type 0xNN" for values this build does not name.
std::string memory_type_name(std::uint8_t code);

// <OUT OF SPEC> and missing types: DDR5 only where certain (a rated or
// configured speed above DDR4's highest JEDEC speed, 3200 MT/s), else left
// "unknown". Fills type and type_note.
void infer_memory_type(MemoryDevice& device);

}  // namespace movebench::facts

#include "facts/facts.hpp"

namespace movebench::facts {

// The SMBIOS memory of the machine `sources` describe: --dmidecode FILE when
// given (a bad file is a UsageError), else the sysfs table. None, with the
// reason in `why`, when there is none to read (a VM, not root).
std::optional<SmbiosMemory> read_smbios(const Sources& sources, std::string& why);

}  // namespace movebench::facts
