#include <gtest/gtest.h>
#include <sched.h>

#include "core/affinity.hpp"
#include "core/errors.hpp"

using namespace movebench;

TEST(CpuList, ParseAndFormat) {
  EXPECT_EQ(parse_cpu_list("0-3,8"), (std::vector<int>{0, 1, 2, 3, 8}));
  EXPECT_EQ(format_cpu_list({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10-11");
  EXPECT_THROW(parse_cpu_list("3-1"), UsageError);
  EXPECT_THROW(parse_cpu_list("a"), UsageError);
  EXPECT_THROW(parse_cpu_list(""), UsageError);
  EXPECT_THROW(parse_cpu_list("0,,1"), UsageError);  // the one list parser's empty item
  EXPECT_THROW(parse_cpu_list("0,"), UsageError);
}

// Four cores with two hardware threads each: 0/4, 1/5, 2/6, 3/7.
const std::vector<std::vector<int>> kCores = {{0, 4}, {1, 5}, {2, 6}, {3, 7}};

TEST(Placement, CloseFillsCoresBeforeHardwareThreads) {
  Placement p = Placement::parse("close");
  EXPECT_EQ(place_threads(2, p, kCores), (std::vector<int>{0, 1}));
  EXPECT_EQ(place_threads(6, p, kCores), (std::vector<int>{0, 1, 2, 3, 4, 5}));
}

TEST(Placement, SpreadSpacesCores) {
  Placement p = Placement::parse("spread");
  EXPECT_EQ(place_threads(2, p, kCores), (std::vector<int>{0, 2}));
  EXPECT_EQ(place_threads(4, p, kCores), (std::vector<int>{0, 1, 2, 3}));
}

TEST(Placement, NoneLeavesThreadsAlone) { EXPECT_TRUE(place_threads(3, Placement::parse("none"), kCores).empty()); }

TEST(Placement, ExplicitListMustBeAllowed) {
  const auto allowed = allowed_cpus();
  Placement p = Placement::parse(std::to_string(allowed.front()));
  EXPECT_EQ(place_threads(2, p, kCores), (std::vector<int>{allowed.front(), allowed.front()}));
  EXPECT_THROW(Placement::parse("1000"), UsageError);
}

TEST(Placement, PinningMovesTheThread) {
  const auto allowed = allowed_cpus();
  ASSERT_TRUE(pin_current_thread(allowed.back()));
  EXPECT_EQ(current_cpu(), allowed.back());
  EXPECT_EQ(current_affinity_list(), std::to_string(allowed.back()));
  // Give the thread its mask back for the other tests.
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : allowed) CPU_SET(c, &set);
  ASSERT_EQ(sched_setaffinity(0, sizeof(set), &set), 0);
}
