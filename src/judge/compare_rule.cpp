#include "judge/compare_rule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace movebench::judge {
namespace {

// numpy.percentile's default ("linear"): the rank q x (n - 1), interpolated.
double percentile(const std::vector<double>& sorted, double q) {
  const double rank = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(rank));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double frac = rank - static_cast<double>(below);
  return sorted[below] + (sorted[above] - sorted[below]) * frac;
}

}  // namespace

std::optional<double> sample_noise(std::vector<double> samples, bool best_of) {
  std::sort(samples.begin(), samples.end());
  if (best_of && samples.size() >= 2) {
    if (!(samples[0] > 0)) return std::nullopt;
    return (samples[1] - samples[0]) / samples[0];
  }
  if (samples.size() < 3) return std::nullopt;
  const double q1 = percentile(samples, 0.25), median = percentile(samples, 0.5), q3 = percentile(samples, 0.75);
  if (!(median > 0)) return std::nullopt;
  return (q3 - q1) / (2 * median);
}

Judged compare(double a, double noise_a, double b, double noise_b, bool higher_is_better, double threshold) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const double ratio = a != 0 ? b / a : kInf;
  const double gain = higher_is_better ? ratio - 1 : (ratio != 0 ? 1 / ratio - 1 : kInf);
  if (std::abs(ratio - 1) <= noise_a + noise_b) return {ratio, Change::kNoise};
  if (gain < -threshold) return {ratio, Change::kSlower};
  if (gain > threshold) return {ratio, Change::kFaster};
  return {ratio, Change::kSame};
}

std::string_view change_name(Change change) {
  switch (change) {
    case Change::kNoise: return "noise";
    case Change::kSlower: return "slower";
    case Change::kFaster: return "faster";
    case Change::kSame: return "same";
  }
  return "same";
}

}  // namespace movebench::judge
