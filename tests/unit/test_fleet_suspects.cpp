// Which units are measured again (the rule on their memory figures) and how
// the two measurements of a suspect become one.
#include <gtest/gtest.h>

#include "fleet/fleet_suspects.hpp"
#include "judge/siblings.hpp"

namespace movebench::fleet {
namespace {

MemoryFigures memory_of(double copy, double triad, double latency_ns) {
  return {.copy_mbs = copy,
          .triad_mbs = triad,
          .latency_ns = latency_ns,
          .threads = 2,
          .copy_seconds = {1.0 / copy},
          .triad_seconds = {1.0 / triad},
          .chase_seconds = {latency_ns * 1e-9},
          .error = {},
          .measured_again = false};
}

TEST(FleetSuspects, SlowOnAnyFigureIsSuspectOnceInUnitOrder) {
  const judge::OutlierRule rule{5, 0.10};
  std::vector<MemoryFigures> units(6, memory_of(10000, 11000, 80));
  units[4] = memory_of(10000, 5000, 80);    // triad half the median
  units[1] = memory_of(10000, 11000, 400);  // latency five times
  units[3] = memory_of(4000, 4000, 300);    // every figure
  EXPECT_EQ(memory_suspects(units, {}, rule), (std::vector<int>{1, 3, 4}));
  // Better than the median is never suspect.
  units = std::vector<MemoryFigures>(5, memory_of(10000, 11000, 80));
  units[2] = memory_of(30000, 33000, 20);
  EXPECT_TRUE(memory_suspects(units, {}, rule).empty());
}

TEST(FleetSuspects, AUnitWithoutMemoryFiguresIsNeitherCountedNorSuspect) {
  const judge::OutlierRule rule{5, 0.10};
  std::vector<MemoryFigures> units(4, memory_of(10000, 11000, 80));
  units[0] = MemoryFigures{};                                          // failed before its figures: zeros
  EXPECT_EQ(memory_suspects(units, {}, rule), (std::vector<int>{0}));  // counted, its zeros are slow
  EXPECT_TRUE(memory_suspects(units, {true, false, false, false}, rule).empty());
}

TEST(FleetSuspects, TheBestOfBothIsKeptWithEveryRound) {
  MemoryFigures first = memory_of(4000, 5000, 300);  // a burst in the first pass
  const MemoryFigures again = memory_of(10000, 4500, 90);
  keep_best(first, again);
  EXPECT_TRUE(first.measured_again);
  EXPECT_EQ(first.copy_mbs, 10000);
  EXPECT_EQ(first.triad_mbs, 5000);  // the first pass was the better one here
  EXPECT_EQ(first.latency_ns, 90);
  EXPECT_EQ(first.copy_seconds.size(), 2u);
  EXPECT_EQ(first.triad_seconds.size(), 2u);
  EXPECT_EQ(first.chase_seconds.size(), 2u);
}

TEST(FleetSuspects, ASecondPassThatFailedOrMeasuredNothingChangesNothing) {
  const MemoryFigures first = memory_of(4000, 5000, 300);
  MemoryFigures bad = memory_of(10000, 11000, 80);
  bad.error = "memory: copy: c[7] = 1 (expected 2)";
  MemoryFigures kept = first;
  keep_best(kept, bad);
  EXPECT_FALSE(kept.measured_again);
  EXPECT_EQ(kept.copy_mbs, 4000);
  EXPECT_EQ(kept.copy_seconds.size(), 1u);
  keep_best(kept, MemoryFigures{});
  EXPECT_FALSE(kept.measured_again);
  EXPECT_EQ(kept.latency_ns, 300);
}

}  // namespace
}  // namespace movebench::fleet
