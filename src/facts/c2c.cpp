#include "facts/facts.hpp"
#include "facts/c2c.hpp"

#include <fmt/format.h>

#include <regex>
#include <set>

#include "core/figure.hpp"
#include "facts/accelerators.hpp"
#include "facts/pcie_link.hpp"

namespace movebench::facts {
namespace {

nlohmann::json unknown(const std::string& why) { return {{"status", "unknown"}, {"why", why}}; }

const nlohmann::json& published_rows() {
  static const nlohmann::json rows = nlohmann::json::parse(builtin_c2c_text())["parts"];
  return rows;
}

// Sum over the active links of NVML's per-link MB/s (MB = 10^6 B, per
// direction: what NCCL's topology takes it as); false when an active link
// has none.
bool nvml_sum(const nlohmann::json& gpu, double& bytes, std::string& formula) {
  std::set<double> rates;
  double mb = 0;
  int active = 0;
  for (const auto& l : gpu.value("links", nlohmann::json::array())) {
    if (!l.value("active", false)) continue;
    if (!l.contains("max_mb_per_second")) return false;
    ++active;
    rates.insert(l["max_mb_per_second"].get<double>());
    mb += l["max_mb_per_second"].get<double>();
  }
  if (active == 0) return false;
  bytes = mb * 1e6;
  formula = rates.size() == 1
                ? fmt::format("{} active links x {:g} MB/s (NVML_FI_DEV_C2C_LINK_GET_MAX_BW)", active, *rates.begin())
                : fmt::format("sum over {} active links of NVML_FI_DEV_C2C_LINK_GET_MAX_BW = {:g} MB/s", active, mb);
  return true;
}

// The names the GPU on `bus` goes by: NVML's, then the backends'.
std::vector<std::string> names_of(const nlohmann::json& gpu, const nlohmann::json& accelerators) {
  std::vector<std::string> names;
  if (gpu.contains("name") && gpu["name"].is_string()) names.push_back(gpu["name"].get<std::string>());
  for (const auto& d : accelerators.value("devices", nlohmann::json::array())) {
    if (d.value("bus_id", nlohmann::json()).is_string() && d["bus_id"] == gpu.value("bus_id", "")) {
      names.push_back(d.value("name", ""));
    }
  }
  return names;
}

// "peak 450 GB/s per direction (formula; source)", and NVIDIA's figure
// beside NVML's where both are known, so a difference shows.
std::string peak_text(const nlohmann::json& gpu) {
  const auto peak = gpu.value("peak", nlohmann::json::object());
  if (!peak.contains("bytes_per_second")) return "peak unknown: " + peak.value("why", std::string("not computed"));
  std::string out =
      fmt::format("peak {} per direction ({}; {})", gb_per_second_text(peak["bytes_per_second"].get<double>()),
                  fact_text(peak["formula"]), fact_text(peak["source"]));
  if (gpu.contains("published") && peak.value("source", "") == "nvml field values") {
    out += fmt::format("; NVIDIA publishes {} for the {}",
                       gb_per_second_text(gpu["published"]["bytes_per_second"].get<double>()),
                       fact_text(gpu["published"]["part"]));
  }
  return out;
}

}  // namespace

nlohmann::json c2c_published(const std::vector<std::string>& names) {
  for (const auto& name : names) {
    for (const auto& row : published_rows()) {
      if (std::regex_search(name, std::regex(row["name_matches"].get<std::string>()))) return row;
    }
  }
  return nullptr;
}

nlohmann::json c2c_peak(const nlohmann::json& gpu, const std::vector<std::string>& names) {
  if (gpu.value("links_active", 0) <= 0) return unknown("no active C2C link");
  double bytes = 0;
  std::string formula;
  if (nvml_sum(gpu, bytes, formula)) {
    return {{"bytes_per_second", bytes}, {"formula", formula}, {"source", "nvml field values"}};
  }
  const auto row = c2c_published(names);
  if (row.is_null()) {
    return unknown(
        fmt::format("NVML gives no per-link C2C bandwidth, and no published figure (data/c2c.json) names "
                    "'{}'",
                    names.empty() ? "" : names.front()));
  }
  return {{"bytes_per_second", row["bytes_per_second"]},
          {"formula", fmt::format("NVIDIA's figure for the {}", fact_text(row["part"]))},
          {"source", fact_text(row["source"]) + " (" + fact_text(row["citations"][0]["url"]) + ")"}};
}

void add_c2c_peaks(nlohmann::json& accelerators) {
  if (!accelerators.is_object() || !accelerators.contains("c2c")) return;
  auto& c2c = accelerators["c2c"];
  if (!c2c.contains("devices")) return;
  for (auto& gpu : c2c["devices"]) {
    if (gpu.value("links_active", 0) <= 0) continue;
    const auto names = names_of(gpu, accelerators);
    gpu["peak"] = c2c_peak(gpu, names);
    const auto row = c2c_published(names);
    if (!row.is_null()) {
      gpu["published"] = {{"part", row["part"]},
                          {"bytes_per_second", row["bytes_per_second"]},
                          {"source", row["source"]},
                          {"url", row["citations"][0]["url"]}};
    }
  }
}

nlohmann::json c2c_device(const nlohmann::json& facts, const std::string& bus_id) {
  if (!facts.contains("accelerators") || !facts["accelerators"].is_object()) return nullptr;
  const auto c2c = facts["accelerators"].value("c2c", nlohmann::json::object());
  for (const auto& gpu : c2c.value("devices", nlohmann::json::array())) {
    if (normalize_bus_id(gpu.value("bus_id", "")) == bus_id && gpu.value("links_active", 0) > 0) return gpu;
  }
  return nullptr;
}

std::string c2c_section(const nlohmann::json& acc) {
  if (!acc.contains("c2c")) return {};
  const auto& c2c = acc["c2c"];
  if (c2c.value("status", "") != "known") {
    return fmt::format("  C2C: {}: {}\n", fact_text(c2c.value("status", nlohmann::json())),
                       fact_text(c2c.value("why", nlohmann::json())));
  }
  std::string out;
  for (const auto& gpu : c2c["devices"]) {
    if (gpu.value("links_active", 0) <= 0) continue;
    const std::string bus = fact_text(gpu["bus_id"]), on_bus = accelerators_on_bus(acc, bus);
    out += fmt::format("  C2C: {}{}: {} of {} links active, {}  [{}]\n", bus, on_bus.empty() ? "" : " (" + on_bus + ")",
                       fact_text(gpu["links_active"]), fact_text(gpu["link_count"]), peak_text(gpu),
                       fact_text(c2c["source"]));
  }
  return out;
}

}  // namespace movebench::facts
