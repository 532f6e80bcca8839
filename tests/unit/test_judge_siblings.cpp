// The sibling rule (judge/siblings.hpp): median, MAD and which units are
// outliers against the others, as fleet judges its units and pairs.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "judge/siblings.hpp"

namespace movebench::judge {
namespace {

TEST(Siblings, MedianAndMadScaledToSigma) {
  const std::vector<double> v{1, 2, 3, 4, 100};
  const Spread s = robust_spread(v);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.mad, kMadToSigma * 1);  // deviations 2 1 0 1 97: median 1
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 100);
  EXPECT_DOUBLE_EQ(robust_spread(std::vector<double>{4, 1, 3, 2}).median, 2.5);
  EXPECT_THROW(robust_spread(std::vector<double>{}), std::invalid_argument);
}

TEST(Siblings, LowBandwidthIsAnOutlierHighIsNot) {
  const std::vector<double> bw{100, 101, 99, 100, 50, 150};
  const auto out = find_outliers(bw, true, {});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].index, 4u);
  EXPECT_DOUBLE_EQ(out[0].value, 50);
  EXPECT_DOUBLE_EQ(out[0].median, 100);
  EXPECT_DOUBLE_EQ(out[0].worse_by, 0.5);
}

TEST(Siblings, HighLatencyIsAnOutlierLowIsNot) {
  const std::vector<double> ns{80, 82, 81, 200, 10};
  const auto out = find_outliers(ns, false, {});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].index, 3u);
}

TEST(Siblings, TheFloorKeepsAQuietFleetFromFlaggingTinyGaps) {
  // MAD 0: k x MAD alone would flag 99 against 100.
  const std::vector<double> bw{100, 100, 100, 100, 95};
  EXPECT_TRUE(find_outliers(bw, true, {}).empty());  // 5% < the 10% floor
  EXPECT_EQ(find_outliers(bw, true, {5, 0.01}).size(), 1u);
}

TEST(Siblings, KTimesMadKeepsANoisyFleetFromFlaggingItsNoise) {
  const std::vector<double> bw{100, 70, 130, 80, 120, 60};  // noisy: MAD about 30
  EXPECT_TRUE(find_outliers(bw, true, {}).empty());
  EXPECT_FALSE(find_outliers(bw, true, {0.5, 0.1}).empty());
}

TEST(Siblings, FewerThanThreeUnitsHaveNoMajority) {
  EXPECT_TRUE(find_outliers(std::vector<double>{100, 1}, true, {}).empty());
}

}  // namespace
}  // namespace movebench::judge
