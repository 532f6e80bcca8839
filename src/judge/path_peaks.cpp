// The link and network peaks (peak_sources.hpp).
#include <fmt/format.h>

#include <set>

#include "core/vocabulary.hpp"
#include "facts/c2c.hpp"
#include "facts/facts.hpp"
#include "facts/pcie_link.hpp"
#include "judge/peak_sources.hpp"

namespace movebench::judge {
namespace {

// The facts' PCIe entry of this bus id (facts.pcie, from pcie_facts());
// null when it has none.
nlohmann::json pcie_fact(const nlohmann::json& facts, const std::string& bus_id) {
  if (!facts.contains("pcie") || !facts["pcie"].is_array()) return nullptr;
  for (const auto& p : facts["pcie"]) {
    if (p.contains("bus_id") && facts::normalize_bus_id(p["bus_id"].get<std::string>()) == bus_id) return p;
  }
  return nullptr;
}

std::string link_words(double gts, int width) {
  const auto encoding = facts::pcie_encoding(facts::pcie_generation(gts));
  return fmt::format("PCIe Gen{} x{}: {:g} GT/s x {} lanes, {}", facts::pcie_generation(gts), width, gts, width,
                     encoding ? encoding->name : "unknown encoding");
}

// A GPU on NVLink-C2C (Grace Hopper) moves host data over C2C, not over
// the PCIe function sysfs may list for it: its C2C peak, known or not.
nlohmann::json c2c_link_peak(const nlohmann::json& gpu, const std::string& path) {
  const auto peak = gpu.value("peak", nlohmann::json::object());
  if (!peak.contains("bytes_per_second")) {
    const std::string why = peak.value("why", std::string("not read"));
    return {{"path", path},
            {"kind", "c2c"},
            {"status", "unknown"},
            {"why", "the device is on NVLink-C2C, whose peak is unknown: " + why}};
  }
  return {{"path", path},
          {"kind", "c2c"},
          {"label", "NVLink-C2C"},
          {"bytes_per_second", peak["bytes_per_second"].get<double>()},
          {"source", peak.value("formula", "") + ", " + peak.value("source", "")}};
}

}  // namespace

nlohmann::json link_peak(const nlohmann::json& doc, const nlohmann::json& facts) {
  const auto device = doc.value("link_device", nlohmann::json::object());
  const std::string backend = device.value("backend", "");
  if (backend == vocabulary::kHostBackend || backend.empty())
    return peak_none("the host backend moves data within host memory: no link");
  if (!device.contains("bus_id")) {
    return {{"path", fmt::format("link ({})", backend)},
            {"kind", "pcie"},
            {"status", "unknown"},
            {"why", "the device reports no PCI bus id"}};
  }
  const std::string bus = facts::normalize_bus_id(device["bus_id"].get<std::string>());
  const std::string path = "link " + bus;
  if (const auto gpu = facts::c2c_device(facts, bus); !gpu.is_null()) return c2c_link_peak(gpu, path);
  const auto fact = pcie_fact(facts, bus);
  if (!fact.is_null() && fact.value("max_peak_bytes_per_second", 0.0) > 0) {
    return {{"path", path},
            {"kind", "pcie"},
            {"label", "PCIe"},
            {"bytes_per_second", fact["max_peak_bytes_per_second"].get<double>()},
            {"source", link_words(fact.value("max_speed_gts", 0.0), fact.value("max_width", 0)) + ", " +
                           fact.value("source", "facts")}};
  }
  const auto pcie = device.value("pcie", nlohmann::json::object());
  const double gts = pcie.value("max_speed_gts", 0.0);
  const int width = pcie.value("max_width", 0);
  if (gts <= 0 || width <= 0) {
    return {{"path", path},
            {"kind", "pcie"},
            {"status", "unknown"},
            {"why", "no PCIe link facts for the device (not in sysfs: a C2C/NVLink-attached device or a VM)"}};
  }
  // At the maximum both ends support: a link trained below it is a fault
  // of the path (verdict.cpp), not a lower peak.
  return {{"path", path},
          {"kind", "pcie"},
          {"label", "PCIe"},
          {"bytes_per_second", facts::pcie_peak_bytes_per_second(gts, width)},
          {"source", link_words(gts, width) + ", sysfs max_link_*"}};
}

nlohmann::json network_peak(const nlohmann::json& doc, const nlohmann::json& facts, const std::string& name) {
  const bool one_link =
      name == "p2p.bw" || name == "p2p.bibw" || name.ends_with(".busbw") || name == "beff.pingpong.bandwidth_Lmax";
  if (!one_link) return peak_none("an aggregate over ranks that share NICs: not held against one NIC's rate");
  std::set<std::string> hosts;
  if (doc.contains("mpi") && doc["mpi"].is_object() && doc["mpi"].contains("hosts")) {
    for (const auto& h : doc["mpi"]["hosts"]) hosts.insert(h.get<std::string>());
  }
  if (hosts.size() <= 1) return peak_none("same host: the ranks share memory, no NIC is on the path");
  const nlohmann::json nics = facts::listed(facts, "nics");
  const nlohmann::json* fastest = nullptr;
  for (const auto& nic : nics) {
    if (nic.value("peak_bytes_per_second", 0.0) <= 0) continue;
    if (!fastest || nic["peak_bytes_per_second"].get<double>() > (*fastest)["peak_bytes_per_second"].get<double>()) {
      fastest = &nic;
    }
  }
  if (!fastest) {
    return {{"path", "network"}, {"kind", "network"}, {"status", "unknown"}, {"why", "no NIC rate is known"}};
  }
  const auto& nic = *fastest;
  return {{"path", "network"},
          {"kind", "network"},
          {"label", "NIC"},
          {"bytes_per_second", nic["peak_bytes_per_second"].get<double>()},
          {"source", fmt::format("{} {:g} Gb/s, the fastest NIC, {}", nic.value("name", "NIC"),
                                 nic.value("rate_bits_per_second", 0.0) / 1e9, nic.value("source", "facts"))}};
}

}  // namespace movebench::judge
