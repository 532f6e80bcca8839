#include <algorithm>
// core/change_points: sweeps with known steps, with and without noise.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <random>
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
  // 20% under 10% sample noise is under 4 sigma: not told from noise.
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    const auto r = find_steps(sweep(repeat({{10.0, 6}, {12.0, 6}}), 0.10, seed));
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
  // the way from 4 to 130.
  const auto r = find_steps(sweep({4, 4, 4, 4, 4, 7, 29, 95, 130, 130, 130, 130}, 0));
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].before, 4u);
  EXPECT_EQ(r.steps[0].after, 8u);
  EXPECT_NEAR(r.steps[0].ratio, 32.5, 1e-9);
}
