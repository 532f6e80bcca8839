// `movebench node --hwloc-xml FILE`: this machine's hwloc topology with the
// numa part's measured figures as hwloc memory attributes, initiator (the
// initiator NUMA node's cpuset) -> target (the NUMA node object), in
// hwloc's own units: Bandwidth (triad) and ReadBandwidth (sum, read-only)
// in MiB/s, Latency (the chase) in ns; then exported as hwloc XML, which
// lstopo --memattrs and hwloc_memattr_get_best_target read.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace movebench::node {

// One initiator -> target cell as the numa part's records give it; 0 where
// a kernel was not measured.
struct MeasuredPath {
  int initiator = 0, target = 0;  // NUMA node os numbers
  double sum_mbs = 0;             // read-only bandwidth, MB/s (10^6 bytes/s)
  double triad_mbs = 0;           // MB/s
  double latency_ns = 0;          // the chase, ns per load
};

// The cells of a node document's numa records (benchmark node, operation
// numa; the figures `bandwidth` and `latency`).
std::vector<MeasuredPath> measured_paths(const nlohmann::json& doc);

// Why `path` cannot be written (a missing folder, a folder, no permission);
// none: it can. Asked before anything is measured. Leaves no file behind.
std::optional<std::string> hwloc_xml_unwritable(const std::string& path);

// Loads the topology (this machine's; `synthetic`, hwloc's synthetic
// description, for tests), sets the attributes and exports the XML to
// `path`. Returns "" or why it failed (a node not in the topology, hwloc's
// error with errno's text).
std::string write_hwloc_xml(const std::string& path, const std::vector<MeasuredPath>& paths,
                            const std::string& synthetic = "");

// MB/s (10^6 bytes/s) as hwloc's MiB/s, rounded.
unsigned long long mib_per_s(double mb_per_s);

}  // namespace movebench::node
