// The one clock every timed loop uses, and the one way to size a loop to a
// time budget.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace movebench {

// Seconds on the monotonic clock (clock_gettime(CLOCK_MONOTONIC) on Linux).
inline double now_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// The cost of one reading of now_seconds(), measured: back-to-back reads,
// the median and least of their differences. A timed event that reads the
// clock (a per-iteration time) carries about one read's cost; it is stated
// beside the figures it is in, and subtracted nowhere.
struct ClockCost {
  double median_s = 0;
  double min_s = 0;
  int reads = 0;  // the pairs of reads measured
};
// Measured on the first call (1000 pairs of reads, about 50 us), the same
// afterwards: one figure per process.
const ClockCost& clock_read_cost();

// `iters` rounds, the clock read after each (one read per round, as OSU
// -z): every round's seconds over `per` into `out`, and returns all of
// them. The one way a loop times each of its rounds (p2p, coll).
template <class Round>
double timed_each(Round&& round, int iters, double per, std::vector<double>& out) {
  out.assign(static_cast<std::size_t>(std::max(iters, 0)), 0);
  const double t0 = now_seconds();
  double last = t0;
  for (auto& sample : out) {
    round();
    const double t = now_seconds();
    sample = (t - last) / per;
    last = t;
  }
  return last - t0;
}

// How a count is rounded to its budget: kAtLeast rounds up (the loop lasts
// the budget or a little more: a sample long enough to time), kWithin down
// (the loop ends inside the budget: mpiBench's time limit per test).
enum class Fill { kAtLeast, kWithin };

// How many calls fill `budget_s`, from `seconds` measured for `calls` calls,
// clamped to [least, most] (least <= most). A measurement of no time at all (a clock too
// coarse for the calls) gives `most`. Every benchmark that sizes a loop to a
// time uses it, each with its upstream tool's own estimate of `seconds`:
// mpiBench's five-call estimate (coll), HPCC's time per iteration at the
// previous size (beff), a probe (calls_for_budget, mem), or a pair's first
// short round and then its previous repeat (fleet's pairs, pair_counts).
std::uint64_t calls_to_fill(double budget_s, double seconds, std::uint64_t calls, std::uint64_t least,
                            std::uint64_t most, Fill fill = Fill::kAtLeast);

// How the probe of calls_for_budget grows: from `first` calls, times
// `growth`, until one probe lasts `share` of the budget or reaches `most`.
struct Probe {
  std::uint64_t first = 1;
  std::uint64_t growth = 2;
  double share = 0.25;
  std::uint64_t most = std::uint64_t{1} << 30;
};

// Probes with `timed(n)` (runs n calls, returns their seconds) and returns
// the count that fills `budget_s`, from the last probe. A probe is real work:
// `timed` is where a caller counts the calls it made (mem's validation
// replays them all).
template <class Timed>
std::uint64_t calls_for_budget(Timed&& timed, double budget_s, Probe probe, std::uint64_t least, std::uint64_t most,
                               Fill fill = Fill::kAtLeast) {
  std::uint64_t n = probe.first;
  while (true) {
    const double seconds = timed(n);
    if (seconds >= probe.share * budget_s || n >= probe.most) {
      return calls_to_fill(budget_s, seconds, n, least, most, fill);
    }
    n *= probe.growth;
  }
}

}  // namespace movebench
