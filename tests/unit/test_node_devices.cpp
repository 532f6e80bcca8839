// movebench node's devices part: the judging (which NUMA node serves a
// device best, its own node against it, all at once against each alone) and
// the thread binding its host buffers are allocated under (node/numa_placement).
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "node/devices_logic.hpp"
#include "node/numa_placement.hpp"

using namespace movebench::node;

TEST(NodeDevices, BestNodeIsTheHighest) {
  const std::vector<NodeFigure> f = {{0, 10e9}, {1, 12e9}, {2, 11e9}};
  EXPECT_EQ(best_numa_node(f), 1);
  EXPECT_EQ(best_numa_node(std::vector<NodeFigure>{}), -1);
}

TEST(NodeDevices, AffinityUnknownWhenTheDeviceTellsNoNode) {
  const std::vector<NodeFigure> f = {{0, 10e9}, {1, 20e9}};
  const auto c = check_affinity(-1, "sysfs numa_node of 0000:17:00.0 is -1", f);
  EXPECT_EQ(c.verdict, "unknown");  // never a mismatch
  EXPECT_NE(c.text.find("is -1"), std::string::npos);
}

TEST(NodeDevices, AffinityUnknownWhenItsNodeWasNotMeasured) {
  const std::vector<NodeFigure> f = {{0, 10e9}};
  EXPECT_EQ(check_affinity(1, "", f).verdict, "unknown");
}

TEST(NodeDevices, AffinityMismatchWhenAnotherNodeIsFasterBeyondTheMargin) {
  const std::vector<NodeFigure> f = {{0, 10e9}, {1, 20e9}};
  const auto c = check_affinity(0, "", f);
  EXPECT_EQ(c.verdict, "mismatch");
  EXPECT_NE(c.text.find("NUMA node 1 serves it best"), std::string::npos);
  EXPECT_EQ(check_affinity(1, "", f).verdict, "match");
}

TEST(NodeDevices, AffinityMatchWithinTheMargin) {
  // 3% apart: inside kSameAsBest, which node is best is the noise's choice.
  const std::vector<NodeFigure> f = {{0, 10e9}, {1, 10.3e9}};
  EXPECT_EQ(check_affinity(0, "", f).verdict, "match");
}

TEST(NodeDevices, ContentionBeyondTheFloorAndTheNoise) {
  const std::vector<Single> quiet = {{10e9, 0.1e9}, {10e9, 0.1e9}};
  EXPECT_TRUE(check_aggregate(12e9, quiet).contention);   // 40% below the sum
  EXPECT_FALSE(check_aggregate(19e9, quiet).contention);  // 5%: within the 10% floor
  const auto c = check_aggregate(12e9, quiet);
  EXPECT_NEAR(c.drop, 0.4, 1e-12);
  EXPECT_NEAR(c.tolerance, kContentionFloor, 1e-12);
  // Noisy singles widen the tolerance: 3 x (2 + 2) / 20 = 60%.
  const std::vector<Single> noisy = {{10e9, 2e9}, {10e9, 2e9}};
  EXPECT_FALSE(check_aggregate(12e9, noisy).contention);
  EXPECT_NEAR(check_aggregate(12e9, noisy).tolerance, 0.6, 1e-12);
}

TEST(NodeDevices, OneDeviceHasNoContention) {
  const std::vector<Single> one = {{10e9, 0}};
  EXPECT_FALSE(check_aggregate(1e9, one).contention);
}

// The mechanism on whatever node this process's memory is: pages written
// while the thread is bound to that node are all found there, and the
// thread's policy is given back after.
TEST(NodeDevices, PagesWrittenUnderAThreadBindingLieOnItsNode) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), bytes = 32 * page;
  std::vector<char> probe(page, 1);
  const PlacementCheck where = check_placement(probe.data(), 1, 0, 1);
  ASSERT_EQ(where.error, "");
  const int node = where.off_node == 0 ? 0 : where.found_node;
  ASSERT_GE(node, 0);
  int before = -1, after = -1;
  ASSERT_EQ(syscall(SYS_get_mempolicy, &before, nullptr, 0, nullptr, 0), 0);
  void* p = nullptr;
  {
    ScopedNodeBinding bind(node);
    ASSERT_EQ(bind.error(), "");
    p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(p, MAP_FAILED);
    std::memset(p, 7, bytes);
  }
  const PlacementCheck s = check_placement(p, bytes, node, 8);
  EXPECT_EQ(s.sampled, 8u);
  EXPECT_TRUE(s.ok()) << placement_problem(s, node);
  munmap(p, bytes);
  ASSERT_EQ(syscall(SYS_get_mempolicy, &after, nullptr, 0, nullptr, 0), 0);
  EXPECT_EQ(after, before);
}

TEST(NodeDevices, BindingToANodeOutOfRangeSaysSo) {
  ScopedNodeBinding bind(-1);
  EXPECT_EQ(bind.error(), "no such NUMA node -1");
}
