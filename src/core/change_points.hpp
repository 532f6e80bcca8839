// The steps of a sweep (docs/results.md, "Steps"): where a figure measured
// over growing sizes changes level, found by one change-point method that
// every sweep's result goes through (judge/steps names their causes).
//
// The method: the exact penalised least-squares segmentation of log(value)
// into constant levels (optimal partitioning; PELT's answer without its
// pruning, ruptures' Pelt(model="l2", min_size=1, jump=1)), with the penalty
// from the noise floor:
//   noise sigma  the larger of two robust spreads, never below kLeastNoise:
//                within  the median, over the sweep's points, of 1.4826 x
//                        the MAD of log(sample) of each point's repeated
//                        samples (kDefaultNoise where no point has 3)
//                scatter 1.4826 x the median of |second difference| of
//                        log(value), over sqrt 6 (the spread of y[i] -
//                        2 y[i-1] + y[i-2] of independent points is sqrt 6
//                        sigma): how far neighbouring points scatter, whatever
//                        their own samples say; a steady slope makes no
//                        second difference and a step only two, which the
//                        median passes over
//   penalty      (kFloorSigmas x sigma)^2 / 2 per change
// then the rules on the levels found:
//   floor        two levels of n1 and n2 points whose means differ by less
//                than max(kFloorSigmas x sigma x sqrt(1/n1 + 1/n2), ln
//                kLeastRatio) (kFloorSigmas standard errors of that
//                difference) are one level: such boundaries are taken away,
//                the weakest first, before the rules below, and a step
//                (a transition: between its outer levels) is held to the same
//   plateau      a level of fewer than kLevelPoints points is no level: a step
//                has that many points on each side (a lone slow point, or two,
//                at an end of the sweep or inside it, is no step)
//   transition   changes the same way in a row, with kTransitionPoints points
//                or fewer between the first's level and the last's (the points
//                a level is partly left at, as a cache a working set just
//                overflows), are one step, from the level before to the level after
//   cliff        a step is far sharper than the drift beside it: the change
//                between the means of the (up to) kDriftPoints points of each
//                level next to it, per point between them, at least
//                kCliffOverDrift times the steeper least-squares slope of
//                those sides less kDriftNoiseSigmas standard errors of it, so
//                that a curve whose slope changes smoothly (a link's
//                bandwidth over sizes, still latency-bound; a latency growing
//                with size) is not cut into a staircase of steps, while the
//                scatter of a few points is no slope
// A step failing a rule loses its weakest boundary (of a transition: the one
// whose levels differ least) and the rules run again until every step holds.
// Before all of it, on a sweep of a rate (bytes over time: bandwidth,
// throughput) only:
//   ramp         the leading points bound by a fixed cost per call (a
//                launch, a pass's start, a transfer's set-up) are left out:
//                each point's time per call (size / value) under
//                kBoundTimeRatio x the least of the points up to it, at least
//                kLevelPoints of them, the least-squares slope of log(value)
//                over log(size) across them kBoundSlope or more (a time per
//                call that hardly grows: the rate grows with the size). Their
//                levels are the fixed cost's, no cache's: left in, their mean
//                pulls the first level down (an H200's L2 plateau of 8.4 TB/s
//                read as 1.1 TB/s, its fall to HBM as a rise). The noise is
//                then the rest's. Sizes double in a sweep: a flat rate's time
//                doubles at the next size, a latency-bound one (slope 0.7)
//                fails the slope.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

namespace movebench {

// One point of a sweep: its size, its figure (> 0) and the repeated samples
// that figure came from (any unit: only their spread in log is used).
struct SweepPoint {
  double size = 0;
  double value = 0;
  std::vector<double> samples;
};

// A step: the level of the points up to `before` (its geometric mean,
// `from`) changing to the level of the points from `after` on (`to`).
struct Step {
  std::size_t before = 0, after = 0;  // indices into the sweep
  double size_before = 0, size = 0;   // their sizes
  double from = 0, to = 0;
  double ratio = 1;  // to / from
};

struct StepSearch {
  double noise = 0;              // sigma of log(value), as above
  double floor_ratio = 1;        // the floor between two levels of kLevelPoints points (the highest any step meets)
  std::size_t bound_points = 0;  // the leading points of the ramp, left out (0: none)
  std::vector<Step> steps;
};

// What a sweep's figure is: a rate of bytes over time (bandwidth,
// throughput), which a fixed cost per call makes grow with the size, or a
// time (a latency), which it leaves flat.
enum class SweepFigure { kTime, kRate };

inline constexpr double kDefaultNoise = 0.05;
inline constexpr double kLeastNoise = 0.01;
inline constexpr double kFloorSigmas = 4;
inline constexpr double kLeastRatio = 1.10;
inline constexpr double kCliffOverDrift = 2;
inline constexpr double kDriftNoiseSigmas = 2;
inline constexpr std::size_t kDriftPoints = 4;
inline constexpr std::size_t kLevelPoints = 3;
inline constexpr std::size_t kTransitionPoints = 3;
inline constexpr double kBoundTimeRatio = 2;
inline constexpr double kBoundSlope = 0.75;

// The two parts of the noise sigma, as above: within each point's samples,
// and the scatter between neighbouring log(value)s y (0 with fewer than three).
double sweep_noise(std::span<const SweepPoint> points);
double scatter_noise(std::span<const double> y);

// The leading points of a rate's sweep bound by a fixed cost per call (the
// ramp above; 0: none, or a value that is not positive).
std::size_t overhead_bound_points(std::span<const SweepPoint> points);

// The steps of a sweep whose points are in order of size (of a rate, past
// its ramp). Fewer than three points, or a value that is not positive: no steps.
StepSearch find_steps(std::span<const SweepPoint> points, SweepFigure figure = SweepFigure::kTime);

// The segmentation alone (exposed for its unit tests): the first index of
// each level after the first, for values y and a penalty per change.
std::vector<std::size_t> segment_levels(std::span<const double> y, double penalty);

}  // namespace movebench
