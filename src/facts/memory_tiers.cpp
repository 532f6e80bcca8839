// memory_tier_facts: hwloc's memory attributes (hwloc >= 2.3), which it reads
// from the ACPI HMAT table when the firmware gives one.
#include <hwloc.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "facts/facts.hpp"

namespace movebench::facts {
namespace {

// hwloc's memory kind of a NUMA node (its subtype: "HBM", "DRAM", "NVM",
// "SPM", "GPUMemory", "CXL-DRAM"...) in the facts' words; a node without a
// subtype and without CPUs is "far" memory.
std::string node_kind(hwloc_obj_t node, bool has_cpus) {
  const std::string subtype = node->subtype ? node->subtype : "";
  if (subtype.find("HBM") != std::string::npos) return "hbm";
  if (subtype.find("CXL") != std::string::npos) return "cxl";
  if (subtype.find("NVM") != std::string::npos) return "nvm";
  if (subtype.empty() && !has_cpus) return "far";
  return subtype.empty() || subtype == "DRAM" ? "dram" : subtype;
}

// Whether the node has CPUs of its own: /sys/devices/system/node/nodeN/cpulist
// not empty (hwloc gives a CPU-less node its parent's cpuset, so that cannot say).
bool node_has_cpus(const std::string& sysfs_root, unsigned os_index) {
  std::ifstream in(sysfs_root + "/devices/system/node/node" + std::to_string(os_index) + "/cpulist");
  std::string line;
  std::getline(in, line);
  return !line.empty();
}

std::string initiator_text(const hwloc_location& where) {
  if (where.type == HWLOC_LOCATION_TYPE_OBJECT) {
    char type[64];
    hwloc_obj_type_snprintf(type, sizeof type, where.location.object, 0);
    return std::string(type) + ":" + std::to_string(where.location.object->logical_index);
  }
  char* list = nullptr;
  hwloc_bitmap_list_asprintf(&list, where.location.cpuset);
  std::string out = std::string("cpus ") + (list ? list : "?");
  std::free(list);
  return out;
}

// Every (initiator, value) hwloc has for one attribute and target node.
std::vector<std::pair<std::string, hwloc_uint64_t>> values_of(hwloc_topology_t topo, hwloc_memattr_id_t attr,
                                                              hwloc_obj_t target) {
  unsigned n = 0;
  if (hwloc_memattr_get_initiators(topo, attr, target, 0, &n, nullptr, nullptr) != 0 || n == 0) return {};
  std::vector<hwloc_location> where(n);
  std::vector<hwloc_uint64_t> values(n);
  if (hwloc_memattr_get_initiators(topo, attr, target, 0, &n, where.data(), values.data()) != 0) return {};
  std::vector<std::pair<std::string, hwloc_uint64_t>> out;
  for (unsigned i = 0; i < n && i < where.size(); ++i) out.emplace_back(initiator_text(where[i]), values[i]);
  return out;
}

// One row per target and initiator: bandwidth (hwloc gives MiB/s) and latency (ns).
void add_rows(hwloc_topology_t topo, hwloc_obj_t node, const std::string& kind, nlohmann::json& rows) {
  const std::string target = "node " + std::to_string(node->os_index);
  auto row_for = [&](const std::string& initiator) -> nlohmann::json& {
    for (auto& r : rows) {
      if (r["target"] == target && r["initiator"] == initiator) return r;
    }
    rows.push_back({{"target", target},
                    {"kind", kind},
                    {"initiator", initiator},
                    {"bandwidth_bytes_per_second", nullptr},
                    {"latency_ns", nullptr},
                    {"source", "hwloc memory attributes (ACPI HMAT)"}});
    return rows.back();
  };
  for (const auto& [initiator, mib] : values_of(topo, HWLOC_MEMATTR_ID_BANDWIDTH, node)) {
    row_for(initiator)["bandwidth_bytes_per_second"] = static_cast<double>(mib) * 1048576.0;
  }
  for (const auto& [initiator, ns] : values_of(topo, HWLOC_MEMATTR_ID_LATENCY, node)) {
    row_for(initiator)["latency_ns"] = ns;
  }
}

}  // namespace

nlohmann::json memory_tier_facts(const Sources& sources) {
  hwloc_topology_t topo = nullptr;
  if (hwloc_topology_init(&topo) != 0) return {{"status", "unknown"}, {"why", "hwloc could not start"}};
  std::unique_ptr<hwloc_topology, void (*)(hwloc_topology_t)> owner(topo, hwloc_topology_destroy);
  if (hwloc_topology_load(topo) != 0) return {{"status", "unknown"}, {"why", "hwloc could not read the topology"}};
  nlohmann::json rows = nlohmann::json::array();
  nlohmann::json nodes = nlohmann::json::array();
  for (hwloc_obj_t node = nullptr; (node = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, node));) {
    const bool has_cpus = node_has_cpus(sources.sysfs_root, node->os_index);
    const std::string kind = node_kind(node, has_cpus);
    nodes.push_back({{"node", node->os_index},
                     {"kind", kind},
                     {"has_cpus", has_cpus},
                     {"bytes", node->attr ? nlohmann::json(node->attr->numanode.local_memory) : nullptr}});
    add_rows(topo, node, kind, rows);
  }
  if (rows.empty()) {
    return {{"status", "unknown"},
            {"why", "the firmware gives no HMAT (hwloc has no bandwidth or latency attributes)"},
            {"nodes", nodes}};
  }
  return rows;
}

}  // namespace movebench::facts
