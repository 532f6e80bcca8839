#include "judge/siblings.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace movebench::judge {
namespace {

double median_of(std::vector<double> v) {
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2;
}

}  // namespace

Spread robust_spread(std::span<const double> values) {
  if (values.empty()) throw std::invalid_argument("robust_spread: no values");
  std::vector<double> v(values.begin(), values.end());
  Spread s;
  s.median = median_of(v);
  s.min = *std::min_element(v.begin(), v.end());
  s.max = *std::max_element(v.begin(), v.end());
  for (auto& x : v) x = std::abs(x - s.median);
  s.mad = kMadToSigma * median_of(std::move(v));
  return s;
}

Whole whole_of(std::span<const double> per_unit) {
  Whole w;
  w.spread = robust_spread(per_unit);
  for (double v : per_unit) w.sum += v;
  return w;
}

Judgement judge_outliers(std::span<const double> values, bool higher_is_better, const OutlierRule& rule,
                         std::span<const double> relative_spreads) {
  Judgement j;
  if (values.size() < 3) return j;
  const Spread s = robust_spread(values);
  j.spread = s;
  if (!relative_spreads.empty()) j.noise = robust_spread(relative_spreads).median;
  j.allowed = std::max({rule.k * s.mad, rule.floor * std::abs(s.median), rule.k_noise * j.noise * std::abs(s.median)});
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double worse = higher_is_better ? s.median - values[i] : values[i] - s.median;
    if (worse > j.allowed && worse > 0) {
      const double by = s.median != 0 ? worse / std::abs(s.median) : 0;
      j.outliers.push_back({i, values[i], s.median, by});
    }
  }
  return j;
}

std::vector<Outlier> find_outliers(std::span<const double> values, bool higher_is_better, const OutlierRule& rule,
                                   std::span<const double> relative_spreads) {
  return judge_outliers(values, higher_is_better, rule, relative_spreads).outliers;
}

double relative_spread(std::span<const double> samples) {
  if (samples.size() < 2) return 0;
  const Spread s = robust_spread(samples);
  return s.median != 0 ? (s.max - s.min) / std::abs(s.median) : 0;
}

}  // namespace movebench::judge
