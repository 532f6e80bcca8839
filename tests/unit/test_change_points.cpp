// core/change_points: sweeps with known steps, with and without noise.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "core/change_points.hpp"

using namespace movebench;

namespace {

// A sweep over sizes 1K, 2K, 4K ... with the given levels; each point's
// samples spread by a log-normal noise of `sigma` (none when 0), its value
// their median, as a sweep's records give them.
std::vector<SweepPoint> sweep(const std::vector<double>& levels, double sigma, std::uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0, sigma);
  std::vector<SweepPoint> out;
  double size = 1024;
  for (double level : levels) {
    SweepPoint p{.size = size, .value = level, .samples = {}};
    for (int s = 0; s < 9; ++s) p.samples.push_back(level * std::exp(sigma > 0 ? noise(rng) : 0.0));
    std::vector<double> sorted = p.samples;
    std::sort(sorted.begin(), sorted.end());
    p.value = sorted[4];
    out.push_back(p);
    size *= 2;
  }
  return out;
}

std::vector<double> repeat(std::initializer_list<std::pair<double, int>> runs) {
  std::vector<double> out;
  for (auto [value, count] : runs) out.insert(out.end(), static_cast<std::size_t>(count), value);
  return out;
}

}  // namespace

TEST(ChangePoints, FlatSweepHasNoSteps) { EXPECT_TRUE(find_steps(sweep(repeat({{5.0, 12}}), 0)).steps.empty()); }

TEST(ChangePoints, KnownStepsWithoutNoise) {
  // A chase's levels: L1 1.5 ns, L2 4 ns, memory 90 ns.
  const auto r = find_steps(sweep(repeat({{1.5, 6}, {4.0, 6}, {90.0, 6}}), 0));
  ASSERT_EQ(r.steps.size(), 2u);
  EXPECT_EQ(r.steps[0].before, 5u);
  EXPECT_EQ(r.steps[0].after, 6u);
  EXPECT_DOUBLE_EQ(r.steps[0].size_before, 1024.0 * 32);
  EXPECT_DOUBLE_EQ(r.steps[0].size, 1024.0 * 64);
  EXPECT_NEAR(r.steps[0].from, 1.5, 1e-9);
  EXPECT_NEAR(r.steps[0].to, 4.0, 1e-9);
  EXPECT_NEAR(r.steps[0].ratio, 4.0 / 1.5, 1e-9);
  EXPECT_EQ(r.steps[1].after, 12u);
  EXPECT_NEAR(r.steps[1].ratio, 22.5, 1e-9);
  EXPECT_DOUBLE_EQ(r.noise, kLeastNoise);  // identical samples: the least noise
}

TEST(ChangePoints, KnownStepsUnderNoiseOnEverySeed) {
  // A bandwidth falling 2.5x and then 2x, under 5% noise per sample: the
  // steps are 18 and 14 sigmas of the sample noise, so every seed finds
  // both, at their place, and nothing else.
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const auto r = find_steps(sweep(repeat({{100.0, 7}, {40.0, 7}, {20.0, 7}}), 0.05, seed));
    ASSERT_EQ(r.steps.size(), 2u) << "seed " << seed;
    EXPECT_EQ(r.steps[0].after, 7u);
    EXPECT_EQ(r.steps[1].after, 14u);
    EXPECT_NEAR(r.steps[0].ratio, 0.4, 0.04);
    EXPECT_NEAR(r.noise, 0.05, 0.03);
  }
}

TEST(ChangePoints, NoiseAloneMakesNoStepOnAnySeed) {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    EXPECT_TRUE(find_steps(sweep(repeat({{50.0, 20}}), 0.1, seed)).steps.empty()) << "seed " << seed;
  }
}

TEST(ChangePoints, StepBelowTheFloorIsNotReported) {
  // 5% is under the least ratio (10%) even without noise.
  EXPECT_TRUE(find_steps(sweep(repeat({{10.0, 6}, {10.5, 6}}), 0)).steps.empty());
  // 10% between two levels of six points under 10% sample noise is under 4
  // standard errors of their difference (4 x 0.1 x sqrt(1/6 + 1/6) = 0.23 in
  // log, x1.26; the sample noise is the floor's though each point's value, a
  // median of nine, scatters less): not told from noise.
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    const auto r = find_steps(sweep(repeat({{10.0, 6}, {11.0, 6}}), 0.10, seed));
    EXPECT_TRUE(r.steps.empty()) << "seed " << seed;
    EXPECT_GT(r.floor_ratio, 1.2);
  }
}

TEST(ChangePoints, TransitionThroughOnePointIsOneStep) {
  // A working set twice a cache's size: half its level left.
  const auto r = find_steps(sweep(repeat({{2.0, 5}, {5.0, 1}, {12.0, 5}}), 0));
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].before, 4u);
  EXPECT_EQ(r.steps[0].after, 6u);
  EXPECT_NEAR(r.steps[0].ratio, 6.0, 1e-9);
}

TEST(ChangePoints, SteadyClimbIsNoStaircase) {
  // A bandwidth doubling with every size (a latency-bound transfer), then flat.
  std::vector<double> levels;
  for (int i = 0; i < 12; ++i) levels.push_back(std::pow(1.6, i));
  for (int i = 0; i < 6; ++i) levels.push_back(levels.back());
  EXPECT_TRUE(find_steps(sweep(levels, 0)).steps.empty());
  EXPECT_TRUE(find_steps(sweep(levels, 0.02, 3)).steps.empty());
}

TEST(ChangePoints, NoiseFloorFromTheSamples) {
  EXPECT_DOUBLE_EQ(sweep_noise(std::vector<SweepPoint>{{.size = 1, .value = 1, .samples = {}}}), kDefaultNoise);
  const std::vector<SweepPoint> spread{{.size = 1, .value = 1, .samples = {1.0, std::exp(0.2), std::exp(-0.2)}}};
  EXPECT_NEAR(sweep_noise(spread), 1.4826 * 0.2, 1e-9);
}

TEST(ChangePoints, NoiseFloorFromTheScatterBetweenPoints) {
  // A steady slope makes no second difference, one step two of the seven: neither moves the median.
  EXPECT_DOUBLE_EQ(scatter_noise(std::vector<double>{0, 0.5, 1, 1.5, 2, 2.5}), 0);
  EXPECT_DOUBLE_EQ(scatter_noise(std::vector<double>{0, 0, 0, 0, 3, 3, 3, 3, 3}), 0);
  // Points alternating by 0.2 in log: second differences of 0.4.
  EXPECT_NEAR(scatter_noise(std::vector<double>{0, 0.2, 0, 0.2, 0, 0.2, 0}), 1.4826 * 0.4 / std::sqrt(6.0), 1e-12);
  EXPECT_DOUBLE_EQ(scatter_noise(std::vector<double>{0, 1}), 0);
  // The sweep's noise is the larger: points scattering far more than their own samples.
  std::vector<SweepPoint> points;
  for (int i = 0; i < 9; ++i) {
    const double v = i % 2 ? 2.0 : 1.0;
    points.push_back({.size = 1024.0 * (i + 1), .value = v, .samples = {v, v * 1.01, v * 0.99}});
  }
  const auto r = find_steps(points);
  EXPECT_NEAR(r.noise, 1.4826 * 2 * std::log(2.0) / std::sqrt(6.0), 1e-12);
  EXPECT_TRUE(r.steps.empty());
}

TEST(ChangePoints, TooShortOrNotPositiveHasNoSteps) {
  EXPECT_TRUE(find_steps(sweep({1.0, 100.0}, 0)).steps.empty());
  EXPECT_TRUE(find_steps(sweep({1.0, 1.0, 0.0, 100.0, 100.0}, 0)).steps.empty());
}

TEST(ChangePoints, SegmentationIsExact) {
  const std::vector<double> y{0, 0, 0, 1, 1, 1, 3, 3};
  EXPECT_EQ(segment_levels(y, 0.1), (std::vector<std::size_t>{3, 6}));
  EXPECT_TRUE(segment_levels(y, 100).empty());
}

// The same boundaries as ruptures' PELT on the fixtures Python checks too
// (tests/data/change_points.json, tests/python/test_change_points.py).
TEST(ChangePoints, SegmentationAgreesWithRuptures) {
  std::ifstream in(std::string(MOVEBENCH_TEST_DATA) + "/change_points.json");
  ASSERT_TRUE(in) << "tests/data/change_points.json";
  const auto fixtures = nlohmann::json::parse(in);
  ASSERT_FALSE(fixtures["cases"].empty());
  for (const auto& c : fixtures["cases"]) {
    const auto y = c["y"].get<std::vector<double>>();
    EXPECT_EQ(segment_levels(y, c["penalty"].get<double>()), c["bounds"].get<std::vector<std::size_t>>())
        << c["why"].get<std::string>();
  }
}

TEST(ChangePoints, LonePointIsNoLevel) {
  // A slow first point (a cold start) and a lone slow point inside a level.
  EXPECT_TRUE(find_steps(sweep(repeat({{5.0, 1}, {1.0, 8}}), 0)).steps.empty());
  EXPECT_TRUE(find_steps(sweep(repeat({{1.0, 5}, {9.0, 1}, {1.0, 5}}), 0)).steps.empty());
}

TEST(ChangePoints, TransitionThroughThreePointsIsOneStep) {
  // A working set leaving a cache over an octave and a half: 7, 29, 95 on
  // the way from 4 to 130. The transition's own second differences set the
  // scatter (0.07 in log) and 95, 26 % under 130, falls within the floor from
  // the level after it: one step, from 4 to the level of 95 and 130.
  const auto r = find_steps(sweep({4, 4, 4, 4, 4, 7, 29, 95, 130, 130, 130, 130}, 0));
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].before, 4u);
  EXPECT_EQ(r.steps[0].after, 7u);
  EXPECT_NEAR(r.steps[0].ratio, std::exp((std::log(95.0) + 4 * std::log(130.0)) / 5) / 4, 1e-9);
}

namespace {

// A sweep over sizes 4 KiB .. at two per octave, as link's and mem's are:
// each point's figure scatters from its level by a log-normal noise of
// `between` (the point's own state: the load when it ran), and with
// probability `disturbed` is divided by a factor drawn from 1 to 5 (a point
// most of whose samples a neighbour's work slowed, as on a loaded VM); its
// nine samples spread around that by `within` and its value is their median.
std::vector<SweepPoint> scattered(const std::vector<double>& levels, double between, double within, double disturbed,
                                  std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> point(0, between), sample(0, within);
  std::uniform_real_distribution<double> chance(0, 1), slowed(1, 5);
  std::vector<SweepPoint> out;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    double at = levels[i] * std::exp(point(rng));
    if (chance(rng) < disturbed) at /= slowed(rng);
    SweepPoint p{.size = 4096 * std::pow(2.0, static_cast<double>(i) / 2), .value = 0, .samples = {}};
    for (int s = 0; s < 9; ++s) p.samples.push_back(at * std::exp(sample(rng)));
    std::vector<double> sorted = p.samples;
    std::sort(sorted.begin(), sorted.end());
    p.value = sorted[4];
    out.push_back(p);
  }
  return out;
}

struct Rates {
  int found = 0;      // sweeps whose step was found at its place
  int elsewhere = 0;  // sweeps with a step anywhere else (a false one)
};

// Over `trials` seeds: 13 points (link's 4 KiB .. 256 KiB), a step of
// `ratio` from the ninth point on (1: none).
Rates trial(double ratio, double between, double within, double disturbed, int trials) {
  Rates r;
  std::vector<double> levels(13, 100.0);
  for (std::size_t i = 8; i < levels.size(); ++i) levels[i] *= ratio;
  for (int seed = 1; seed <= trials; ++seed) {
    const auto steps = find_steps(scattered(levels, between, within, disturbed, seed)).steps;
    r.found += std::any_of(steps.begin(), steps.end(), [](const Step& s) { return s.after == 8; });
    r.elsewhere += std::any_of(steps.begin(), steps.end(), [](const Step& s) { return s.after != 8; });
  }
  std::printf("x%g, scatter %g, samples %g, disturbed %g: found %d, a false step in %d of %d\n", ratio, between, within,
              disturbed, r.found, r.elsewhere, trials);
  return r;
}

}  // namespace

// The rates over 1000 seeds each (docs/results.md, "Steps", gives them):
// a sweep of pure noise has a false step in at most 3 % (2.2 % measured) with
// a Gaussian scatter of 2 to 40 % between points, at most 6 % (4.6 %) with a
// third of its points slowed up to 5x; a fall to an eighth (link's slow
// copies) is found at its place in 99 % (99.4 %) up to a scatter of 20 %, 90 %
// (93.8 %) at 40 %, and 65 % (69.8 %) with a third of its points slowed; a
// step of x2 (either way) in 98 % (98.6 %) up to a scatter of 10 %.
TEST(ChangePoints, ScatteredSweepsFindTheirStepAndNoiseMakesFew) {
  constexpr int kTrials = 1000;
  for (double between : {0.02, 0.05, 0.1, 0.2, 0.4}) {
    EXPECT_LE(trial(1, between, between / 2, 0, kTrials).elsewhere, kTrials * 3 / 100);
    const Rates eighth = trial(0.125, between, between / 2, 0, kTrials);
    EXPECT_GE(eighth.found, kTrials * (between <= 0.2 ? 99 : 90) / 100);
    EXPECT_LE(eighth.elsewhere, kTrials * 3 / 100);
    if (between > 0.1) continue;
    for (double ratio : {0.5, 2.0}) EXPECT_GE(trial(ratio, between, between / 2, 0, kTrials).found, kTrials * 98 / 100);
  }
  EXPECT_LE(trial(1, 0.05, 0.1, 0.3, kTrials).elsewhere, kTrials * 6 / 100);
  EXPECT_GE(trial(0.125, 0.05, 0.1, 0.3, kTrials).found, kTrials * 65 / 100);
}

// The three sweeps tests/data/steps keeps of link's host copies with every
// copy of 64 KiB or more made eight times (memcpy_faults' slow mode): each
// table's sizes and figures (the mean bandwidth, "avg MB/s"), each point given
// the sample spread the run printed (its noise floor x{f}: sigma ln f / 4, as
// three samples whose spread is that sigma). The fall at 64 KiB is the one step.
TEST(ChangePoints, KeptSlowCopySweepsFallAt64KiB) {
  const std::regex row(R"(^\s+(\d+)\s+\d+\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+copy\.read$)");
  const std::regex floor_line(R"(noise floor x([\d.]+))");
  for (int run = 1; run <= 3; ++run) {
    const std::string name = "steps/link-slow-from-64k-" + std::to_string(run) + ".txt";
    std::ifstream in(std::string(MOVEBENCH_TEST_DATA) + "/" + name);
    ASSERT_TRUE(in) << name;
    std::vector<std::pair<double, double>> table;
    double sigma = 0;
    std::smatch m;
    for (std::string line; std::getline(in, line);) {
      if (std::regex_match(line, m, row)) table.emplace_back(std::stod(m[1]), std::stod(m[2]));
      if (std::regex_search(line, m, floor_line)) sigma = std::log(std::stod(m[1])) / kFloorSigmas;
    }
    ASSERT_EQ(table.size(), 13u) << name;
    ASSERT_GT(sigma, 0) << name;
    std::vector<SweepPoint> points;
    const double d = sigma / 1.4826;
    for (auto [size, mbs] : table)
      points.push_back({.size = size, .value = mbs, .samples = {mbs * std::exp(-d), mbs, mbs * std::exp(d)}});
    EXPECT_NEAR(sweep_noise(points), sigma, 1e-9) << name;
    const auto r = find_steps(points);
    ASSERT_EQ(r.steps.size(), 1u) << name;
    EXPECT_DOUBLE_EQ(r.steps[0].size_before, 46340) << name;
    EXPECT_DOUBLE_EQ(r.steps[0].size, 65536) << name;
    EXPECT_LT(r.steps[0].ratio, 0.25) << name;
    EXPECT_GT(r.noise, sigma) << name << ": the scatter between points, not the samples, sets the floor";
    // A bandwidth, but no ramp: link's rate hardly grows below 64 KiB.
    EXPECT_EQ(find_steps(points, SweepFigure::kRate).bound_points, 0u) << name;
  }
}

namespace {

// A rate over sizes 1 KiB .. 1 GiB by doubling where each call pays a fixed
// cost of `fixed_s` on top of its bytes at `fast` B/s up to `edge` and
// `slow` B/s beyond (a device's passes: a launch or a pass's start, then the
// L2, then HBM); no noise.
std::vector<SweepPoint> rate_with_fixed_cost(double fixed_s, double fast, double slow, double edge) {
  std::vector<SweepPoint> out;
  for (double size = 1024; size <= 1024.0 * 1024 * 1024; size *= 2) {
    const double rate = size / (fixed_s + size / (size <= edge ? fast : slow));
    out.push_back({.size = size, .value = rate, .samples = {rate, rate, rate}});
  }
  return out;
}

}  // namespace

TEST(ChangePoints, RampBoundByAFixedCostIsLeftOut) {
  // 100 ns a call, 8 TB/s to 64 MiB, 4 TB/s beyond: the time per call stays
  // under twice the least up to 512 KiB (100 + 66 ns), 1 MiB takes 231 ns.
  const auto points = rate_with_fixed_cost(100e-9, 8e12, 4e12, 64.0 * 1024 * 1024);
  EXPECT_EQ(overhead_bound_points(points), 10u);
  // Taken as levels, the ramp's mean is the level before the fall, which reads as a rise.
  const auto as_levels = find_steps(points, SweepFigure::kTime);
  ASSERT_EQ(as_levels.steps.size(), 1u);
  EXPECT_GT(as_levels.steps[0].ratio, 1);
  EXPECT_EQ(as_levels.bound_points, 0u);
  // Left out, the fall is the one step: from the plateau's level (its first
  // points still partly bound) to the slow one, at 64 MiB.
  const auto r = find_steps(points, SweepFigure::kRate);
  EXPECT_EQ(r.bound_points, 10u);
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].before, 16u);
  EXPECT_EQ(r.steps[0].after, 17u);
  EXPECT_DOUBLE_EQ(r.steps[0].size_before, 64.0 * 1024 * 1024);
  EXPECT_LT(r.steps[0].ratio, 0.75);
  EXPECT_GT(r.steps[0].from, 0.75 * 8e12);
  EXPECT_NEAR(r.steps[0].to, 4e12, 0.05 * 4e12);
}

TEST(ChangePoints, NoRampWhereTheTimePerCallGrows) {
  // A flat rate (its time doubles with the size), a latency-bound climb
  // (x1.6 a doubling: slope 0.68), a short sweep and a value not positive.
  EXPECT_EQ(overhead_bound_points(sweep(repeat({{5.0, 12}}), 0)), 0u);
  std::vector<double> climb;
  for (int i = 0; i < 12; ++i) climb.push_back(std::pow(1.6, i));
  EXPECT_EQ(overhead_bound_points(sweep(climb, 0)), 0u);
  EXPECT_EQ(overhead_bound_points(sweep({1, 2}, 0)), 0u);
  EXPECT_EQ(overhead_bound_points(sweep({1, 2, 4, 0, 16}, 0)), 0u);
  // A rate doubling with the size throughout: every point bound, no steps sought.
  const auto bound = find_steps(sweep({1, 2, 4, 8, 16, 32}, 0), SweepFigure::kRate);
  EXPECT_EQ(bound.bound_points, 6u);
  EXPECT_TRUE(bound.steps.empty());
}

namespace {

// The bandwidth sweep of one kernel in a committed mem seq document: each
// record's size, its figure and its samples.
std::vector<SweepPoint> seq_sweep(const nlohmann::json& doc, const std::string& kernel) {
  std::vector<SweepPoint> out;
  for (const auto& t : doc["timings"]) {
    if (t["operation"] != kernel) continue;
    out.push_back({.size = t["bytes"].get<double>(),
                   .value = t["figures"]["bandwidth"]["value"].get<double>(),
                   .samples = t["samples"].get<std::vector<double>>()});
  }
  return out;
}

}  // namespace

// The H200 run (tests/data/gpu/2026-11-28-h200/run3/mem-seq.json, mem seq
// --backend cuda, a sample's calls in one launch, 1 KiB .. 1 GiB per array):
// each kernel's rate doubles with the size below about 1 MiB (the per-pass
// cost), then the L2's plateau, then HBM. The ramp left out, copy and triad
// fall from their L2 level (above 7 and 10 TB/s) to HBM's (under 4.5 TB/s)
// where the arrays outgrow the 60 MiB L2; init (stores only: no L2 plateau)
// falls nowhere. Before, copy's fall read as a rise from the ramp's mean
// (64 -> 128 MiB x3.7) and triad's was not found.
TEST(ChangePoints, H200SeqSweepsFallFromTheirL2Level) {
  std::ifstream in(std::string(MOVEBENCH_TEST_DATA) + "/gpu/2026-11-28-h200/run3/mem-seq.json");
  ASSERT_TRUE(in) << "tests/data/gpu/2026-11-28-h200/run3/mem-seq.json";
  const auto doc = nlohmann::json::parse(in);
  constexpr double kMiB = 1024.0 * 1024;
  for (const char* kernel : {"copy", "triad", "init"}) {
    const auto points = seq_sweep(doc, kernel);
    ASSERT_EQ(points.size(), 21u) << kernel;
    const auto r = find_steps(points, SweepFigure::kRate);
    EXPECT_GE(r.bound_points, 8u) << kernel;
    EXPECT_LE(points[r.bound_points - 1].size, 3 * kMiB) << kernel;
    std::vector<Step> falls;
    std::copy_if(r.steps.begin(), r.steps.end(), std::back_inserter(falls), [](const Step& s) { return s.ratio < 1; });
    if (std::string(kernel) == "init") {
      EXPECT_TRUE(falls.empty()) << kernel;
      continue;
    }
    ASSERT_EQ(falls.size(), 1u) << kernel;
    EXPECT_DOUBLE_EQ(falls[0].size_before, std::string(kernel) == "copy" ? 64 * kMiB : 48 * kMiB) << kernel;
    EXPECT_LE(falls[0].size, 4 * falls[0].size_before) << kernel;
    EXPECT_GT(falls[0].from, std::string(kernel) == "copy" ? 7e6 : 1e7) << kernel;  // MB/s
    EXPECT_LT(falls[0].to, 4.5e6) << kernel;
  }
}
