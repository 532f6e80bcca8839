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

namespace {

// Each unit's rounds as fractions worse than each round's median; empty
// when the rounds cannot be paired.
std::vector<std::vector<double>> worse_by_round(std::span<const std::vector<double>> units, bool higher_is_better) {
  if (units.size() < 3) return {};
  const std::size_t rounds = units.front().size();
  if (rounds < kLeastPairedRounds) return {};
  for (const auto& u : units) {
    if (u.size() != rounds) return {};
  }
  std::vector<std::vector<double>> worse(units.size());
  for (std::size_t r = 0; r < rounds; ++r) {
    std::vector<double> round;
    for (const auto& u : units) round.push_back(u[r]);
    const double m = median_of(round);
    for (std::size_t i = 0; i < units.size(); ++i) {
      const double by = m != 0 ? (units[i][r] - m) / std::abs(m) : 0;
      worse[i].push_back(higher_is_better ? -by : by);
    }
  }
  return worse;
}

}  // namespace

RoundsJudgement judge_in_rounds(std::span<const std::vector<double>> per_unit_rounds, bool higher_is_better,
                                const OutlierRule& rule) {
  RoundsJudgement j;
  const auto worse = worse_by_round(per_unit_rounds, higher_is_better);
  if (worse.empty()) return j;
  j.rounds = worse.front().size();
  std::vector<double> medians;
  for (const auto& u : per_unit_rounds) medians.push_back(median_of(u));
  const double median = median_of(medians);
  for (std::size_t i = 0; i < worse.size(); ++i) {
    j.least_worse_by.push_back(*std::min_element(worse[i].begin(), worse[i].end()));
    j.median_worse_by.push_back(median_of(worse[i]));
    if (j.least_worse_by.back() > rule.floor) j.outliers.push_back({i, medians[i], median, j.median_worse_by.back()});
  }
  return j;
}

double relative_spread(std::span<const double> samples) {
  if (samples.size() < 2) return 0;
  const Spread s = robust_spread(samples);
  return s.median != 0 ? (s.max - s.min) / std::abs(s.median) : 0;
}

}  // namespace movebench::judge
