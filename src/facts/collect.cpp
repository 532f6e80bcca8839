// collect: every part of the facts, as the result document's `facts` holds
// them, the settings' warnings gathered in one list, and whose machine each
// part describes (`origin`).
#include <fmt/format.h>

#include <array>
#include <string_view>

#include "facts/accelerators.hpp"
#include "facts/facts.hpp"

namespace movebench::facts {
namespace {

// Each part, the option whose file can describe it (empty: none can), and
// why a file cannot where none can.
struct Part {
  std::string_view name;
  std::string_view option;
  std::string_view read_from;  // what describes it
};
constexpr std::array<Part, 7> kParts{{
    {"cpu", "--dmidecode", "SMBIOS type 4 (--dmidecode FILE) tells the CPU"},
    {"dram", "--dmidecode", "SMBIOS type 17 (--dmidecode FILE) tells the DIMMs"},
    {"pcie", "--lspci", "`lspci -vv` (--lspci FILE) tells the PCIe links"},
    {"accelerators", "", "the device backends see only the machine movebench runs on"},
    {"nics", "", "a port's rate is read from the sysfs of the machine movebench runs on"},
    {"memory_tiers", "", "hwloc reads the HMAT of the machine movebench runs on"},
    {"settings", "", "they are read from the sysfs and procfs of the machine movebench runs on"},
}};

std::string file_of(const Sources& sources, std::string_view option) {
  if (option == "--dmidecode") return sources.dmidecode_file;
  if (option == "--lspci") return sources.lspci_file;
  return {};
}

// "--dmidecode F, --lspci G": the files given.
std::string files_given(const Sources& sources) {
  std::string out;
  for (std::string_view option : {"--dmidecode", "--lspci"}) {
    const std::string file = file_of(sources, option);
    if (!file.empty()) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", option, file);
  }
  return out;
}

}  // namespace

nlohmann::json fact_origins(const Sources& sources) {
  const std::string files = files_given(sources);
  nlohmann::json origin = nlohmann::json::object();
  for (const auto& part : kParts) {
    const std::string file = file_of(sources, part.option);
    auto& o = origin[std::string(part.name)];
    if (files.empty()) {
      o = {{"machine", "this"}};
    } else if (!file.empty()) {
      o = {{"machine", "file"}, {"option", part.option}, {"file", file}};
    } else {
      o = {{"machine", "none"}, {"why", fmt::format("not in the file ({}): {}", files, part.read_from)}};
    }
  }
  return origin;
}

namespace {

// The part `name`, read where its origin says, or "unknown" with the origin's
// why where no file given describes it (never this machine's in its place).
template <typename Read>
nlohmann::json part_of(const nlohmann::json& origin, const char* name, Read read) {
  const auto& o = origin[name];
  if (o["machine"] != "none") return read();
  nlohmann::json unknown = {{"status", "unknown"}, {"why", o["why"]}};
  if (std::string_view(name) == "cpu") unknown.update({{"model", "unknown"}, {"source", "not in the file"}});
  if (std::string_view(name) == "settings") unknown = nlohmann::json::object();  // no setting is known
  return unknown;
}

nlohmann::json warnings_of(const nlohmann::json& settings) {
  nlohmann::json warnings = nlohmann::json::array();
  for (const auto& [name, value] : settings.items()) {
    if (value.is_object() && value.contains("warning")) warnings.push_back(value["warning"]);
  }
  return warnings;
}

}  // namespace

nlohmann::json collect(const Sources& sources) {
  nlohmann::json out;
  const nlohmann::json origin = fact_origins(sources);
  out["origin"] = origin;
  out["cpu"] = part_of(origin, "cpu", [&] { return cpu_facts(sources); });
  out["dram"] = part_of(origin, "dram", [&] { return dram_facts(sources, out["cpu"]); });
  out["pcie"] = part_of(origin, "pcie", [&] { return pcie_facts(sources); });
  out["accelerators"] = part_of(origin, "accelerators", [] { return accelerator_facts(); });
  out["nics"] = part_of(origin, "nics", [&] { return nic_facts(sources); });
  out["memory_tiers"] = part_of(origin, "memory_tiers", [&] { return memory_tier_facts(sources); });
  out["settings"] = part_of(origin, "settings", [&] { return setting_facts(sources); });
  out["warnings"] = warnings_of(out["settings"]);
  return out;
}

nlohmann::json listed(const nlohmann::json& facts, const char* part) {
  if (!facts.is_object() || !facts.contains(part) || !facts[part].is_array()) return nlohmann::json::array();
  return facts[part];
}

}  // namespace movebench::facts
