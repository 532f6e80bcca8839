#include <gtest/gtest.h>

#include "mem/latency.hpp"

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
