// collect: every part of the facts, as the result document's `facts` holds
// them, and the settings' warnings gathered in one list.
#include "facts/facts.hpp"

#include "facts/accelerators.hpp"

namespace movebench::facts {
namespace {

// The links a machine has: PCIe devices, the accelerators on them (their
// memory and its peak, from the lister the device layer gives), NICs and
// memory tiers.
void link_facts(const Sources& sources, nlohmann::json& out) {
  out["pcie"] = pcie_facts(sources);
  // The backends see this machine only: another machine's lspci gets no
  // accelerators of this one beside its buses.
  out["accelerators"] = sources.lspci_file.empty()
                            ? accelerator_facts()
                            : nlohmann::json{{"status", "unknown"},
                                             {"why", "--lspci describes another machine; the device backends see only this one"}};
  out["nics"] = nic_facts(sources);
  out["memory_tiers"] = memory_tier_facts(sources);
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
  out["cpu"] = cpu_facts(sources);
  out["dram"] = dram_facts(sources, out["cpu"]);
  link_facts(sources, out);
  out["settings"] = setting_facts(sources);
  out["warnings"] = warnings_of(out["settings"]);
  // Settings are this machine's even when the hardware is read from another
  // machine's files: said, so no one takes them for that machine's.
  if (!sources.dmidecode_file.empty() || !sources.lspci_file.empty()) {
    out["settings_note"] = "settings are those of the machine movebench ran on, not of the given files' machine";
  }
  return out;
}

}  // namespace movebench::facts
