// fleet: what rank 0 makes of the units' statuses gathered after a step
// (fleet_failures.hpp), and how failed units are left out of the pairs and
// of a figure's median and MAD.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fleet/fleet_failures.hpp"
#include "judge/siblings.hpp"

namespace movebench::fleet {
namespace {

TEST(FleetFailures, AStatusIsTheStepAndOneLineOfReason) {
  EXPECT_EQ(status_text("memory set-up", "out of memory"), "memory set-up\nout of memory");
  // A reason of several lines travels as one: the step is the first line.
  EXPECT_EQ(status_text("memory check", "a\nb"), "memory check\na b");
  EXPECT_EQ(status_text("pairs, round 1 of 3", ""), "pairs, round 1 of 3\nfailed");
}

TEST(FleetFailures, UnitsAreFoundByTheirLeadersStatus) {
  // --per host: 3 units led by ranks 0, 2 and 5 of 6; ranks 1, 3, 4 lead none.
  const std::vector<int> leaders{0, 2, 5};
  std::vector<std::string> texts(6);
  texts[2] = status_text("memory set-up", "out of memory");
  texts[3] = status_text("memory set-up", "not a unit's rank: ignored");
  std::vector<UnitFailure> failed;
  EXPECT_EQ(note_failures(texts, leaders, failed), std::vector<int>{1});
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0], (UnitFailure{1, "memory set-up", "out of memory"}));
}

TEST(FleetFailures, AUnitKeepsTheFirstStepItFailedIn) {
  const std::vector<int> leaders{0, 1, 2, 3};
  std::vector<UnitFailure> failed;
  std::vector<std::string> texts(4);
  texts[3] = status_text("memory check", "validation failed: a[7]");
  EXPECT_EQ(note_failures(texts, leaders, failed), std::vector<int>{3});
  // The next step: unit 3 still says it failed (in the check), unit 0 fails now.
  texts[0] = status_text("pairs, round 2 of 6", "validation failed: byte 9");
  EXPECT_EQ(note_failures(texts, leaders, failed), std::vector<int>{0});
  ASSERT_EQ(failed.size(), 2u);
  EXPECT_EQ(failed[0], (UnitFailure{3, "memory check", "validation failed: a[7]"}));
  EXPECT_EQ(failed[1], (UnitFailure{0, "pairs, round 2 of 6", "validation failed: byte 9"}));
  // All well after that: nothing new.
  EXPECT_TRUE(note_failures(std::vector<std::string>(4), leaders, failed).empty());
  EXPECT_EQ(failed_mask(4, failed), (std::vector<bool>{true, false, false, true}));
}

TEST(FleetFailures, PairsOfAUnitThatIsOutAreNotMeasured) {
  const Round round{{0, 1}, {2, 3}, {4, 5}};
  EXPECT_EQ(live_pairs(round, {false, false, false, true, false, false}), (Round{{0, 1}, {4, 5}}));
  EXPECT_EQ(live_pairs(round, std::vector<bool>(6, false)), round);
  EXPECT_TRUE(live_pairs(round, std::vector<bool>(6, true)).empty());
}

TEST(FleetFailures, AFailedUnitIsNotInTheMedianNorNamed) {
  // Unit 2 failed before its figures: its 0 would be the slowest by far.
  const std::vector<double> triad{100, 98, 0, 102, 50};
  const std::vector<bool> counted{true, true, false, true, true};
  const auto out = find_outliers_among(triad, counted, true, {});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].index, 4u);          // an index into all the units
  EXPECT_DOUBLE_EQ(out[0].median, 99);  // of 100, 98, 102, 50: the 0 left out
  // Counted, the zero moves the median (98) and is named itself.
  const auto all = judge::find_outliers(triad, true, {});
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].index, 2u);
  EXPECT_DOUBLE_EQ(all[0].median, 98);
}

TEST(FleetFailures, FewerThanThreeUnitsLeftNameNone) {
  // Two of five still counted: no majority to compare with.
  const std::vector<double> ns{80, 0, 0, 0, 400};
  EXPECT_TRUE(find_outliers_among(ns, {true, false, false, false, true}, false, {}).empty());
  EXPECT_TRUE(find_outliers_among(ns, std::vector<bool>(5, false), false, {}).empty());
}

}  // namespace
}  // namespace movebench::fleet
