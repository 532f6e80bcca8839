// The compare rule (judge/compare_rule.hpp) on the fixtures movebench-report's
// Python rule is tested on too (tests/data/compare_rule.json,
// tests/python/test_compare_rule.py): the two sides cannot drift apart.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "judge/compare_rule.hpp"

namespace movebench::judge {
namespace {

nlohmann::json fixtures() {
  std::ifstream in(std::string(MOVEBENCH_TEST_DATA) + "/compare_rule.json");
  return nlohmann::json::parse(in);
}

TEST(CompareRule, NoiseOfSamplesAsPythonComputesIt) {
  const auto cases = fixtures()["noise"];
  ASSERT_GE(cases.size(), 5u);
  for (const auto& c : cases) {
    const auto got = sample_noise(c["samples"].get<std::vector<double>>(), c["best_of"].get<bool>());
    if (c["noise"].is_null()) {
      EXPECT_FALSE(got.has_value()) << c["why"];
    } else {
      ASSERT_TRUE(got.has_value()) << c["why"];
      EXPECT_NEAR(*got, c["noise"].get<double>(), 1e-12) << c["why"];
    }
  }
}

TEST(CompareRule, VerdictOfTwoFiguresAsPythonJudgesThem) {
  const auto cases = fixtures()["judge"];
  ASSERT_GE(cases.size(), 5u);
  for (const auto& c : cases) {
    const Judged j =
        compare(c["a"].get<double>(), c["noise_a"].get<double>(), c["b"].get<double>(), c["noise_b"].get<double>(),
                c["higher_is_better"].get<bool>(), c["threshold"].get<double>());
    EXPECT_EQ(change_name(j.change), c["verdict"].get<std::string>()) << c["why"];
    if (c["ratio"] == "inf") {
      EXPECT_TRUE(std::isinf(j.ratio)) << c["why"];
    } else {
      EXPECT_NEAR(j.ratio, c["ratio"].get<double>(), 1e-12) << c["why"];
    }
  }
}

}  // namespace
}  // namespace movebench::judge
