#include "node/node_hwloc.hpp"

#include <fmt/format.h>
#include <hwloc.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>

namespace movebench::node {
namespace {

using Topology = std::unique_ptr<hwloc_topology, decltype(&hwloc_topology_destroy)>;

std::string load(Topology& topology, const std::string& synthetic) {
  hwloc_topology_t t = nullptr;
  if (hwloc_topology_init(&t) != 0) return "hwloc_topology_init failed";
  topology.reset(t);
  if (!synthetic.empty() && hwloc_topology_set_synthetic(t, synthetic.c_str()) != 0) {
    return fmt::format("hwloc cannot read the synthetic topology '{}'", synthetic);
  }
  if (hwloc_topology_load(t) != 0) return fmt::format("hwloc_topology_load failed: {}", std::strerror(errno));
  return "";
}

// Sets one attribute of `target` from the initiator's cpuset; 0 values
// (not measured) are left out.
std::string set(hwloc_topology_t t, hwloc_memattr_id_t id, hwloc_obj_t initiator, hwloc_obj_t target, double value) {
  if (value <= 0) return "";
  hwloc_location where{};
  where.type = HWLOC_LOCATION_TYPE_CPUSET;
  where.location.cpuset = initiator->cpuset;
  const auto v = static_cast<hwloc_uint64_t>(std::max(1.0, std::round(value)));
  if (hwloc_memattr_set_value(t, id, target, &where, 0, v) != 0) {
    return fmt::format("hwloc_memattr_set_value failed for node {} -> node {}: {}", initiator->os_index,
                       target->os_index, std::strerror(errno));
  }
  return "";
}

std::string set_path(hwloc_topology_t t, const MeasuredPath& p) {
  hwloc_obj_t initiator = hwloc_get_numanode_obj_by_os_index(t, static_cast<unsigned>(p.initiator));
  hwloc_obj_t target = hwloc_get_numanode_obj_by_os_index(t, static_cast<unsigned>(p.target));
  if (initiator == nullptr || target == nullptr) {
    return fmt::format("hwloc's topology has no NUMA node {}", initiator == nullptr ? p.initiator : p.target);
  }
  std::string why = set(t, HWLOC_MEMATTR_ID_BANDWIDTH, initiator, target, static_cast<double>(mib_per_s(p.triad_mbs)));
  if (why.empty()) why = set(t, HWLOC_MEMATTR_ID_LATENCY, initiator, target, p.latency_ns);
#if HWLOC_API_VERSION >= 0x00020800  // ReadBandwidth came with hwloc 2.8 (Debian 12 has 2.9)
  if (why.empty())
    why = set(t, HWLOC_MEMATTR_ID_READ_BANDWIDTH, initiator, target, static_cast<double>(mib_per_s(p.sum_mbs)));
#endif
  return why;
}

}  // namespace

unsigned long long mib_per_s(double mb_per_s) {
  return static_cast<unsigned long long>(std::llround(mb_per_s * 1e6 / (1024.0 * 1024.0)));
}

std::vector<MeasuredPath> measured_paths(const nlohmann::json& doc) {
  std::map<std::pair<int, int>, MeasuredPath> cells;
  for (const auto& r : doc.value("timings", nlohmann::json::array())) {
    if (r.value("benchmark", "") != "node" || r.value("operation", "") != "numa") continue;
    const auto& p = r.at("params");
    const int i = p.at("initiator").get<int>(), t = p.at("target").get<int>();
    MeasuredPath& cell = cells[{i, t}];
    cell.initiator = i;
    cell.target = t;
    const std::string kernel = p.value("kernel", "");
    const auto& figures = r.at("figures");
    if (kernel == "sum" && figures.contains("bandwidth")) cell.sum_mbs = figures["bandwidth"].at("value").get<double>();
    if (kernel == "triad" && figures.contains("bandwidth"))
      cell.triad_mbs = figures["bandwidth"].at("value").get<double>();
    if (kernel == "chase" && figures.contains("latency"))
      cell.latency_ns = figures["latency"].at("value").get<double>();
  }
  std::vector<MeasuredPath> out;
  for (const auto& [key, cell] : cells) out.push_back(cell);
  return out;
}

std::optional<std::string> hwloc_xml_unwritable(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return "a folder";
  const bool existed = std::filesystem::exists(path, ec);
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (f == nullptr) return std::string(std::strerror(errno));
  std::fclose(f);
  if (!existed) std::filesystem::remove(path, ec);
  return std::nullopt;
}

std::string write_hwloc_xml(const std::string& path, const std::vector<MeasuredPath>& paths,
                            const std::string& synthetic) {
  Topology topology(nullptr, hwloc_topology_destroy);
  if (auto why = load(topology, synthetic); !why.empty()) return why;
  for (const MeasuredPath& p : paths) {
    if (auto why = set_path(topology.get(), p); !why.empty()) return why;
  }
  errno = 0;
  if (hwloc_topology_export_xml(topology.get(), path.c_str(), 0) != 0) {
    return fmt::format("hwloc_topology_export_xml failed: {}", errno != 0 ? std::strerror(errno) : "no reason given");
  }
  return "";
}

}  // namespace movebench::node
