#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "core/stats.hpp"

using namespace movebench;

TEST(Summarize, OddCount) {
  std::vector<double> v{3, 1, 2};
  auto s = summarize(v);
  EXPECT_EQ(s.count, 3u);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 3);
  EXPECT_DOUBLE_EQ(s.median, 2);
  EXPECT_DOUBLE_EQ(s.mean, 2);
  EXPECT_DOUBLE_EQ(s.stddev, 1);  // sample standard deviation
}

TEST(Summarize, EvenCountMedianIsMidpoint) {
  std::vector<double> v{4, 1, 3, 2};
  auto s = summarize(v);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_NEAR(s.stddev, 1.2909944487, 1e-9);
}

TEST(Summarize, OneSampleHasNoSpread) {
  std::vector<double> v{7};
  auto s = summarize(v);
  EXPECT_DOUBLE_EQ(s.stddev, 0);
  EXPECT_DOUBLE_EQ(s.median, 7);
}

TEST(Summarize, EmptyIsAnError) { EXPECT_THROW(summarize(std::vector<double>{}), std::invalid_argument); }

TEST(Summarize, Json) {
  std::vector<double> v{1, 2};
  nlohmann::json j = summarize(v);
  EXPECT_DOUBLE_EQ(j["mean"].get<double>(), 1.5);
  EXPECT_EQ(j["count"].get<int>(), 2);
}
