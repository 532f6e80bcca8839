// The arithmetic of link figures, kept apart from devices so unit tests can
// check it: hdl_single_engine's per-size statistics and size sweeps.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace movebench::link {

// hdl_single_engine's bandwidth line for one size: `count` tests of `bytes`
// each, average = all bytes over all time; min, max and variance of the
// per-test rates; the median beside them. Rates in MB/s (1e6 bytes per
// second).
struct RateStats {
  std::size_t count = 0;
  double total_bytes = 0, total_seconds = 0;
  double average = 0, min = 0, max = 0, variance = 0, median = 0;
};
// bytes_per_test: the bytes moved by one test (one sample of seconds).
RateStats rate_stats(double bytes_per_test, std::span<const double> seconds);

// "Read average bandwidth (Host->Device): 409600000 bytes in 20172 usec ( 20306.844 MB/s )"
// and the "min, max and variance" line, as hdl_single_engine prints them,
// plus the median.
std::string engine_lines(const std::string& label, const RateStats& s);

// One unit's chase (latency.chase_per_unit): the SM or work-group slot and
// its latency per dependent load in ns; 0 or less is below the clock's
// resolution.
struct UnitLatency {
  std::uint32_t unit = 0;
  double ns = 0;
};
// The spread over the units whose latency the clock resolved (ns > 0):
// their count, median (the headline), mean (nvbandwidth's statistic: its
// host_device_latency_sm is the time of every SM's chase over all loads),
// and the fastest and slowest unit. count 0: no unit was resolved.
struct UnitSpread {
  std::size_t count = 0;
  double median = 0, mean = 0;
  UnitLatency fastest, slowest;
};
UnitSpread unit_spread(std::span<const UnitLatency> units);

// Sizes of a sweep: powers of two from lo to hi, and with `steps_per_octave`
// > 1 that many geometric steps per octave between them (rounded to 4 bytes).
std::vector<std::uint64_t> sweep_sizes(std::uint64_t lo, std::uint64_t hi, int steps_per_octave);

}  // namespace movebench::link
