#include "core/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace movebench {
namespace {

double sorted_median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// 1.4826 x the median absolute deviation of log(samples); < 0 when fewer
// than three positive samples.
double log_sample_spread(const std::vector<double>& samples) {
  std::vector<double> logs;
  for (double s : samples) {
    if (s > 0) logs.push_back(std::log(s));
  }
  if (logs.size() < 3) return -1;
  const double mid = sorted_median(logs);
  for (double& l : logs) l = std::abs(l - mid);
  return 1.4826 * sorted_median(logs);
}

double level_mean(std::span<const double> y, std::size_t from, std::size_t to) {
  double s = 0;
  for (std::size_t i = from; i < to; ++i) s += y[i];
  return s / static_cast<double>(to - from);
}

// The least-squares slope of `side` over its points, less kDriftNoiseSigmas
// standard errors of that slope under a noise of sigma `noise`; 0 when none.
double slope_beyond_noise(std::span<const double> side, double noise) {
  const double m = static_cast<double>(side.size());
  if (side.size() < 2) return 0;
  const double mid = (m - 1) / 2, mean = level_mean(side, 0, side.size()), sxx = m * (m * m - 1) / 12;
  double sxy = 0;
  for (std::size_t i = 0; i < side.size(); ++i) sxy += (static_cast<double>(i) - mid) * (side[i] - mean);
  return std::max(0.0, std::abs(sxy / sxx) - kDriftNoiseSigmas * noise * std::sqrt(1 / sxx));
}

// Beside a step: the last up to kDriftPoints points of the level before it,
// [level_start, last], and the first of the level after it, [first,
// level_end). The drift is the steeper of the two sides' slopes beyond the
// noise, the rate the change between their means per point between their middles.
struct Beside {
  double drift = 0, rate = 0;
};

Beside points_beside(std::span<const double> y, std::size_t level_start, std::size_t last, std::size_t first,
                     std::size_t level_end, double noise) {
  const std::size_t lo = std::max(level_start, last + 1 >= kDriftPoints ? last + 1 - kDriftPoints : 0);
  const std::size_t hi = std::min(level_end, first + kDriftPoints);
  const double apart = static_cast<double>(first + hi - 1) / 2 - static_cast<double>(lo + last) / 2;
  return {.drift = std::max(slope_beyond_noise(y.subspan(lo, last + 1 - lo), noise),
                            slope_beyond_noise(y.subspan(first, hi - first), noise)),
          .rate = std::abs(level_mean(y, first, hi) - level_mean(y, lo, last + 1)) / apart};
}

// A candidate step: the boundaries it takes (more than one for a
// transition), its two levels' means and sizes, the points beside it.
struct StepCandidate {
  std::size_t first_boundary = 0, boundaries = 1;
  std::size_t before = 0, after = 0;
  double from = 0, to = 0;                          // the mean log of the level before and after
  double jump = 0;                                  // between the levels' means
  std::size_t points_before = 0, points_after = 0;  // the levels' points
  Beside near;                                      // the points beside it
};

// The steps the boundaries make: one per boundary, or one per run of
// changes the same way whose levels between them hold kTransitionPoints
// points in all or fewer (a transition).
std::vector<StepCandidate> step_candidates(std::span<const double> y, const std::vector<std::size_t>& bounds,
                                           double noise) {
  std::vector<std::size_t> starts{0};
  starts.insert(starts.end(), bounds.begin(), bounds.end());
  starts.push_back(y.size());
  std::vector<double> means;
  for (std::size_t l = 0; l + 1 < starts.size(); ++l) means.push_back(level_mean(y, starts[l], starts[l + 1]));
  std::vector<StepCandidate> out;
  for (std::size_t b = 0; b < bounds.size(); ++b) {
    StepCandidate c;
    c.first_boundary = b;
    const std::size_t level_start = starts[b];
    c.before = starts[b + 1] - 1;
    c.after = starts[b + 1];
    c.from = means[b];
    c.to = means[b + 1];
    while (b + 1 < bounds.size() && starts[b + 2] - c.before - 1 <= kTransitionPoints &&
           (means[b + 2] - means[b + 1]) * (c.to - c.from) > 0) {
      ++b;
      ++c.boundaries;
      c.after = starts[b + 1];
      c.to = means[b + 1];
    }
    c.jump = c.to - c.from;
    c.points_before = c.before + 1 - level_start;
    c.points_after = starts[b + 2] - c.after;
    c.near = points_beside(y, level_start, c.before, c.after, starts[b + 2], noise);
    out.push_back(c);
  }
  return out;
}

// The level means of y cut at `bounds`, and where each level starts (and the end).
struct Levels {
  std::vector<std::size_t> starts;
  std::vector<double> means;
};

Levels levels_of(std::span<const double> y, const std::vector<std::size_t>& bounds) {
  Levels l{.starts = {0}, .means = {}};
  l.starts.insert(l.starts.end(), bounds.begin(), bounds.end());
  l.starts.push_back(y.size());
  for (std::size_t i = 0; i + 1 < l.starts.size(); ++i) l.means.push_back(level_mean(y, l.starts[i], l.starts[i + 1]));
  return l;
}

// The least change in log between two levels of n_before and n_after points.
double step_floor(double noise, std::size_t n_before, std::size_t n_after) {
  const double spread = std::sqrt(1 / static_cast<double>(n_before) + 1 / static_cast<double>(n_after));
  return std::max(kFloorSigmas * noise * spread, std::log(kLeastRatio));
}

// The boundaries left once each one whose two levels differ by less than
// their floor is taken away, the weakest first.
std::vector<std::size_t> above_the_floor(std::span<const double> y, std::vector<std::size_t> bounds, double noise) {
  while (!bounds.empty()) {
    const Levels l = levels_of(y, bounds);
    std::size_t weakest = 0;
    double weakest_margin = std::numeric_limits<double>::infinity();
    for (std::size_t b = 0; b < bounds.size(); ++b) {
      const double margin = std::abs(l.means[b + 1] - l.means[b]) /
                            step_floor(noise, l.starts[b + 1] - l.starts[b], l.starts[b + 2] - l.starts[b + 1]);
      if (margin < weakest_margin) {
        weakest_margin = margin;
        weakest = b;
      }
    }
    if (weakest_margin >= 1) break;
    bounds.erase(bounds.begin() + static_cast<std::ptrdiff_t>(weakest));
  }
  return bounds;
}

// Of the boundaries first .. first + count - 1, the one whose two levels differ least.
std::size_t least_change(std::span<const double> y, const std::vector<std::size_t>& bounds, std::size_t first,
                         std::size_t count) {
  const Levels l = levels_of(y, bounds);
  std::size_t least = first;
  for (std::size_t b = first + 1; b < first + count; ++b) {
    if (std::abs(l.means[b + 1] - l.means[b]) < std::abs(l.means[least + 1] - l.means[least])) least = b;
  }
  return least;
}

// The failing candidate with the least margin (1 and over: it holds), or none.
const StepCandidate* weakest_step(const std::vector<StepCandidate>& steps, double noise) {
  const StepCandidate* weakest = nullptr;
  double weakest_margin = 1;
  for (const auto& c : steps) {
    const double drift = kCliffOverDrift * c.near.drift;
    const bool plateaus = std::min(c.points_before, c.points_after) >= kLevelPoints;
    const double margin = plateaus ? std::min(std::abs(c.jump) / step_floor(noise, c.points_before, c.points_after),
                                              drift > 0 ? c.near.rate / drift : 1.0)
                                   : 0.0;
    if (margin < weakest_margin) {
      weakest_margin = margin;
      weakest = &c;
    }
  }
  return weakest;
}

}  // namespace

double sweep_noise(std::span<const SweepPoint> points) {
  std::vector<double> spreads;
  for (const auto& p : points) {
    const double s = log_sample_spread(p.samples);
    if (s >= 0) spreads.push_back(s);
  }
  const double sigma = spreads.empty() ? kDefaultNoise : sorted_median(spreads);
  return std::max(sigma, kLeastNoise);
}

double scatter_noise(std::span<const double> y) {
  if (y.size() < 3) return 0;
  std::vector<double> curve;
  for (std::size_t i = 2; i < y.size(); ++i) curve.push_back(std::abs(y[i] - 2 * y[i - 1] + y[i - 2]));
  return 1.4826 * sorted_median(curve) / std::sqrt(6.0);
}

std::vector<std::size_t> segment_levels(std::span<const double> y, double penalty) {
  const std::size_t n = y.size();
  std::vector<double> sum(n + 1, 0), sq(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    sum[i + 1] = sum[i] + y[i];
    sq[i + 1] = sq[i] + y[i] * y[i];
  }
  const auto cost = [&](std::size_t s, std::size_t t) {
    const double len = static_cast<double>(t - s), d = sum[t] - sum[s];
    return std::max(0.0, sq[t] - sq[s] - d * d / len);
  };
  // best[t]: the least cost of y[0, t); start[t]: where its last level starts.
  std::vector<double> best(n + 1, 0);
  std::vector<std::size_t> start(n + 1, 0);
  for (std::size_t t = 1; t <= n; ++t) {
    best[t] = std::numeric_limits<double>::infinity();
    for (std::size_t s = 0; s < t; ++s) {
      const double c = (s == 0 ? 0 : best[s] + penalty) + cost(s, t);
      if (c < best[t]) {
        best[t] = c;
        start[t] = s;
      }
    }
  }
  std::vector<std::size_t> bounds;
  for (std::size_t t = n; start[t] > 0; t = start[t]) bounds.push_back(start[t]);
  std::reverse(bounds.begin(), bounds.end());
  return bounds;
}

std::size_t overhead_bound_points(std::span<const SweepPoint> points) {
  std::vector<double> x, y;  // log(size), log(value)
  double least_time = std::numeric_limits<double>::infinity();
  for (const auto& p : points) {
    if (!(p.value > 0 && p.size > 0 && std::isfinite(p.value))) return 0;
    const double time = std::log(p.size) - std::log(p.value);  // log of the time per call, in any unit
    least_time = std::min(least_time, time);
    if (!x.empty() && time - least_time >= std::log(kBoundTimeRatio)) break;
    x.push_back(std::log(p.size));
    y.push_back(std::log(p.value));
  }
  if (x.size() < kLevelPoints) return 0;
  const double mx = level_mean(x, 0, x.size()), my = level_mean(y, 0, y.size());
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
  }
  return sxx > 0 && sxy / sxx >= kBoundSlope ? x.size() : 0;
}

StepSearch find_steps(std::span<const SweepPoint> points, SweepFigure figure) {
  const std::size_t bound = figure == SweepFigure::kRate ? overhead_bound_points(points) : 0;
  points = points.subspan(bound);
  StepSearch out;
  out.bound_points = bound;
  std::vector<double> y;
  for (const auto& p : points) {
    if (p.value > 0 && std::isfinite(p.value)) y.push_back(std::log(p.value));
  }
  const bool valid = y.size() == points.size() && y.size() >= 3;
  if (!valid) y.clear();
  out.noise = std::max(sweep_noise(points), scatter_noise(y));
  out.floor_ratio = std::exp(step_floor(out.noise, kLevelPoints, kLevelPoints));
  if (!valid) return out;
  const double spread = kFloorSigmas * out.noise;
  std::vector<std::size_t> bounds = above_the_floor(y, segment_levels(y, spread * spread / 2), out.noise);
  // Take away the weakest failing step's least change until every step holds.
  std::vector<StepCandidate> steps = step_candidates(y, bounds, out.noise);
  for (const StepCandidate* weakest = weakest_step(steps, out.noise); weakest != nullptr;
       weakest = weakest_step(steps, out.noise)) {
    bounds.erase(bounds.begin() +
                 static_cast<std::ptrdiff_t>(least_change(y, bounds, weakest->first_boundary, weakest->boundaries)));
    steps = step_candidates(y, bounds, out.noise);
  }
  for (const auto& c : steps) {
    out.steps.push_back(Step{.before = bound + c.before,
                             .after = bound + c.after,
                             .size_before = points[c.before].size,
                             .size = points[c.after].size,
                             .from = std::exp(c.from),
                             .to = std::exp(c.to),
                             .ratio = std::exp(c.jump)});
  }
  return out;
}

}  // namespace movebench
