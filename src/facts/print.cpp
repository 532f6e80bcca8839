// The table `movebench facts` prints: every figure with its source, and
// "unknown" with the reason where a fact could not be read.
#include <fmt/format.h>

#include "facts/accelerators.hpp"
#include "facts/facts_command.hpp"

namespace movebench::facts {
namespace {

std::string text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "unknown";
  return v.dump();
}

std::string rate(const nlohmann::json& v) {
  return v.is_number() ? fmt::format("{:.1f} GB/s", v.get<double>() / 1e9) : text(v);
}

void cpu_section(const nlohmann::json& cpu, std::string& out) {
  out += fmt::format("CPU       {}\n", text(cpu.value("model", nlohmann::json("unknown"))));
  out += fmt::format("          vendor {}, family {}, model {}; sockets {}, cores {}, threads per core {}, NUMA nodes {}\n",
                     text(cpu["vendor"]), text(cpu["family"]), text(cpu["model_number"]), text(cpu["sockets"]),
                     text(cpu["cores"]), text(cpu["threads_per_core"]), text(cpu["numa_nodes"]));
  std::string caches;
  for (const auto& c : cpu.value("caches", nlohmann::json::array())) {
    caches += fmt::format("{}L{} {} KiB x {}", caches.empty() ? "" : ", ", text(c["level"]),
                          c["bytes"].get<double>() / 1024, text(c["instances"]));
  }
  if (!caches.empty()) out += "          caches " + caches + "\n";
  out += "          source: " + text(cpu["source"]) + "\n";
}

void dimm_lines(const nlohmann::json& dram, std::string& out) {
  for (const auto& d : dram["dimms"]) {
    out += fmt::format("    {:<28} {:<24} socket {:<7} channel {:<22} {} {:.0f} GiB, {}/{} MT/s (rated/configured)\n",
                       text(d["locator"]), text(d["bank_locator"]), text(d["socket"]), text(d["channel"]), text(d["type"]),
                       d["size_bytes"].is_number() ? d["size_bytes"].get<double>() / (1 << 30) : 0.0,
                       text(d["rated_mts"]), text(d["configured_mts"]));
  }
  if (!dram["empty_slots"].empty()) out += fmt::format("    empty slots: {}\n", dram["empty_slots"].size());
}

void dram_section(const nlohmann::json& dram, std::string& out) {
  if (dram.value("status", "") != "known") {
    out += "DRAM      unknown: " + text(dram["why"]) + "\n";
    return;
  }
  out += fmt::format("DRAM      peak {} ({}), {} channels in use of {} per socket\n", rate(dram["peak_bytes_per_second"]),
                     text(dram["peak_kind"]), text(dram["channels_in_use"]), text(dram["channels_per_socket"]));
  out += "          formula: " + text(dram["peak_formula"]) + "\n";
  const auto& cs = dram["channels_source"];
  out += "          channels: " + (cs.contains("family") ? text(cs["family"]) + " (" + text(cs["source"]) + ")" : text(cs["why"])) + "\n";
  out += "          source: " + text(dram["source"]) + "\n";
  for (const auto& s : dram["sockets"]) {
    out += fmt::format("  socket {}: {} DIMMs, {} of {} channels, up to {} DIMM(s) per channel, {} MT/s, peak {}\n",
                       text(s["socket"]), text(s["dimms"]), text(s["channels_populated"]), text(s["channels_total"]),
                       text(s["dimms_per_channel"]), text(s["configured_mts"]), rate(s["peak_bytes_per_second"]));
  }
  dimm_lines(dram, out);
  for (const auto& f : dram["faults"]) out += fmt::format("  fault {}: {}\n", text(f["kind"]), text(f["text"]));
  out += fmt::format("  limit: {} ({})\n", text(dram["limit"]["kind"]), text(dram["limit"]["text"]));
}

// One line per device: its trained link against its maximum and the peak
// per direction; DEGRADED with the reason where it trained below both ends;
// the accelerators on its bus beside its name.
void pcie_section(const nlohmann::json& pcie, const nlohmann::json& accelerators, std::string& out) {
  out += fmt::format("PCIe      {} device(s) listed (GPUs, accelerators, NICs, NVMe)\n", pcie.size());
  for (const auto& d : pcie) {
    std::string link = "no link facts";
    if (d.value("has_link", false)) {
      link = fmt::format("Gen{} x{} of Gen{} x{}, peak {} per direction", text(d["gen"]), text(d["width"]),
                         text(d["max_gen"]), text(d["max_width"]), rate(d["peak_bytes_per_second"]));
    }
    const std::string on_bus = accelerators_on_bus(accelerators, text(d["bus_id"]));
    out += fmt::format("  {} {:<11} {}{}: {}  [{}]\n", text(d["bus_id"]), text(d["kind"]), text(d["name"]),
                       on_bus.empty() ? "" : " = " + on_bus, link, text(d["source"]));
    if (d.value("degraded", false)) out += "                   DEGRADED: " + text(d["why"]) + "\n";
  }
}

void nic_section(const nlohmann::json& nics, std::string& out) {
  out += fmt::format("NICs      {} port(s)\n", nics.size());
  for (const auto& n : nics) {
    const std::string speed = n.value("status", "") == "unknown"
                                  ? "unknown: " + text(n["why"])
                                  : fmt::format("{:g} Gb/s, peak {}", n["rate_bits_per_second"].get<double>() / 1e9,
                                                rate(n["peak_bytes_per_second"]));
    out += fmt::format("  {:<12} {:<11} {}  [{}]\n", text(n["name"]), text(n["kind"]), speed, text(n["source"]));
  }
}

void settings_section(const nlohmann::json& settings, std::string& out) {
  out += "Settings\n";
  for (const auto& [name, s] : settings.items()) {
    std::string line = fmt::format("  {:<16} {}", name, text(s["value"]));
    if (s.contains("why")) line += ": " + text(s["why"]);
    line += "  [" + text(s["source"]) + "]";
    if (s.contains("warning")) line += "\n                   WARNING: " + text(s["warning"]);
    out += line + "\n";
  }
}

}  // namespace

std::string facts_table(const nlohmann::json& facts) {
  std::string out;
  cpu_section(facts["cpu"], out);
  dram_section(facts["dram"], out);
  const auto accelerators = facts.value("accelerators", nlohmann::json());
  if (facts["pcie"].is_array()) pcie_section(facts["pcie"], accelerators, out);
  // Documents from before the section have none: nothing to say of them.
  if (!accelerators.is_null()) out += accelerator_section(accelerators, facts["pcie"]);
  if (facts["nics"].is_array()) nic_section(facts["nics"], out);
  for (const char* part : {"pcie", "nics", "memory_tiers"}) {
    const auto& p = facts[part];
    if (p.is_object() && p.value("status", "") == "unknown") out += fmt::format("{:<9} unknown: {}\n", part, text(p["why"]));
  }
  settings_section(facts["settings"], out);
  if (facts.contains("settings_note")) out += "  (" + text(facts["settings_note"]) + ")\n";
  return out;
}

}  // namespace movebench::facts
