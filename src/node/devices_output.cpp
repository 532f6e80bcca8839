#include "node/devices_output.hpp"

#include <fmt/format.h>

#include "core/figure.hpp"
#include "core/sizes.hpp"
#include "node/node_findings.hpp"

namespace movebench::node {
namespace {

std::vector<std::string> row_names(const std::vector<DeviceResult>& results) {
  std::vector<std::string> rows;
  for (const auto& r : results) rows.push_back(fmt::format("device {}", r.device.index));
  return rows;
}

std::vector<std::string> column_names(const std::vector<int>& numa_nodes) {
  std::vector<std::string> columns;
  for (int n : numa_nodes) columns.push_back(fmt::format("node {}", n));
  return columns;
}

std::optional<double> figure_on(const std::vector<NodeFigure>& figures, int node) {
  for (const auto& f : figures) {
    if (f.numa_node == node) return f.value;
  }
  return std::nullopt;
}

Matrix direction_matrix(const std::vector<DeviceResult>& results, const std::vector<int>& numa_nodes,
                        const std::string& direction) {
  Matrix m{fmt::format("Devices, {} ({}), MB/s", direction_words(direction), direction),
           "device \\ host memory",
           row_names(results),
           column_names(numa_nodes),
           {}};
  for (const auto& r : results) {
    const auto it = r.bandwidth.find(direction);
    auto& row = m.cells.emplace_back();
    for (int n : numa_nodes) row.push_back(it == r.bandwidth.end() ? std::nullopt : figure_on(it->second, n));
  }
  return m;
}

Matrix latency_matrix(const std::vector<DeviceResult>& results, const std::vector<int>& numa_nodes) {
  Matrix m{"Devices, the first word read from host memory, ns",
           "device \\ host memory",
           row_names(results),
           column_names(numa_nodes),
           {}};
  for (const auto& r : results) {
    auto& row = m.cells.emplace_back();
    for (int n : numa_nodes) {
      const auto it = r.latency_ns.find(n);
      row.push_back(it == r.latency_ns.end() ? std::nullopt : std::optional<double>(it->second));
    }
  }
  return m;
}

std::string affinity_line(const DeviceResult& r) {
  std::string line =
      fmt::format("  device {}: best from NUMA node {}; its own NUMA node {}: {}, {}", r.device.index,
                  r.best_node < 0 ? "-" : std::to_string(r.best_node),
                  r.own_node < 0 ? "unknown" : std::to_string(r.own_node), r.affinity.verdict, r.affinity.text);
  for (const auto& [node, why] : r.failed) line += fmt::format("; NUMA node {}: no figure, {}", node, why);
  return line + "\n";
}

}  // namespace

std::string direction_words(const std::string& direction) {
  if (direction == "read") return "host to device";
  if (direction == "write") return "device to host";
  return "both ways at once";
}

std::string device_words(const NodeDevice& d) {
  return fmt::format("device {} ({} {}{})", d.index, d.backend, d.name, d.bus_id.empty() ? "" : " at " + d.bus_id);
}

std::string devices_heading_text(const std::vector<NodeDevice>& devices, const std::vector<int>& numa_nodes,
                                 std::uint64_t bytes) {
  std::string nodes;
  for (int n : numa_nodes) nodes += (nodes.empty() ? "" : ",") + std::to_string(n);
  std::string text = fmt::format(
      "# devices: {} device{}, link with the host memory on NUMA node{} {} in turn "
      "(copies of {}), mem in each device's memory, then all at once\n",
      devices.size(), devices.size() == 1 ? "" : "s", numa_nodes.size() == 1 ? "" : "s", nodes,
      format_bytes(static_cast<double>(bytes)));
  for (const auto& d : devices) text += fmt::format("#   {} [{}]\n", device_words(d), d.type);
  return text;
}

std::string device_matrices_text(const std::vector<DeviceResult>& results, const std::vector<int>& numa_nodes) {
  std::string text;
  for (const char* direction : {"read", "write", "duplex"}) {
    text += matrix_text(direction_matrix(results, numa_nodes, direction)) + "\n";
  }
  text += matrix_text(latency_matrix(results, numa_nodes)) + "\n";
  Matrix mem{"Devices, their own memory (mem), MB/s", "device", row_names(results), {"copy", "triad"}, {}};
  for (const auto& r : results) mem.cells.push_back({r.mem_copy, r.mem_triad});
  text += matrix_text(mem) + "\nDevices, the NUMA node that serves each best (host to device):\n";
  for (const auto& r : results) text += affinity_line(r);
  return text;
}

std::string all_at_once_text(const AllAtOnce& a, const std::vector<DeviceResult>& results) {
  std::string parts;
  for (std::size_t i = 0; i < a.per_device.size(); ++i) {
    parts += fmt::format("{}device {} {}", parts.empty() ? "" : ", ", results[i].device.index,
                         a.per_device[i] ? significant_text(*a.per_device[i]) : "failed");
  }
  const std::string peaks = a.peak_sum > 0 ? fmt::format("{} MB/s, {}%", significant_text(a.peak_sum),
                                                         significant_text(a.check.aggregate / a.peak_sum * 100))
                                           : "unknown (" + a.peak_why + ")";
  return fmt::format(
      "All devices at once, {}: {} MB/s ({}); each alone, summed: {} MB/s, {}%; their PCIe peaks "
      "summed: {}\n",
      direction_words(a.direction), significant_text(a.check.aggregate), parts, significant_text(a.check.sum),
      a.check.sum > 0 ? significant_text(a.check.aggregate / a.check.sum * 100) : "-", peaks);
}

}  // namespace movebench::node
