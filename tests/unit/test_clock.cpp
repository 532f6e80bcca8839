#include <gtest/gtest.h>

#include <vector>

#include "core/clock.hpp"

using namespace movebench;

TEST(CallsToFill, RoundsToTheBudgetAndClamps) {
  // 10 calls took 1 ms: 0.05 s holds 500 of them.
  EXPECT_EQ(calls_to_fill(0.05, 1e-3, 10, 1, 1000), 500u);
  // 3 calls took 1 s: a third of a second is one call, two thirds two.
  EXPECT_EQ(calls_to_fill(1.0 / 3, 1.0, 3, 1, 1000), 1u);
  EXPECT_EQ(calls_to_fill(0.5, 1.0, 3, 1, 1000, Fill::kAtLeast), 2u);  // 1.5 up
  EXPECT_EQ(calls_to_fill(0.5, 1.0, 3, 0, 1000, Fill::kWithin), 1u);   // 1.5 down
  EXPECT_EQ(calls_to_fill(10, 1e-9, 1, 1, 1000), 1000u);               // the most
  EXPECT_EQ(calls_to_fill(1e-9, 1.0, 1, 16, 1000), 16u);               // the least
  EXPECT_EQ(calls_to_fill(1e300, 1e-300, 1, 1, 1u << 20), 1u << 20);   // beyond 2^64: clamped, not wrapped
}

TEST(CallsToFill, NoTimeMeansTheMost) {
  // A clock too coarse for the calls measured nothing: as many as allowed.
  EXPECT_EQ(calls_to_fill(0.05, 0.0, 1, 1, 300), 300u);
  EXPECT_EQ(calls_to_fill(0.05, -1.0, 1, 1, 300), 300u);
}

TEST(CallsForBudget, ProbesUntilAShareOfTheBudgetThenScales) {
  // Each call costs 2^-20 s; probes of 1, 2, 4 ... calls until one lasts a
  // quarter of the 2^-10 s budget (256 calls), then 1024 calls fill it.
  std::vector<std::uint64_t> probes;
  const auto timed = [&](std::uint64_t n) {
    probes.push_back(n);
    return static_cast<double>(n) / (1 << 20);
  };
  EXPECT_EQ(calls_for_budget(timed, 1.0 / 1024, Probe{.first = 1, .growth = 2, .share = 0.25}, 1, 1u << 20), 1024u);
  EXPECT_EQ(probes, (std::vector<std::uint64_t>{1, 2, 4, 8, 16, 32, 64, 128, 256}));
}

TEST(CallsForBudget, StopsProbingAtItsMost) {
  // A call of no measurable time: the probe stops at its largest count and
  // the answer is the most allowed, not an endless loop.
  int probes = 0;
  const auto timed = [&](std::uint64_t) {
    ++probes;
    return 0.0;
  };
  EXPECT_EQ(
      calls_for_budget(timed, 1e-3, Probe{.first = 4096, .growth = 4, .share = 0.1, .most = 1u << 20}, 16, 1u << 24),
      1u << 24);
  EXPECT_EQ(probes, 5);  // 4096, 16K, 64K, 256K, 1M
}
