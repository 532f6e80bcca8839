// What a fleet run measured and judged, as plain results (no MPI, no
// measuring code): each unit's memory figures, each pair's, the bisection
// and the outliers. The measuring code (fleet_memory, fleet_pairs)
// makes them, the verdict (fleet_verdict) reads them, and the writer
// (fleet_output) turns them into text.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fleet/fleet_logic.hpp"

namespace movebench::fleet {

struct MemoryFigures {
  double copy_mbs = 0, triad_mbs = 0;  // the best timed round, MB/s
  double latency_ns = 0;               // the fastest sample, ns per load
  int threads = 0;
  std::vector<double> copy_seconds, triad_seconds;  // per kernel call, one per round
  std::vector<double> chase_seconds;                // per load, one per sample
  std::string error;                                // the validation's message when it failed; empty: good
  bool measured_again = false;  // a suspect, measured a second time after the pairs (fleet_suspects.hpp)
};

struct PairFigures {
  UnitPair pair;
  int round = 0;
  double latency_us = 0;                       // one way, 8 bytes
  double bw_mbs = 0;                           // opt.message_bytes, one way
  double latency_seconds = 0, bw_seconds = 0;  // the timed loops
  PairCounts ran;  // what each loop ran: --latency-iterations, --bandwidth-iterations or fewer (--time-budget)
  std::vector<double> latency_iterations;  // --percentiles: every ping-pong's, one way, seconds
  double latency_p99_us = 0;               // --percentiles: their P99 (0: not measured or not supported)
};

struct Bisection {
  std::vector<PairFigures> pairs;  // unit u with u + units/2; bw_mbs both ways
  double total_mbs = 0;            // the sum: what crosses the cut at once
};

// A unit's node step (`--node`, node/node_step.hpp): its headlines by
// node's own result names (node.numa.local.sum, node.cores.same_l3 ...), in
// the step figure's unit, and node's own findings within the unit.
struct NodeStepFigures {
  std::map<std::string, double> figures;
  nlohmann::json findings = nlohmann::json::array();
};

struct FleetOutlier {
  std::string figure, unit_name;  // "mem.triad", "MB/s"
  int unit = -1;                  // the node (or rank) named; -1 for a link
  UnitPair pair;                  // the link named, when unit is -1
  double value = 0, median = 0, worse_by = 0;
};

}  // namespace movebench::fleet
