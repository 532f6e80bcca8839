// The binary SMBIOS structure table (SMBIOS 3.x, DSP0134): a sequence of
// structures, each a formatted area (type, length, handle, fields) followed
// by its strings, NUL-terminated, the set ended by an extra NUL. Firmware
// tables are not trusted: every field read goes through Structure::byte/
// word/dword, which say "absent" for an offset beyond the formatted area, and
// a structure whose length or strings run past the table ends the walk.
#include <array>

#include "facts/smbios.hpp"

namespace movebench::facts {
namespace {

struct Structure {
  std::span<const std::uint8_t> formatted;  // header included
  std::vector<std::string_view> strings;    // 1-based in SMBIOS; [0] is string 1

  std::uint8_t type() const { return formatted[0]; }
  std::optional<std::uint8_t> byte(std::size_t at) const {
    if (at >= formatted.size()) return std::nullopt;
    return formatted[at];
  }
  std::optional<std::uint16_t> word(std::size_t at) const {
    if (at + 2 > formatted.size()) return std::nullopt;
    return static_cast<std::uint16_t>(formatted[at] | (formatted[at + 1] << 8));
  }
  std::optional<std::uint32_t> dword(std::size_t at) const {
    if (at + 4 > formatted.size()) return std::nullopt;
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | formatted[at + i];
    return v;
  }
  // The string a field at `at` points to; "" when absent or out of range.
  std::string text(std::size_t at) const {
    auto index = byte(at);
    if (!index || *index == 0 || *index > strings.size()) return "";
    return std::string(strings[*index - 1]);
  }
};

// The strings after a formatted area; `end` is set past the double NUL.
// False when they run past the table.
bool read_strings(std::span<const std::uint8_t> table, std::size_t start, Structure& s, std::size_t& end) {
  std::size_t i = start;
  // No strings: two NULs straight away.
  if (i + 1 < table.size() && table[i] == 0 && table[i + 1] == 0) {
    end = i + 2;
    return true;
  }
  while (i < table.size()) {
    std::size_t j = i;
    while (j < table.size() && table[j] != 0) ++j;
    if (j >= table.size()) return false;
    s.strings.emplace_back(reinterpret_cast<const char*>(table.data() + i), j - i);
    i = j + 1;
    if (i < table.size() && table[i] == 0) {
      end = i + 1;
      return true;
    }
  }
  return false;
}

std::optional<std::uint32_t> speed(const Structure& s, std::size_t at, std::size_t extended_at) {
  auto v = s.word(at);
  if (!v || *v == 0) return std::nullopt;
  if (*v != 0xFFFF) return *v;
  auto ext = s.dword(extended_at);  // SMBIOS 3.3: the speed no longer fits a word
  if (!ext || (*ext & 0x7FFFFFFF) == 0) return std::nullopt;
  return *ext & 0x7FFFFFFF;
}

// Size word: 0 empty, 0xFFFF unknown, 0x7FFF "see the extended size"
// (a dword of MiB), bit 15 set: the rest counts KiB instead of MiB.
void read_size(const Structure& s, MemoryDevice& d) {
  auto size = s.word(0x0C);
  if (!size || *size == 0xFFFF) return;
  d.installed = *size != 0;
  if (*size == 0) return;
  if (*size == 0x7FFF) {
    if (auto ext = s.dword(0x1C)) d.size_bytes = std::uint64_t{*ext & 0x7FFFFFFF} << 20;
    return;
  }
  const std::uint64_t units = *size & 0x7FFF;
  d.size_bytes = (*size & 0x8000) ? units << 10 : units << 20;
}

std::optional<std::uint32_t> width(const Structure& s, std::size_t at) {
  auto w = s.word(at);
  if (!w || *w == 0 || *w == 0xFFFF) return std::nullopt;
  return *w;
}

std::string form_factor_name(std::optional<std::uint8_t> code) {
  static constexpr std::array<const char*, 17> names = {"",        "",       "",
                                                        "SIMM",    "SIP",    "Chip",
                                                        "DIP",     "ZIP",    "Proprietary Card",
                                                        "DIMM",    "TSOP",   "Row Of Chips",
                                                        "RIMM",    "SODIMM", "SRIMM",
                                                        "FB-DIMM", "Die"};
  return code && *code < names.size() ? names[*code] : "";
}

MemoryDevice memory_device(const Structure& s) {
  MemoryDevice d;
  d.total_width_bits = width(s, 0x08);
  d.data_width_bits = width(s, 0x0A);
  read_size(s, d);
  d.form_factor = form_factor_name(s.byte(0x0E));
  d.locator = s.text(0x10);
  d.bank_locator = s.text(0x11);
  if (auto t = s.byte(0x12)) {
    const std::string name = memory_type_name(*t);
    if (!name.empty() && !name.starts_with("type ")) d.type = name;
    if (name.starts_with("type ")) d.type_note = "SMBIOS memory " + name + " (not named by this build)";
  }
  d.rated_mts = speed(s, 0x15, 0x54);
  d.manufacturer = s.text(0x17);
  d.part_number = s.text(0x1A);
  d.configured_mts = speed(s, 0x20, 0x58);
  if (d.installed) infer_memory_type(d);
  return d;
}

// The Arm families of type 4 (SMBIOS 3.x table 23, "Processor Family 2"
// values above 0xFF): the only ones the model fallback needs a name for, on
// Arm servers whose /proc/cpuinfo names no model. Others: "".
std::string arm_processor_family(std::uint16_t code) {
  switch (code) {
    case 0x100: return "ARMv7";
    case 0x101: return "ARMv8";
    case 0x102: return "ARMv9";
    case 0x118: return "ARM";
    default: return "";
  }
}

Processor processor(const Structure& s) {
  Processor p;
  p.socket = s.text(0x04);
  p.manufacturer = s.text(0x07);
  p.version = s.text(0x10);
  // 0xFE in the family byte: "see Processor Family 2" (the word at 0x28, SMBIOS 2.6+).
  if (auto family = s.byte(0x06); family == std::uint8_t{0xFE}) {
    if (auto family2 = s.word(0x28)) p.family = arm_processor_family(*family2);
  }
  auto status = s.byte(0x18);
  p.populated = status && (*status & 0x40) != 0;
  return p;
}

MemoryArray memory_array(const Structure& s) {
  MemoryArray a;
  if (auto devices = s.word(0x0D)) a.devices = *devices;
  return a;
}

}  // namespace

SmbiosMemory parse_smbios_table(std::span<const std::uint8_t> table) {
  SmbiosMemory out;
  std::size_t at = 0;
  while (at + 4 <= table.size()) {
    const std::size_t length = table[at + 1];
    if (length < 4 || at + length > table.size()) break;
    Structure s{table.subspan(at, length), {}};
    std::size_t end = 0;
    if (!read_strings(table, at + length, s, end)) break;
    if (s.type() == 127) break;  // end-of-table
    if (s.type() == 17) out.devices.push_back(memory_device(s));
    if (s.type() == 4) out.processors.push_back(processor(s));
    if (s.type() == 16 && s.byte(0x05) == std::uint8_t{3}) out.arrays.push_back(memory_array(s));  // use: system memory
    at = end;
  }
  out.source = "SMBIOS table";
  return out;
}

std::string memory_type_name(std::uint8_t code) {
  switch (code) {
    case 0x01:
    case 0x02: return "";
    case 0x12: return "DDR";
    case 0x13: return "DDR2";
    case 0x14: return "DDR2 FB-DIMM";
    case 0x18: return "DDR3";
    case 0x1A: return "DDR4";
    case 0x1B: return "LPDDR";
    case 0x1C: return "LPDDR2";
    case 0x1D: return "LPDDR3";
    case 0x1E: return "LPDDR4";
    case 0x20: return "HBM";
    case 0x21: return "HBM2";
    case 0x22: return "DDR5";
    case 0x23: return "LPDDR5";
    case 0x24: return "HBM3";
    default: return "type 0x" + std::string(1, "0123456789abcdef"[code >> 4]) + "0123456789abcdef"[code & 15];
  }
}

void infer_memory_type(MemoryDevice& device) {
  if (device.type != "unknown") return;
  // DDR4's JEDEC speeds end at 3200 MT/s and DDR5's start above it; a module
  // (not soldered "Row Of Chips": LPDDR5 runs that fast too) rated at 4800
  // or more is DDR5. Anything less certain stays "unknown".
  const bool module = device.form_factor.find("DIMM") != std::string::npos;
  if (module && device.rated_mts && *device.rated_mts >= 4800) {
    device.type = "DDR5";
    device.type_note += (device.type_note.empty() ? "" : "; ") + std::string("DDR5 inferred: a DIMM rated at ") +
                        std::to_string(*device.rated_mts) + " MT/s (DDR4 ends at 3200)";
  }
}

}  // namespace movebench::facts
