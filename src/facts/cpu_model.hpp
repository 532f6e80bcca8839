// The CPU's model name and where it came from. The CPU table and the bands
// of normal are matched on this name, so a machine with no name falls back to
// the general rows. /proc/cpuinfo's "model name" where it has one (x86); on
// arm64, whose /proc/cpuinfo has none, SMBIOS type 4 (the processor's
// Version, else its Manufacturer and Family), else the core its MIDR fields
// name ("CPU implementer", "CPU part"), from the table util-linux lscpu keeps
// (data/arm_cpu_parts.csv). docs/facts.md#cpu-model.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "facts/smbios.hpp"

namespace movebench::facts {

// What /proc/cpuinfo says of the CPU; "" where a field is absent.
struct CpuinfoFields {
  std::string path;        // where it was read, for the words of CpuModel::from
  std::string model_name;  // the first "model name" (x86; none on arm64)
  // The first processor's ids: x86 "vendor_id", "cpu family", "model";
  // arm64 "CPU implementer", "CPU part" ("0x41", "0xd4f").
  std::string vendor_id, family, model_number, implementer, part;
};

CpuinfoFields parse_cpuinfo(std::string_view text);

// data/arm_cpu_parts.csv, embedded at build time (src/facts/CMakeLists.txt).
std::string_view builtin_arm_cpu_parts_csv();

struct CpuModel {
  std::string model;   // "unknown CPU" where nothing names it
  std::string source;  // "cpuinfo" | "smbios" | "midr" | "none"
  std::string from;    // how, in words, and why the sources before it did not say
};

// The first populated processor's (type 4) Version, else its Manufacturer
// and Family ("NVIDIA ARMv9"); placeholders ("To Be Filled By O.E.M.") are no
// name. None where no processor names one; `field` says which was read.
std::optional<std::string> smbios_cpu_model(const SmbiosMemory& smbios, std::string& field);

// "ARM Neoverse-V2" for implementer 0x41, part 0xd4f (hexadecimal, as
// /proc/cpuinfo prints them); none where the table has not the pair.
std::optional<std::string> midr_cpu_model(std::string_view implementer, std::string_view part);

// The first source that names the CPU: cpuinfo's model name, SMBIOS type 4
// (`smbios` none where no table was read, `smbios_why` says why), the MIDR.
CpuModel choose_cpu_model(const CpuinfoFields& cpuinfo, const std::optional<SmbiosMemory>& smbios,
                          const std::string& smbios_why);

}  // namespace movebench::facts
