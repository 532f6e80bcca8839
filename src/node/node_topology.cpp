#include "node/node_topology.hpp"

#include <hwloc.h>

#include <algorithm>
#include <fstream>
#include <memory>

#include "core/affinity.hpp"
#include "core/system_file.hpp"

namespace movebench::node {
namespace {

std::vector<int> cpu_list_or_empty(const std::string& text) {
  try {
    return text.empty() ? std::vector<int>{} : parse_cpu_list(text);
  } catch (const std::exception&) {
    return {};
  }
}

std::string line_of(const std::string& path) { return first_line_of(path).value_or(""); }

std::vector<long long> numbers_in(const std::string& line) {
  std::vector<long long> out;
  std::size_t at = 0;
  while (at < line.size()) {
    std::size_t used = 0;
    try {
      out.push_back(std::stoll(line.substr(at), &used));
    } catch (const std::exception&) {
      break;
    }
    at += used;
  }
  return out;
}

// hwloc's NUMA nodes: os index and memory.
std::vector<NumaNode> hwloc_nodes() {
  hwloc_topology_t topo = nullptr;
  if (hwloc_topology_init(&topo) != 0) return {};
  std::unique_ptr<hwloc_topology, void (*)(hwloc_topology_t)> owner(topo, hwloc_topology_destroy);
  if (hwloc_topology_load(topo) != 0) return {};
  std::vector<NumaNode> out;
  for (hwloc_obj_t n = nullptr; (n = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, n));) {
    NumaNode node;
    node.os_index = static_cast<int>(n->os_index);
    node.bytes = n->attr ? n->attr->numanode.local_memory : 0;
    out.push_back(node);
  }
  return out;
}

}  // namespace

int NodeTopology::distance(int from, int to) const {
  const NumaNode* a = find(from);
  if (a == nullptr) return 0;
  for (std::size_t i = 0; i < numa.size() && i < a->distance.size(); ++i) {
    if (numa[i].os_index == to) return a->distance[i];
  }
  return 0;
}

const NumaNode* NodeTopology::find(int os_index) const {
  for (const auto& n : numa) {
    if (n.os_index == os_index) return &n;
  }
  return nullptr;
}

std::optional<std::uint64_t> node_available_bytes(int os_index, const std::string& sysfs_root) {
  std::ifstream in(sysfs_root + "/devices/system/node/node" + std::to_string(os_index) + "/meminfo");
  std::optional<std::uint64_t> free;
  std::uint64_t reclaimable = 0;
  std::string line;
  while (std::getline(in, line)) {
    // "Node 0 MemFree:  123 kB": the figure after the field's colon.
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string field = line.substr(0, colon);
    const std::vector<long long> kb = numbers_in(line.substr(colon + 1));
    if (kb.empty() || kb.front() < 0) continue;
    const auto bytes = static_cast<std::uint64_t>(kb.front()) * 1024;
    if (field.ends_with(" MemFree")) free = bytes;
    if (field.ends_with(" Active(file)") || field.ends_with(" Inactive(file)") || field.ends_with(" KReclaimable"))
      reclaimable += bytes;
  }
  if (!free) return std::nullopt;
  return *free + reclaimable;
}

NodeTopology read_topology(const std::string& sysfs_root) {
  NodeTopology t;
  t.numa = hwloc_nodes();
  const std::vector<int> allowed = allowed_cpus();
  if (t.numa.empty()) {
    t.numa.push_back({0, allowed, !allowed.empty(), 0, {}});
    return t;
  }
  std::sort(t.numa.begin(), t.numa.end(), [](const auto& a, const auto& b) { return a.os_index < b.os_index; });
  // sysfs lists a node's distances to the online nodes in their order.
  const std::vector<int> online = cpu_list_or_empty(line_of(sysfs_root + "/devices/system/node/online"));
  for (auto& n : t.numa) {
    const std::string dir = sysfs_root + "/devices/system/node/node" + std::to_string(n.os_index);
    const std::vector<int> all = cpu_list_or_empty(line_of(dir + "/cpulist"));
    n.has_cpus = !all.empty();
    for (int cpu : all) {
      if (std::find(allowed.begin(), allowed.end(), cpu) != allowed.end()) n.cpus.push_back(cpu);
    }
    const std::vector<long long> row = numbers_in(line_of(dir + "/distance"));
    for (const auto& to : t.numa) {
      const auto at = std::find(online.begin(), online.end(), to.os_index);
      const auto i = static_cast<std::size_t>(at - online.begin());
      n.distance.push_back(at != online.end() && i < row.size() ? static_cast<int>(row[i]) : 0);
    }
  }
  // No sysfs (a container without it): every allowed CPU on the one node.
  if (t.numa.size() == 1 && t.numa[0].cpus.empty() && online.empty()) {
    t.numa[0].cpus = allowed;
    t.numa[0].has_cpus = !allowed.empty();
  }
  return t;
}

}  // namespace movebench::node
