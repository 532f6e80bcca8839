// The devices part's results and their text (node_devices.cpp measures):
// one matrix per direction (rows devices, columns the NUMA node the host
// buffer was on, as nvbandwidth's and MLC's matrices), the latency matrix,
// each device's own memory, its affinity, and all devices at once.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "facts/pcie_link.hpp"
#include "node/devices_logic.hpp"
#include "node/node_devices.hpp"

namespace movebench::node {

// What the part measured of one device. Bandwidths in MB/s (link's and
// mem's unit), latencies in ns.
struct DeviceResult {
  NodeDevice device;
  int own_node = -1;    // its PCI device's sysfs numa_node; -1: unknown
  std::string own_why;  // why unknown
  std::optional<facts::PcieLink> pcie;
  std::string host_memory;  // the host memory kind link's copies used ("pinned")
  // Per direction ("read", "write", "duplex"): the figure with the host
  // buffer on each NUMA node, and its tests' spread (for all at once).
  std::map<std::string, std::vector<NodeFigure>> bandwidth;
  std::map<std::string, std::map<int, Single>> spread;
  std::map<int, double> latency_ns;   // the first word the device reads, per NUMA node
  std::map<int, std::string> failed;  // NUMA node -> why nothing was recorded there
  std::optional<double> mem_copy, mem_triad;
  int best_node = -1;  // of host to device
  AffinityCheck affinity;
};

// All devices at once, one direction.
struct AllAtOnce {
  std::string direction;
  std::vector<std::optional<double>> per_device;  // MB/s while all ran; nullopt: failed
  AggregateCheck check;
  double peak_sum = 0;  // their PCIe links' peaks summed, MB/s; 0: not every peak is known
  std::string peak_why;
};

// "read" -> "host to device", "write" -> "device to host", "duplex" -> "both ways at once".
std::string direction_words(const std::string& direction);
// "device 0 (cuda NVIDIA H100 at 0000:17:00.0)".
std::string device_words(const NodeDevice& d);

std::string devices_heading_text(const std::vector<NodeDevice>& devices, const std::vector<int>& numa_nodes,
                                 std::uint64_t bytes);
std::string device_matrices_text(const std::vector<DeviceResult>& results, const std::vector<int>& numa_nodes);
std::string all_at_once_text(const AllAtOnce& a, const std::vector<DeviceResult>& results);

}  // namespace movebench::node
