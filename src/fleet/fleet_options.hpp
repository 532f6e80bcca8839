// Everything `movebench fleet` can be told.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "fleet/fleet_baseline.hpp"
#include "fleet/fleet_logic.hpp"
#include "fleet/fleet_units.hpp"
#include "judge/siblings.hpp"

namespace movebench::fleet {

struct FleetOptions {
  UnitKind per = UnitKind::kHost;         // --per: what a unit is
  std::uint64_t mem_bytes = 64 << 20;     // per array of copy and triad (4 arrays)
  std::uint64_t chase_bytes = 64 << 20;   // the latency's working set
  int repetitions = 5;                    // timed rounds of each memory kernel
  std::uint64_t message_bytes = 1 << 20;  // the pairs' bandwidth message
  int latency_iterations = 1000;          // ping-pongs of kPairLatencyBytes per pair
  bool percentiles = false;               // -z: every ping-pong timed, the pair's distribution kept
  int bandwidth_iterations = 10;          // windows of kPairWindow messages per pair
  int random_rounds = 4;                  // after the ring's rounds
  double time_budget = 60;                // --time-budget: seconds of the pairs' turns together (pair_turn_seconds)
  std::uint64_t seed = 42;
  judge::OutlierRule rule;
  bool fail_on_outlier = false;
  bool skip_pairs = false;           // memory only (one unit, or no network wanted)
  bool node = false;                 // --node: each unit's node step too (node/node_step.hpp)
  std::optional<Baseline> baseline;  // --baseline FILE, read and checked before any MPI
  double baseline_threshold = 0.05;  // --baseline-threshold, as compare's --threshold
  bool fail_on_regression = false;
  // Test hook (the MPI commands' hidden --fail-for-test corrupt): the last
  // rank's pair checks see one received byte flipped, as a bad link or NIC
  // would leave it, so that its unit fails in the pairs' first round.
  bool corrupt_for_test = false;
};

// Pair latency: the ping-pong's message (OSU's osu_latency at 8 bytes).
inline constexpr std::uint64_t kPairLatencyBytes = 8;
// Pair bandwidth: messages in flight per window (OSU's osu_bw shape).
inline constexpr int kPairWindow = 16;
// A memory round runs at least this long (kernel calls repeated, sized by
// a call's CPU time over its threads): far more than a CPU quota lets run
// between two stops (at most the quota plus a scheduler tick per CPU), so
// a throttled or shared CPU shows in every round rather than hiding
// between samples.
inline constexpr double kMemRoundSeconds = 0.03;
// The latency's samples: how many, and about how long each.
inline constexpr int kChaseSamples = 5;
inline constexpr double kChaseSampleSeconds = 0.02;

}  // namespace movebench::fleet
