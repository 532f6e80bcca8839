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
// higher latency) by more than max(k x MAD x 1.4826, floor x |median|,
// k_noise x noise x |median|). k alone would flag tiny differences on a
// very quiet fleet (MAD near 0); the floor alone would ignore how noisy the
// fleet is. The noise is the units' own measured spread, where the caller
// has one (each unit's repeated samples): the median over the units of each
// one's relative spread ((max - min) / median of its samples). With few
// units the MAD says little about how much one unit's figure moves between
// runs; its samples do.
struct OutlierRule {
  double k = 5;         // --outlier-k
  double floor = 0.10;  // --outlier-floor, a fraction of the median
  double k_noise = 2;   // --outlier-noise-k, times the units' measured spread
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
// One set of units judged: what the rule compared with and what it named.
struct Judgement {
  Spread spread;       // of the values
  double noise = 0;    // the median of the given relative spreads; 0 when none given
  double allowed = 0;  // how much worse than the median a unit may be, in the values' unit
  std::vector<Outlier> outliers;
};
// The outliers among `values` (one per unit), in index order. Fewer than 3
// values have no majority to compare with: none (and allowed 0).
// `relative_spreads`: the units' measured spreads, each a fraction of its
// own figure ((max - min) / median of its samples), as many as are known;
// none: no noise term.
Judgement judge_outliers(std::span<const double> values, bool higher_is_better, const OutlierRule& rule,
                         std::span<const double> relative_spreads = {});
std::vector<Outlier> find_outliers(std::span<const double> values, bool higher_is_better, const OutlierRule& rule,
                                   std::span<const double> relative_spreads = {});

// Units measured in the same rounds (round r of every unit taken close in
// time, as node's numa part takes every cell once a round): each round's
// figures compared with that round's median, so that what moves every unit
// of a round alike (a loaded host, a VM's drift) cancels. A unit is an
// outlier when it is worse than its round's median by more than the floor
// (a fraction of that median) in every round: a sign test with a magnitude.
// No MAD or noise term: with few units the MAD of one round is one
// sibling's own deviation, and the rounds themselves are the repetition.
// Fewer than 3 units or kLeastPairedRounds rounds, or rounds of unequal
// counts: none.
inline constexpr std::size_t kLeastPairedRounds = 3;
struct RoundsJudgement {
  std::size_t rounds = 0;               // judged; 0 when not judged
  std::vector<double> least_worse_by;   // per unit, the least over the rounds (negative: better in one)
  std::vector<double> median_worse_by;  // per unit, the median over the rounds
  std::vector<Outlier> outliers;        // value and median: the unit's and the rounds' medians of its figure
};
RoundsJudgement judge_in_rounds(std::span<const std::vector<double>> per_unit_rounds, bool higher_is_better,
                                const OutlierRule& rule);

// The relative spread of repeated samples: (max - min) / median; 0 of
// fewer than 2 samples or a median of 0. The range, not the MAD: of 3 to 20
// samples the MAD is biased low (of 3, the smaller of two deviations), and
// a unit that drifts between rounds should count its whole drift.
double relative_spread(std::span<const double> samples);

}  // namespace movebench::judge
