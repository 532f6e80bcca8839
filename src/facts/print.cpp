// The table `movebench facts` prints: every figure with its source, and
// "unknown" with the reason where a fact could not be read.
#include <fmt/format.h>

#include <utility>
#include <vector>

#include "core/figure.hpp"
#include "facts/facts.hpp"
#include "facts/accelerators.hpp"
#include "facts/facts_command.hpp"

namespace movebench::facts {

std::string fact_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "unknown";
  return v.dump();
}
namespace {

std::string rate(const nlohmann::json& v) { return v.is_number() ? gb_per_second_text(v.get<double>()) : fact_text(v); }

void cpu_section(const nlohmann::json& cpu, std::string& out) {
  out += fmt::format("CPU       {}\n", fact_text(cpu.value("model", nlohmann::json("unknown"))));
  out += fmt::format(
      "          vendor {}, family {}, model {}; sockets {}, cores {}, threads per core {}, NUMA nodes {}\n",
      fact_text(cpu["vendor"]), fact_text(cpu["family"]), fact_text(cpu["model_number"]), fact_text(cpu["sockets"]),
      fact_text(cpu["cores"]), fact_text(cpu["threads_per_core"]), fact_text(cpu["numa_nodes"]));
  std::string caches;
  for (const auto& c : cpu.value("caches", nlohmann::json::array())) {
    caches += fmt::format("{}L{} {} KiB x {}", caches.empty() ? "" : ", ", fact_text(c["level"]),
                          c["bytes"].get<double>() / 1024, fact_text(c["instances"]));
  }
  if (!caches.empty()) out += "          caches " + caches + "\n";
  // Where the model came from (facts of movebench before model_from have none).
  const std::string model_from = cpu.contains("model_from") ? "; model from " + fact_text(cpu["model_from"]) : "";
  out += "          source: " + fact_text(cpu["source"]) + model_from + "\n";
}

void dimm_lines(const nlohmann::json& dram, std::string& out) {
  for (const auto& d : dram["dimms"]) {
    out += fmt::format("    {:<28} {:<24} socket {:<7} channel {:<22} {} {:.0f} GiB, {}/{} MT/s (rated/configured)\n",
                       fact_text(d["locator"]), fact_text(d["bank_locator"]), fact_text(d["socket"]),
                       fact_text(d["channel"]), fact_text(d["type"]),
                       d["size_bytes"].is_number() ? d["size_bytes"].get<double>() / (1 << 30) : 0.0,
                       fact_text(d["rated_mts"]), fact_text(d["configured_mts"]));
  }
  if (!dram["empty_slots"].empty()) out += fmt::format("    empty slots: {}\n", dram["empty_slots"].size());
}

void dram_section(const nlohmann::json& dram, std::string& out) {
  if (dram.value("status", "") != "known") {
    out += "DRAM      unknown: " + fact_text(dram["why"]) + "\n";
    return;
  }
  out += fmt::format("DRAM      peak {} ({}), {} channels in use of {} per socket\n",
                     rate(dram["peak_bytes_per_second"]), fact_text(dram["peak_kind"]),
                     fact_text(dram["channels_in_use"]), fact_text(dram["channels_per_socket"]));
  out += "          formula: " + fact_text(dram["peak_formula"]) + "\n";
  const auto& cs = dram["channels_source"];
  out +=
      "          channels: " +
      (cs.contains("family") ? fact_text(cs["family"]) + " (" + fact_text(cs["source"]) + ")" : fact_text(cs["why"])) +
      "\n";
  out += "          source: " + fact_text(dram["source"]) + "\n";
  for (const auto& s : dram["sockets"]) {
    out += fmt::format("  socket {}: {} DIMMs, {} of {} channels, up to {} DIMM(s) per channel, {} MT/s, peak {}\n",
                       fact_text(s["socket"]), fact_text(s["dimms"]), fact_text(s["channels_populated"]),
                       fact_text(s["channels_total"]), fact_text(s["dimms_per_channel"]),
                       fact_text(s["configured_mts"]), rate(s["peak_bytes_per_second"]));
  }
  dimm_lines(dram, out);
  for (const auto& f : dram["faults"])
    out += fmt::format("  fault {}: {}\n", fact_text(f["kind"]), fact_text(f["text"]));
  out += fmt::format("  limit: {} ({})\n", fact_text(dram["limit"]["kind"]), fact_text(dram["limit"]["text"]));
}

// One line per device: its trained link against its maximum and the peak
// per direction; DEGRADED with the reason where it trained below both ends;
// the accelerators on its bus beside its name.
void pcie_section(const nlohmann::json& pcie, const nlohmann::json& accelerators, std::string& out) {
  out += fmt::format("PCIe      {} device(s) listed (GPUs, accelerators, NICs, NVMe)\n", pcie.size());
  for (const auto& d : pcie) {
    std::string link = "no link facts";
    if (d.value("has_link", false)) {
      link = fmt::format("Gen{} x{} of Gen{} x{}, peak {} per direction", fact_text(d["gen"]), fact_text(d["width"]),
                         fact_text(d["max_gen"]), fact_text(d["max_width"]), rate(d["peak_bytes_per_second"]));
    }
    const std::string on_bus = accelerators_on_bus(accelerators, fact_text(d["bus_id"]));
    out += fmt::format("  {} {:<11} {}{}: {}  [{}]\n", fact_text(d["bus_id"]), fact_text(d["kind"]),
                       fact_text(d["name"]), on_bus.empty() ? "" : " = " + on_bus, link, fact_text(d["source"]));
    if (d.value("degraded", false)) out += "                   DEGRADED: " + fact_text(d["why"]) + "\n";
  }
}

void nic_section(const nlohmann::json& nics, std::string& out) {
  out += fmt::format("NICs      {} port(s)\n", nics.size());
  for (const auto& n : nics) {
    const std::string speed = n.value("status", "") == "unknown"
                                  ? "unknown: " + fact_text(n["why"])
                                  : fmt::format("{:g} Gb/s, peak {}", n["rate_bits_per_second"].get<double>() / 1e9,
                                                rate(n["peak_bytes_per_second"]));
    out += fmt::format("  {:<12} {:<11} {}  [{}]\n", fact_text(n["name"]), fact_text(n["kind"]), speed,
                       fact_text(n["source"]));
  }
}

void settings_section(const nlohmann::json& settings, std::string& out) {
  out += "Settings\n";
  for (const auto& [name, s] : settings.items()) {
    std::string line = fmt::format("  {:<16} {}", name, fact_text(s["value"]));
    if (s.contains("why")) line += ": " + fact_text(s["why"]);
    line += "  [" + fact_text(s["source"]) + "]";
    if (s.contains("warning")) line += "\n                   WARNING: " + fact_text(s["warning"]);
    out += line + "\n";
  }
}

// The part's own section (empty where it prints none: a list part unknown
// is one line, memory tiers only when unknown).
std::string part_text(const nlohmann::json& facts, const std::string& part) {
  std::string out;
  const auto p = facts.value(part, nlohmann::json());
  if (part == "cpu") cpu_section(p, out);
  if (part == "dram") dram_section(p, out);
  if (part == "pcie" && p.is_array()) pcie_section(p, facts.value("accelerators", nlohmann::json()), out);
  // Documents from before the section have none: nothing to say of them.
  if (part == "accelerators" && !p.is_null()) out += accelerator_section(p, facts.value("pcie", nlohmann::json()));
  if (part == "nics" && p.is_array()) nic_section(p, out);
  if (part == "settings") settings_section(p, out);
  if (part == "pcie" || part == "nics" || part == "memory_tiers") {
    if (p.is_object() && p.value("status", "") == "unknown")
      out += fmt::format("{:<9} unknown: {}\n", part, fact_text(p["why"]));
  }
  return out;
}

// "Facts of the machine that --dmidecode F, --lspci G describe ...", the
// first line where files were given; empty where every part is this machine's.
std::string files_line(const nlohmann::json& origin) {
  std::string files;
  for (const auto& [part, o] : origin.items()) {
    if (o.value("machine", "") != "file") continue;
    const std::string file = fact_text(o["option"]) + " " + fact_text(o["file"]);
    if (files.find(file) == std::string::npos) files += (files.empty() ? "" : ", ") + file;
  }
  if (files.empty()) return {};
  return "Facts of the machine " + files + " describe" + (files.find(", ") == std::string::npos ? "s" : "") +
         ", not read from the one movebench runs on; what no file tells is \"not in the file\"\n";
}

}  // namespace

std::string facts_table(const nlohmann::json& facts) {
  static const std::vector<std::pair<std::string, std::string>> kParts = {
      {"cpu", "CPU"},          {"dram", "DRAM"},
      {"pcie", "PCIe"},        {"accelerators", "Accelerators"},
      {"nics", "NICs"},        {"memory_tiers", "memory_tiers"},
      {"settings", "Settings"}};
  const auto origin = facts.value("origin", nlohmann::json::object());
  std::string out = files_line(origin);
  for (const auto& [part, label] : kParts) {
    const auto o = origin.value(part, nlohmann::json::object());
    if (o.value("machine", "") == "none") {
      out += fmt::format("{:<9} {}\n", label, fact_text(o["why"]));
      continue;
    }
    std::string text = part_text(facts, part);
    // Whose facts a part read from a file are: after its first line.
    if (o.value("machine", "") == "file" && !text.empty()) {
      text.insert(text.find('\n') + 1, fmt::format("          machine: the one {} {} describes\n",
                                                   fact_text(o["option"]), fact_text(o["file"])));
    }
    out += text;
  }
  return out;
}

}  // namespace movebench::facts
