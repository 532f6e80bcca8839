#include "link/figures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/stats.hpp"

namespace movebench::link {

RateStats rate_stats(double bytes_per_test, std::span<const double> seconds) {
  RateStats s;
  s.count = seconds.size();
  if (seconds.empty()) return s;
  std::vector<double> rates;
  for (double t : seconds) {
    s.total_seconds += t;
    rates.push_back(t > 0 ? bytes_per_test / t / 1e6 : 0);
  }
  s.total_bytes = bytes_per_test * static_cast<double>(s.count);
  s.average = s.total_seconds > 0 ? s.total_bytes / s.total_seconds / 1e6 : 0;
  const Summary r = summarize(rates);
  s.min = r.min;
  s.max = r.max;
  s.median = r.median;
  // hdl_single_engine's variance: the population variance of the per-test rates.
  double sq = 0;
  for (double x : rates) sq += (x - r.mean) * (x - r.mean);
  s.variance = sq / static_cast<double>(rates.size());
  return s;
}

std::string engine_lines(const std::string& label, const RateStats& s) {
  const double usec = s.total_seconds * 1e6;
  return fmt::format(
      "{} average bandwidth: {:.0f} bytes in {:.0f} usec ( {:.3f} MB/s )\n"
      "{} bandwidth min, max and variance: {:.0f} bytes in {:.0f} usec ( {:.3f} MB/s, {:.3f} MB/s, {:.3f} )\n"
      "{} bandwidth median: {:.3f} MB/s over {} tests\n",
      label, s.total_bytes, usec, s.average, label, s.total_bytes, usec, s.min, s.max, s.variance, label, s.median,
      s.count);
}

UnitSpread unit_spread(std::span<const UnitLatency> units) {
  UnitSpread s;
  std::vector<double> ns;
  for (const auto& u : units) {
    if (u.ns <= 0) continue;
    ns.push_back(u.ns);
    if (s.count == 0 || u.ns < s.fastest.ns) s.fastest = u;
    if (s.count == 0 || u.ns > s.slowest.ns) s.slowest = u;
    ++s.count;
  }
  if (ns.empty()) return s;
  const Summary sum = summarize(ns);
  s.median = sum.median;
  s.mean = sum.mean;
  return s;
}

std::vector<std::uint64_t> sweep_sizes(std::uint64_t lo, std::uint64_t hi, int steps_per_octave) {
  std::vector<std::uint64_t> out;
  if (lo == 0 || hi < lo) return out;
  const int steps = std::max(1, steps_per_octave);
  for (std::uint64_t p = lo; p <= hi; p *= 2) {
    for (int k = 0; k < steps; ++k) {
      const double x = static_cast<double>(p) * std::pow(2.0, static_cast<double>(k) / steps);
      std::uint64_t v = static_cast<std::uint64_t>(std::llround(x));
      if (k > 0) v = v / 4 * 4;  // whole 32-bit words between the powers of two
      if (v > hi) break;
      if (out.empty() || v > out.back()) out.push_back(v);
    }
    if (p > hi / 2) break;
  }
  return out;
}

}  // namespace movebench::link
