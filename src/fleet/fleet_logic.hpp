// The parts of `movebench fleet` that need no MPI, so that they are
// unit-tested everywhere and simulated at thousands of ranks: which pairs
// of units are measured in which round (a ring plus random perfect
// matchings, b_eff style), and whether a slow pair is blamed on a node or
// named as a link. Which units are outliers is the judge's sibling rule
// (judge/siblings.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace movebench::fleet {

// ---- the pairing schedule ----

struct UnitPair {
  int a = 0, b = 0;  // units, a < b
  bool operator==(const UnitPair&) const = default;
};
using Round = std::vector<UnitPair>;  // no unit twice: all measured at once

// The ring (i, i+1) packed into the fewest rounds (2 for even n, 3 for odd
// n), then up to `random_rounds` random perfect matchings from `seed` (odd
// n: one unit idle per round). A pair is never measured twice: a random
// matching's repeated pairs are swapped with other pairs of the round until
// new; what cannot be made new (small n, every pair already used) is left
// out, and an empty round ends the schedule. At most n + random_rounds x
// n/2 pairs: O(n) per round, never O(n^2) unless asked.
std::vector<Round> pair_schedule(int units, int random_rounds, std::uint64_t seed);
// A round in turns where its pairs share hosts (--per rank: units of one
// host): no host twice in a turn, so pairs on one node do not contend for
// its CPUs and memory, as the units' memory turns. `host_of` numbers the
// hosts per unit. Across hosts nothing changes: a round stays one turn.
std::vector<Round> host_turns(const Round& round, const std::vector<int>& host_of);
// The partners every unit gets (the sorted distinct units it is paired with).
std::vector<std::vector<int>> partners(int units, const std::vector<Round>& schedule);

// ---- the pairs' work, sized by time ----

// A pair measures the fastest of this many repeats of its loops per turn.
inline constexpr int kPairRepeats = 3;
// The fewest ping-pongs a time budget cuts a pair's repeat to (when it
// asked for more): fewer is no latency figure at all.
inline constexpr int kLeastRoundTrips = 10;
// A turn of the pairs never takes more than this share of the watchdog's
// --timeout, whatever --time-budget says: a pair sized by a probe that
// happened to run fast still ends its turn inside the step's watchdog.
inline constexpr double kTurnShareOfTimeout = 0.25;

// Seconds one turn of the pairs may take: the pairs' `time_budget` over
// the `turns` planned (the warm-up's, every round's, the bisection's), and
// at most kTurnShareOfTimeout of `step_timeout`.
double turn_seconds(double time_budget, int turns, double step_timeout);

// What a pair runs in each of its repeats: at most what was asked.
struct PairCounts {
  int round_trips = 0;  // ping-pongs (0: none, the bisection)
  int windows = 0;      // bandwidth windows
};
// The counts of a pair's next repeat in a turn of `seconds`, from what the
// pair timed last (a first short round, then the repeat before):
// `probe_trips` ping-pongs took `trip_seconds` (0 trips: no latency loop,
// the turn is all windows), `probe_windows` windows `window_seconds`.
// Each repeat gets its share; of it, latency and bandwidth half each, a
// latency loop's warm-up (a tenth of it, at least 10) and the windows'
// (2) inside it. Each count is at most `asked`'s and at least
// kLeastRoundTrips ping-pongs (or `asked`'s if fewer) and one window
// (core's calls_to_fill, Fill::kWithin).
PairCounts pair_counts(double seconds, PairCounts asked, int probe_trips, double trip_seconds, int probe_windows,
                       double window_seconds);
// A latency loop's untimed round trips before it (OSU's warm-up, scaled).
int latency_warmup(int round_trips);
inline constexpr int kBandwidthWarmup = 2;

// ---- blame ----

struct PairValue {
  UnitPair pair;
  double value = 0;
};
struct Blame {
  std::vector<int> slow_units;          // their pairs are slow: the node
  std::vector<std::size_t> slow_links;  // indices into the pairs: the link alone
};
// `slow` marks the slow pairs (judge::find_outliers over the pairs' values). A
// slow pair is blamed on a unit only when at least two of that unit's
// pairs were measured and more than half of them are slow; else the pair
// (the link between them) is named.
Blame blame_pairs(int units, std::span<const PairValue> pairs, const std::vector<bool>& slow);

}  // namespace movebench::fleet
