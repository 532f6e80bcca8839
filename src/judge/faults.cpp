#include "judge/faults.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>

#include "core/figure.hpp"
#include "facts/c2c.hpp"
#include "facts/facts.hpp"
#include "facts/pcie_link.hpp"

namespace movebench::judge {
namespace {

// DRAM faults that lower the peak reached; the others (unknown_cpu,
// dimms_per_channel alone) explain but do not make the path degraded.
const std::set<std::string> kDramFaults = {"empty_channels", "clocked_down", "mixed_speeds"};

nlohmann::json dram_faults(const nlohmann::json& facts) {
  nlohmann::json out = nlohmann::json::array();
  const auto dram = facts.value("dram", nlohmann::json::object());
  for (const auto& f : dram.value("faults", nlohmann::json::array())) {
    if (kDramFaults.count(f.value("kind", ""))) out.push_back(f.value("text", f.value("kind", "")));
  }
  return out;
}

// The figure in bytes per second per direction.
double per_direction_bytes(const nlohmann::json& figure) {
  const int directions = figure.contains("accounting") ? figure["accounting"].value("directions", 1) : 1;
  const auto scale = static_cast<int>(scale_of_unit(figure.value("unit", "B/s")));
  return figure.value("value", 0.0) * std::pow(1000.0, scale) / directions;
}

nlohmann::json link_faults(const nlohmann::json& doc, const nlohmann::json& facts, const nlohmann::json& figure) {
  nlohmann::json out = nlohmann::json::array();
  const auto device = doc.value("link_device", nlohmann::json::object());
  const std::string bus = facts::normalize_bus_id(device.value("bus_id", ""));
  for (const auto& p : facts::listed(facts, "pcie")) {
    if (facts::normalize_bus_id(p.value("bus_id", "")) == bus && p.value("degraded", false)) {
      out.push_back(p.value("why", "PCIe link trained below its maximum"));
      return out;
    }
  }
  const auto pcie = device.value("pcie", nlohmann::json::object());
  const int gen = pcie.value("generation", 0), max_gen = pcie.value("max_generation", 0);
  const int width = pcie.value("width", 0), max_width = pcie.value("max_width", 0);
  if (gen >= max_gen && width >= max_width) return out;
  const double as_read = pcie.value("theoretical_bytes_per_second_per_direction", 0.0);
  if (as_read > 0 && per_direction_bytes(figure) > as_read) return out;  // it ran faster than read: power saving
  out.push_back(fmt::format("link trained at Gen{} x{} below its maximum Gen{} x{}", gen, width, max_gen, max_width));
  return out;
}

// Inactive C2C links: the peak counts the active ones only, so a lost link
// shows here and not as a lower fraction.
nlohmann::json c2c_faults(const nlohmann::json& doc, const nlohmann::json& facts) {
  nlohmann::json out = nlohmann::json::array();
  const auto device = doc.value("link_device", nlohmann::json::object());
  const auto gpu = facts::c2c_device(facts, facts::normalize_bus_id(device.value("bus_id", "")));
  if (gpu.is_null() || !gpu.value("link_count", nlohmann::json()).is_number()) return out;
  const int active = gpu.value("links_active", 0), count = gpu["link_count"].get<int>();
  if (active < count) out.push_back(fmt::format("{} of {} NVLink-C2C links inactive (NVML)", count - active, count));
  return out;
}

nlohmann::json network_faults(const nlohmann::json& facts) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : facts::listed(facts, "pcie")) {
    if (p.value("kind", "") == "nic" && p.value("degraded", false)) {
      out.push_back(
          fmt::format("NIC {}: {}", p.value("name", p.value("bus_id", "")), p.value("why", "below its maximum")));
    }
  }
  for (const auto& n : facts::listed(facts, "nics")) {
    if (n.value("degraded", false))
      out.push_back(fmt::format("NIC {}: {}", n.value("name", ""), n.value("why", "below its maximum")));
  }
  return out;
}

}  // namespace

nlohmann::json path_faults(const nlohmann::json& doc, const nlohmann::json& facts, const nlohmann::json& peak,
                           const nlohmann::json& figure) {
  const std::string kind = peak.value("kind", "");
  if (kind == "dram") return dram_faults(facts);
  if (kind == "pcie") return link_faults(doc, facts, figure);
  if (kind == "c2c") return c2c_faults(doc, facts);
  if (kind == "network") return network_faults(facts);
  return nlohmann::json::array();
}

std::vector<std::string> setting_warnings(const nlohmann::json& facts) {
  std::vector<std::string> out;
  if (!facts.contains("settings") || !facts["settings"].is_object()) return out;
  for (const auto& [key, setting] : facts["settings"].items()) {
    if (setting.is_object() && setting.contains("warning") && setting["warning"].is_string()) {
      out.push_back(setting["warning"].get<std::string>());
    }
  }
  return out;
}

}  // namespace movebench::judge
