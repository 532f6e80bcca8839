#include "facts/cpu_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <utility>
#include <vector>

namespace movebench::facts {
namespace {

std::string_view trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// "0x41", "0xd4f" (any case) -> the number; none for anything else.
std::optional<unsigned> midr_field_id(std::string_view text) {
  text = trimmed(text);
  if (!text.starts_with("0x") && !text.starts_with("0X")) return std::nullopt;
  text.remove_prefix(2);
  unsigned value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

struct ArmPart {
  unsigned implementer = 0;
  std::string implementer_name;
  unsigned part = 0;
  std::string part_name;
};

// The table's rows; a malformed row is a build's data error, thrown.
std::vector<ArmPart> parse_arm_parts(std::string_view csv) {
  std::vector<ArmPart> rows;
  bool header_seen = false;
  for (int line_number = 1; !csv.empty(); ++line_number) {
    const auto nl = csv.find('\n');
    const std::string_view line = csv.substr(0, nl);
    csv = nl == std::string_view::npos ? std::string_view{} : csv.substr(nl + 1);
    if (line.empty() || line.starts_with('#')) continue;
    if (!std::exchange(header_seen, true)) continue;
    std::vector<std::string_view> cells;
    for (std::size_t at = 0; at <= line.size();) {
      const auto comma = std::min(line.find(',', at), line.size());
      cells.push_back(line.substr(at, comma - at));
      at = comma + 1;
    }
    const auto implementer = cells.size() == 4 ? midr_field_id(cells[0]) : std::nullopt;
    const auto part = cells.size() == 4 ? midr_field_id(cells[2]) : std::nullopt;
    if (!implementer || !part || cells[1].empty() || cells[3].empty()) {
      throw std::runtime_error(fmt::format("arm_cpu_parts.csv line {}: not implementer,name,part,name", line_number));
    }
    rows.push_back({*implementer, std::string(cells[1]), *part, std::string(cells[3])});
  }
  return rows;
}

const std::vector<ArmPart>& arm_parts() {
  static const std::vector<ArmPart> rows = parse_arm_parts(builtin_arm_cpu_parts_csv());
  return rows;
}

// Firmware fills unset strings with these; they name no processor.
bool names_something(const std::string& text) {
  for (const char* placeholder : {"Not Specified", "Unknown", "To Be Filled By O.E.M.", "Default string", "None"}) {
    if (text == placeholder) return false;
  }
  return !trimmed(text).empty();
}

}  // namespace

CpuinfoFields parse_cpuinfo(std::string_view text) {
  CpuinfoFields f;
  bool first_block = true;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (trimmed(line).empty()) first_block = false;
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = trimmed(line.substr(0, colon));
    // As core/host_info's cpu_model_name reads it (the name every result's
    // "host" holds): spaces after the colon dropped, nothing else.
    if (key == "model name" && f.model_name.empty()) {
      const auto start = line.find_first_not_of(' ', colon + 1);
      if (start != std::string_view::npos) f.model_name = std::string(line.substr(start));
    }
    if (!first_block) continue;
    const std::string value(trimmed(line.substr(colon + 1)));
    if (key == "vendor_id") f.vendor_id = value;
    if (key == "cpu family") f.family = value;
    if (key == "model") f.model_number = value;
    if (key == "CPU implementer") f.implementer = value;
    if (key == "CPU part") f.part = value;
  }
  return f;
}

std::optional<std::string> smbios_cpu_model(const SmbiosMemory& smbios, std::string& field) {
  for (const auto& p : smbios.processors) {
    if (!p.populated) continue;
    if (names_something(p.version)) {
      field = "Version";
      return p.version;
    }
    std::string name = names_something(p.manufacturer) ? p.manufacturer : "";
    if (names_something(p.family)) name += (name.empty() ? "" : " ") + p.family;
    if (!name.empty()) {
      field = "Manufacturer and Family";
      return name;
    }
  }
  return std::nullopt;
}

std::optional<std::string> midr_cpu_model(std::string_view implementer, std::string_view part) {
  const auto implementer_id = midr_field_id(implementer);
  const auto part_id = midr_field_id(part);
  if (!implementer_id || !part_id) return std::nullopt;
  for (const auto& row : arm_parts()) {
    if (row.implementer == *implementer_id && row.part == *part_id) return row.implementer_name + " " + row.part_name;
  }
  return std::nullopt;
}

CpuModel choose_cpu_model(const CpuinfoFields& cpuinfo, const std::optional<SmbiosMemory>& smbios,
                          const std::string& smbios_why) {
  if (!cpuinfo.model_name.empty()) return {cpuinfo.model_name, "cpuinfo", cpuinfo.path + " model name"};
  std::string missing = cpuinfo.path + " has no model name";
  if (smbios) {
    std::string field;
    if (auto model = smbios_cpu_model(*smbios, field)) {
      return {*model, "smbios", fmt::format("SMBIOS type 4 {} ({}; {})", field, smbios->source, missing)};
    }
    missing += fmt::format("; {} names no populated processor (SMBIOS type 4)", smbios->source);
  } else {
    missing += "; " + smbios_why;
  }
  if (auto model = midr_cpu_model(cpuinfo.implementer, cpuinfo.part)) {
    return {*model, "midr",
            fmt::format("the MIDR (CPU implementer {}, CPU part {}) as util-linux lscpu names the core ({})",
                        cpuinfo.implementer, cpuinfo.part, missing)};
  }
  if (!cpuinfo.implementer.empty()) {
    missing += fmt::format("; CPU implementer {} part {} is not in data/arm_cpu_parts.csv", cpuinfo.implementer,
                           cpuinfo.part.empty() ? "unknown" : cpuinfo.part);
  }
  return {"unknown CPU", "none", missing};
}

}  // namespace movebench::facts
