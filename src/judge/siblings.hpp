// The sibling rule: which of many like units (the ranks or nodes of a
// fleet, the pairs of its links) is an outlier against the others, by a
// robust rule (median and MAD), with no model of what the figure should be.
// fleet judges its units and pairs by it (docs/fleet.md).
#pragma once
#include <cstddef>
#include <span>
#include <vector>

namespace movebench::judge {

// The MAD times this estimates the standard deviation of normal data.
inline constexpr double kMadToSigma = 1.4826;

// A unit is an outlier when it is worse than the median (lower bandwidth,
// higher latency) by more than max(k x MAD x 1.4826, floor x |median|).
// k alone would flag tiny differences on a very quiet fleet (MAD near 0);
// the floor alone would ignore how noisy the fleet is.
struct OutlierRule {
  double k = 5;         // --outlier-k
  double floor = 0.10;  // --outlier-floor, a fraction of the median
};

struct Spread {
  double median = 0;
  double mad = 0;  // scaled to sigma (x 1.4826)
  double min = 0, max = 0;
};
// Throws std::invalid_argument on no values.
Spread robust_spread(std::span<const double> values);

// One figure over the units: their sum (what the whole moves at once) and
// its spread per unit. Throws std::invalid_argument on no values.
struct Whole {
  double sum = 0;
  Spread spread;
};
Whole whole_of(std::span<const double> per_unit);

struct Outlier {
  std::size_t index = 0;  // into the values
  double value = 0, median = 0;
  double worse_by = 0;  // fraction of the median, > 0: how much worse
};
// The outliers among `values` (one per unit), in index order. Fewer than 3
// values have no majority to compare with: none.
std::vector<Outlier> find_outliers(std::span<const double> values, bool higher_is_better, const OutlierRule& rule);

}  // namespace movebench::judge
