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

// Beside a step: the last up to kDriftPoints points of the level before it,
// [level_start, last], and the first of the level after it, [first,
// level_end). The drift is the larger of the two sides' change per point
// (their spread over their points less one), the rate the change between
// their means per point between their middles.
struct Beside {
  double drift = 0, rate = 0;
};

Beside points_beside(std::span<const double> y, std::size_t level_start, std::size_t last, std::size_t first,
                     std::size_t level_end) {
  const std::size_t lo = std::max(level_start, last + 1 >= kDriftPoints ? last + 1 - kDriftPoints : 0);
  const std::size_t hi = std::min(level_end, first + kDriftPoints);
  const auto per_point = [](std::span<const double> side) {
    const auto [least, most] = std::minmax_element(side.begin(), side.end());
    return side.size() > 1 ? (*most - *least) / static_cast<double>(side.size() - 1) : 0.0;
  };
  const double apart = static_cast<double>(first + hi - 1) / 2 - static_cast<double>(lo + last) / 2;
  return {.drift = std::max(per_point(y.subspan(lo, last + 1 - lo)), per_point(y.subspan(first, hi - first))),
          .rate = std::abs(level_mean(y, first, hi) - level_mean(y, lo, last + 1)) / apart};
}

// A candidate step: the boundaries it takes (more than one for a
// transition), its two levels' means and sizes, the points beside it.
struct StepCandidate {
  std::size_t first_boundary = 0, boundaries = 1;
  std::size_t before = 0, after = 0;
  double from = 0, to = 0;  // the mean log of the level before and after
  double jump = 0;          // between the levels' means
  bool plateaus = true;     // both levels hold kLevelPoints points or more
  Beside near;              // the points beside it
};

// The steps the boundaries make: one per boundary, or one per run of
// changes the same way whose levels between them hold kTransitionPoints
// points in all or fewer (a transition).
std::vector<StepCandidate> step_candidates(std::span<const double> y, const std::vector<std::size_t>& bounds) {
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
    c.plateaus = c.before + 1 - level_start >= kLevelPoints && starts[b + 2] - c.after >= kLevelPoints;
    c.near = points_beside(y, level_start, c.before, c.after, starts[b + 2]);
    out.push_back(c);
  }
  return out;
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

StepSearch find_steps(std::span<const SweepPoint> points) {
  StepSearch out;
  out.noise = sweep_noise(points);
  const double floor = std::max(kFloorSigmas * out.noise, std::log(kLeastRatio));
  out.floor_ratio = std::exp(floor);
  std::vector<double> y;
  for (const auto& p : points) {
    if (!(p.value > 0) || !std::isfinite(p.value)) return out;
    y.push_back(std::log(p.value));
  }
  if (y.size() < 3) return out;
  const double spread = kFloorSigmas * out.noise;
  std::vector<std::size_t> bounds = segment_levels(y, spread * spread / 2);
  // Take away the weakest failing step (and its levels' boundary) until every one holds.
  for (;;) {
    const auto steps = step_candidates(y, bounds);
    const StepCandidate* weakest = nullptr;
    double weakest_margin = 1;
    for (const auto& c : steps) {
      const double drift = kCliffOverDrift * c.near.drift;
      const double margin =
          c.plateaus ? std::min(std::abs(c.jump) / floor, drift > 0 ? c.near.rate / drift : 1.0) : 0.0;
      if (margin < weakest_margin) {
        weakest_margin = margin;
        weakest = &c;
      }
    }
    if (weakest == nullptr) {
      for (const auto& c : steps) {
        out.steps.push_back(Step{.before = c.before,
                                 .after = c.after,
                                 .size_before = points[c.before].size,
                                 .size = points[c.after].size,
                                 .from = std::exp(c.from),
                                 .to = std::exp(c.to),
                                 .ratio = std::exp(c.jump)});
      }
      break;
    }
    bounds.erase(bounds.begin() + static_cast<std::ptrdiff_t>(weakest->first_boundary),
                 bounds.begin() + static_cast<std::ptrdiff_t>(weakest->first_boundary + weakest->boundaries));
  }
  return out;
}

}  // namespace movebench
