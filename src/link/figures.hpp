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

// Sizes of a sweep: powers of two from lo to hi, and with `steps_per_octave`
// > 1 that many geometric steps per octave between them (rounded to 4 bytes).
std::vector<std::uint64_t> sweep_sizes(std::uint64_t lo, std::uint64_t hi, int steps_per_octave);

}  // namespace movebench::link
