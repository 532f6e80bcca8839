#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "core/buffer.hpp"
#include "core/errors.hpp"
#include "core/host_info.hpp"
#include "mem/latency.hpp"
#include "mem/loaded_latency.hpp"
#include "mem/mem_cli.hpp"

using namespace movebench::mem;

TEST(ChaseRing, IsOneCycleThroughEveryNode) {
  for (std::size_t bytes : {128u, 4096u, 1u << 20}) {
    ChaseRing ring(bytes, 64, 7, false);
    EXPECT_EQ(ring.nodes(), bytes / 64);
    EXPECT_TRUE(ring.is_single_cycle()) << bytes;
  }
}

TEST(ChaseRing, AFullLapComesBackToTheStart) {
  ChaseRing ring(64 * 32, 64, 3, false);  // 32 nodes: 32 loads is one lap
  void* start = ring.head();
  void* half = ChaseRing::chase(start, 16);
  EXPECT_NE(half, start);
  EXPECT_EQ(ChaseRing::chase(half, 16), start) << "two half laps make a lap";
  EXPECT_EQ(ChaseRing::chase(start, 32 * 3), start);
}

TEST(ChaseRing, TimedInSeveralCallsTheChaseGoesOnFromWhereItStopped) {
  const ChaseRing ring(64 * 1009, 64, 5, false);
  void* at = nullptr;  // from the head
  int disturbed = 0;
  ASSERT_EQ(time_chase(ring, 1, 1e-4, disturbed, nullptr, &at).size(), 1u);
  ASSERT_NE(at, nullptr);  // where it stopped: a node of the ring, where the next call starts
  const auto offset = static_cast<const char*>(at) - static_cast<const char*>(ring.head());
  EXPECT_GE(offset, 0);
  EXPECT_LT(offset, 64 * 1009);
  EXPECT_EQ(offset % 64, 0);
}

namespace {
// Windows of `per_window` nodes, in the walk: the walk is a permutation and
// each window, once entered, is walked whole before the next.
void expect_windowed_walk(const std::vector<std::size_t>& walk, std::size_t nodes, std::size_t per_window) {
  ASSERT_EQ(walk.size(), nodes);
  std::vector<bool> seen(nodes, false);
  std::vector<bool> window_done((nodes + per_window - 1) / per_window, false);
  for (std::size_t i = 0; i < walk.size(); ++i) {
    ASSERT_LT(walk[i], nodes);
    ASSERT_FALSE(seen[walk[i]]) << "node " << walk[i] << " met twice";
    seen[walk[i]] = true;
    const std::size_t w = walk[i] / per_window;
    if (i > 0 && walk[i - 1] / per_window != w) {
      ASSERT_FALSE(window_done[w]) << "window " << w << " entered twice";
      window_done[walk[i - 1] / per_window] = true;
    }
  }
  // A window is left only once all its nodes were met: count the changes.
  std::size_t changes = 0;
  for (std::size_t i = 1; i < walk.size(); ++i) changes += walk[i] / per_window != walk[i - 1] / per_window;
  EXPECT_EQ(changes, window_done.size() - 1);
}
}  // namespace

TEST(ChaseRing, VisitOrderWalksEachWindowWholeBeforeTheNext) {
  for (std::size_t per_window : {1u, 4u, 64u, 100u}) {  // 100: the last window is short
    const auto order = ChaseRing::visit_order(1000, per_window, 11);
    EXPECT_EQ(order.front(), 0u);
    expect_windowed_walk(order, 1000, per_window);
  }
  // Random within windows and across them: not the identity, not sorted windows.
  const auto order = ChaseRing::visit_order(4096, 64, 5);
  EXPECT_FALSE(std::is_sorted(order.begin(), order.end()));
  std::vector<std::size_t> windows;
  for (std::size_t i = 0; i < order.size(); i += 64) windows.push_back(order[i] / 64);
  EXPECT_FALSE(std::is_sorted(windows.begin(), windows.end()));
}

TEST(ChaseRing, TlbWindowRingIsOneCycleVisitingWindowsWhole) {
  // 1 MiB in 64 B nodes with 16 KiB windows: 64 windows of 256 nodes.
  ChaseRing ring(1 << 20, 64, 9, false, 16 << 10);
  EXPECT_TRUE(ring.is_single_cycle());
  expect_windowed_walk(ring.walk(), ring.nodes(), 256);
  // A window as large as the ring is no window: still one random cycle.
  ChaseRing whole(1 << 16, 64, 9, false, 1 << 16);
  EXPECT_TRUE(whole.is_single_cycle());
  EXPECT_EQ(whole.walk().size(), whole.nodes());
}

TEST(ChaseRing, WithoutAWindowTheWalkLeavesPagesAtOnce) {
  // The default (no window) must stay a full-random chase: over 1 MiB, the
  // walk changes 4 KiB page on nearly every load.
  ChaseRing ring(1 << 20, 64, 4, false);
  const auto walk = ring.walk();
  std::size_t changes = 0;
  for (std::size_t i = 1; i < walk.size(); ++i) changes += walk[i] / 64 != walk[i - 1] / 64;
  EXPECT_GT(changes, walk.size() * 9 / 10);
}

TEST(LoadedLatency, DefaultScheduleGoesFromIdleToFullLoad) {
  const auto delays = default_load_delays();
  ASSERT_GE(delays.size(), 3u);
  EXPECT_EQ(delays.front(), kIdleLoad);
  EXPECT_EQ(delays.back(), 0);
  EXPECT_TRUE(std::is_sorted(delays.begin() + 1, delays.end(), std::greater<>()))
      << "loaded points from the lightest load to the heaviest";
}

TEST(LoadedLatency, OneChaserAndEveryOtherCpuLoads) {
  auto plan = plan_loaded_latency(2, {4, 5});
  EXPECT_EQ(plan.chaser_cpu, 4);
  EXPECT_EQ(plan.loader_cpus, std::vector<int>({5}));
  plan = plan_loaded_latency(8, {0, 1, 2, 3, 4, 5, 6, 7});
  EXPECT_EQ(plan.chaser_cpu, 0);
  EXPECT_EQ(plan.loader_cpus, std::vector<int>({1, 2, 3, 4, 5, 6, 7}));
  plan = plan_loaded_latency(3, {});  // placement none: nobody pinned
  EXPECT_EQ(plan.chaser_cpu, -1);
  EXPECT_EQ(plan.loader_cpus, std::vector<int>({-1, -1}));
  EXPECT_THROW(plan_loaded_latency(1, {0}), movebench::UsageError);
}

TEST(LoadedLatency, ChunksCoverTheArraysInTurnAndWrap) {
  std::vector<int> touched(10, 0);
  std::size_t from = 0;
  for (int call = 0; call < 8; ++call) {  // 4 calls per pass: 3+3+3+1
    const auto r = next_chunk(from, 10, 3);
    ASSERT_LT(r.lo, r.hi);
    ASSERT_LE(r.hi, 10u);
    for (std::size_t i = r.lo; i < r.hi; ++i) ++touched[i];
    from = r.hi;
  }
  for (int t : touched) EXPECT_EQ(t, 2) << "two passes touch every element twice";
}

TEST(LoadedLatency, KneeIsTheLastPointBeforeLatencyRises) {
  // Listed out of bandwidth order on purpose: the knee follows the load.
  std::vector<LoadedPoint> points = {
      {0, 10e9, 200e-9}, {kIdleLoad, 0, 100e-9}, {1000, 5e9, 110e-9}, {100, 8e9, 115e-9}, {10, 9e9, 150e-9}};
  auto knee = knee_index(points, 1.2);
  ASSERT_TRUE(knee.has_value());
  EXPECT_EQ(points[*knee].delay, 100);
  // Flat: no knee reached.
  points = {{kIdleLoad, 0, 100e-9}, {0, 10e9, 110e-9}};
  EXPECT_FALSE(knee_index(points, 1.2).has_value());
  EXPECT_FALSE(knee_index({}, 1.2).has_value());
}

// mem's defaults from the facts (STREAM's rule): on this machine, whatever
// its last-level cache, no default lands inside a cache.
TEST(MemDefaults, TheChaseSweepReachesFourTimesTheLastLevelCache) {
  const auto sizes = default_latency_sizes();
  ASSERT_FALSE(sizes.empty());
  EXPECT_GE(sizes.back(), std::uint64_t{64} << 20);
  EXPECT_GE(sizes.back(), kStreamRuleCaches * movebench::last_level_cache_bytes());
}

TEST(MemDefaults, EachArrayIsFourTimesEveryLastLevelCacheUnlessMemoryIsShort) {
  for (const ElementType type : {ElementType::kDouble, ElementType::kFloat}) {
    MemOptions o;  // the host, bandwidth mode
    o.element_type = type;
    const std::uint64_t bytes = static_cast<std::uint64_t>(o.element_bytes());
    const std::uint64_t n = default_elements(o, 1);
    const bool rule_met =
        n >= kDefaultElements && n * bytes >= kStreamRuleCaches * movebench::last_level_caches_total_bytes();
    // Halved only while the four arrays would not fit in half the free memory.
    const bool memory_short = 4 * (2 * n) * bytes > movebench::available_memory_bytes() / 2;
    EXPECT_TRUE(rule_met || memory_short) << n << " elements of " << bytes << " B";
  }
}
