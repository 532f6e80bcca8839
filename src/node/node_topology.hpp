// The node as the node command sees it: its NUMA nodes (memory-only ones
// too, as hwloc lists them), each with the CPUs this process may use there,
// its memory, and the firmware's distances between them.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace movebench::node {

struct NumaNode {
  int os_index = 0;           // the kernel's node number (nodeN, numactl's)
  std::vector<int> cpus;      // its CPUs this process may run on; empty: memory only, or none allowed
  bool has_cpus = false;      // the node has CPUs at all (sysfs cpulist), allowed or not
  std::uint64_t bytes = 0;    // its memory (hwloc's local_memory)
  std::vector<int> distance;  // the ACPI SLIT distance to each node, in the order of NodeTopology::numa
};

struct NodeTopology {
  std::vector<NumaNode> numa;  // by os_index
  // The SLIT distance from node `from` to node `to` (os indices); 0 when unknown.
  int distance(int from, int to) const;
  const NumaNode* find(int os_index) const;
};

// hwloc's NUMA nodes with their memory; the CPUs and distances from
// `sysfs_root`/devices/system/node (hwloc gives a CPU-less node its parent's
// cpuset, so its own list cannot say which nodes are memory only). Without
// hwloc or sysfs: one node 0 with every allowed CPU.
NodeTopology read_topology(const std::string& sysfs_root = "/sys");

// The memory NUMA node `os_index` can give now: sysfs nodeN/meminfo's
// MemFree plus what the kernel reclaims on demand (the page cache,
// Active(file) and Inactive(file), and KReclaimable), as /proc/meminfo's
// MemAvailable counts it for the whole machine (proc(5)); none when MemFree
// is unknown. A node whose RAM is page cache is not full: on the H200 VM
// (tests/data/gpu/2026-11-28-h200) MemFree was 3 GiB of 128.
std::optional<std::uint64_t> node_available_bytes(int os_index, const std::string& sysfs_root = "/sys");

}  // namespace movebench::node
