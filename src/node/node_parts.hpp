// The parts of `movebench node` (docs/node.md), one row each in the table
// node_parts(): what a part is called (--parts), whether this machine and
// build can run it, and how it runs. A part measures, prints its matrices
// through ctx.out, adds its records to ctx.report and judges its endpoints
// with node_findings.hpp; the command prints the findings of all parts at
// the end.
#pragma once
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/output.hpp"
#include "core/report.hpp"
#include "node/node_findings.hpp"
#include "node/node_topology.hpp"

namespace movebench::node {

// Everything `movebench node` is told, parsed once.
struct NodeOptions {
  std::vector<std::string> parts;              // --parts; empty: every part that applies
  std::optional<std::vector<int>> numa_nodes;  // --numa-nodes; none: all
  std::optional<std::vector<int>> cpus;        // --cpus; none: every allowed CPU
  double time_budget = 60;                     // --time-budget: the whole command, shared by the parts
  OutlierRule rule;                            // --outlier-k, --outlier-floor
  std::uint64_t seed = 42;                     // --seed
  std::uint64_t array_bytes = 0;               // --array-bytes (numa); 0: default_numa_bytes
  std::optional<std::vector<int>> devices;     // --devices (devices); none: every device found
  std::uint64_t device_bytes = 64ull << 20;    // --device-bytes (devices): per transfer and per mem array
  // --core-sample N (cores): the cache domains' pairs and N drawn at random,
  // whatever the CPUs; none: every pair up to kEveryPairBound CPUs.
  std::optional<std::size_t> core_sample;
  std::string hwloc_xml;  // --hwloc-xml FILE: the topology with the numa part's figures (node_hwloc.hpp)
};

struct NodeContext {
  const NodeOptions& opt;
  Report& report;
  Output& out;
  NodeTopology topology;                           // --numa-nodes and --cpus applied
  std::chrono::steady_clock::time_point deadline;  // the end of the whole command's budget
  double part_seconds = 0;                         // this part's share: what is left over the parts left
  std::vector<Finding> findings;                   // every part's, in order
};

struct NodePart {
  std::string_view name;  // "numa"
  std::string_view help;  // one line for --help and docs/node.md
  // Why this machine or build cannot run the part; none: it can. Asked
  // before anything is measured (a part named in --parts that cannot run
  // is a usage error).
  std::optional<std::string> (*not_here)(const NodeTopology& topology, const NodeOptions& opt);
  void (*run)(NodeContext& ctx);
};

// The table, in the order the parts run.
const std::vector<NodePart>& node_parts();

// Each part's row (its own file).
NodePart numa_part();     // node_numa.cpp
NodePart cores_part();    // node_cores.cpp: the core-to-core matrix
NodePart devices_part();  // node_devices.cpp: every accelerator

}  // namespace movebench::node
