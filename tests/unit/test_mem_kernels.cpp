#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/errors.hpp"
#include "mem/kernels.hpp"
#include "mem/team.hpp"

using namespace movebench;
using namespace movebench::mem;

TEST(Traffic, AsTheSeedCountsIt) {
  // TheBandwidthBenchmark: words moved per element, and flops.
  const struct {
    Kernel k;
    int words, words_wa, flops;
  } expected[] = {{Kernel::kInit, 1, 2, 0},   {Kernel::kSum, 1, 1, 1},    {Kernel::kCopy, 2, 3, 0},
                  {Kernel::kUpdate, 2, 2, 1}, {Kernel::kTriad, 3, 4, 2},  {Kernel::kDaxpy, 3, 3, 2},
                  {Kernel::kStriad, 4, 5, 2}, {Kernel::kSdaxpy, 4, 4, 2}};
  for (const auto& e : expected) {
    EXPECT_EQ(info(e.k).words(), e.words) << info(e.k).name;
    EXPECT_EQ(info(e.k).words_with_write_allocate(), e.words_wa) << info(e.k).name;
    EXPECT_EQ(info(e.k).flops, e.flops) << info(e.k).name;
  }
  EXPECT_EQ(kernel_by_name("striad"), Kernel::kStriad);
  EXPECT_THROW(kernel_by_name("stream"), UsageError);
}

template <class T>
class KernelTest : public ::testing::Test {};
using Types = ::testing::Types<double, float>;
TYPED_TEST_SUITE(KernelTest, Types);

TYPED_TEST(KernelTest, StreamingAndPlainStoresAgreeWithReplay) {
  using T = TypeParam;
  set_flush_denormals();
  for (bool nt : {false, true}) {
    // Odd length and an offset start: exercises peel and tail loops.
    const std::size_t n = 1003;
    std::vector<T> a(n, T(kInitA)), b(n, T(kInitB)), c(n, T(kInitC)), d(n, T(kInitD));
    Arrays<T> x{a.data(), b.data(), c.data(), d.data()};
    Element<T> e;
    for (const auto& k : kernel_table()) {
      const T s = run_kernel(k.id, x, 1, n, nt);
      if (k.id == Kernel::kSum) {
        EXPECT_NEAR(s, e.a * T(n - 1), e.a * T(n) * T(1e-5));
      }
      replay(k.id, e);
    }
    for (std::size_t i = 1; i < n; ++i) {
      ASSERT_EQ(a[i], e.a) << "nt=" << nt << " i=" << i;
      ASSERT_EQ(b[i], e.b);
      ASSERT_EQ(c[i], e.c);
    }
    EXPECT_EQ(a[0], T(kInitA)) << "element outside [lo, hi) was written";
  }
}

TYPED_TEST(KernelTest, PageWalkOfStreamingStoresCoversEveryElementOnce) {
  // Long enough for several groups of four 4 KiB pages, with an unaligned
  // start and a ragged end, so the peel, page-walk and tail loops all run.
  using T = TypeParam;
  set_flush_denormals();
  const std::size_t n = 4 * 4096 * 5 / sizeof(T) + 37;
  for (std::size_t lo : {std::size_t{0}, std::size_t{3}}) {
    std::vector<T> a(n, T(kInitA)), b(n, T(kInitB)), c(n, T(kInitC)), d(n, T(kInitD));
    Arrays<T> x{a.data(), b.data(), c.data(), d.data()};
    Element<T> e;
    for (Kernel k : {Kernel::kInit, Kernel::kCopy, Kernel::kTriad, Kernel::kStriad, Kernel::kSdaxpy}) {
      run_kernel(k, x, lo, n, true);
      replay(k, e);
    }
    for (std::size_t i = lo; i < n; ++i) {
      ASSERT_EQ(a[i], e.a) << "lo=" << lo << " i=" << i;
      ASSERT_EQ(b[i], e.b) << "lo=" << lo << " i=" << i;
      ASSERT_EQ(c[i], e.c) << "lo=" << lo << " i=" << i;
    }
    for (std::size_t i = 0; i < lo; ++i) ASSERT_EQ(a[i], T(kInitA)) << "written before lo";
    // The sum walks pages the same way: every element counted once.
    a[n - 1] = e.a + 1;  // one element off the constant, so a missed or doubled one shows
    const T expected = e.a * T(n - lo) + 1;
    EXPECT_NEAR(run_kernel(Kernel::kSum, x, lo, n, false), expected, std::abs(expected) * T(1e-5));
  }
}

TYPED_TEST(KernelTest, TeamRunValidatesAndCatchesACorruptedElement) {
  using T = TypeParam;
  for (bool shared : {true, false}) {
    Team team{2, {}, true};
    auto ws = make_workspace<T>(4099, shared, team, 64, false);
    initialise(ws, team);
    std::vector<Kernel> all;
    for (const auto& k : kernel_table()) all.push_back(k.id);
    T sum{};
    const auto times = time_sequence(ws, team, all, 3, 2, sum);
    ASSERT_EQ(times.size(), all.size());
    ASSERT_EQ(times[0].size(), 3u);
    for (const auto& per_kernel : times) {
      for (double t : per_kernel) EXPECT_GT(t, 0);
    }
    // Every kernel ran twice in a row per round: the replay does the same.
    std::vector<Kernel> doubled;
    for (Kernel k : all) {
      doubled.push_back(k);
      doubled.push_back(k);
    }
    auto ok = validate(ws, doubled, 3, sum);
    EXPECT_TRUE(ok.passed) << ok.message;

    auto& victim = ws.views.back().c[ws.elements_per_view - 1];
    victim = victim + 1;
    auto bad = validate(ws, doubled, 3, sum);
    EXPECT_FALSE(bad.passed);
    EXPECT_NE(bad.message.find("array c["), std::string::npos) << bad.message;

    victim = victim - 1;
    EXPECT_TRUE(validate(ws, doubled, 3, sum).passed);
    EXPECT_FALSE(validate(ws, doubled, 3, sum * 2).passed) << "a wrong sum must be caught";
  }
}

TEST(Workspace, SlicesAreCacheLineAlignedAndCoverTheArray) {
  Team team{3, {}, false};
  auto ws = make_workspace<double>(1000, true, team, 64, false);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(ws.views[0].a) % 64, 0u);
  EXPECT_NE(reinterpret_cast<std::uintptr_t>(ws.views[0].a) % 128, 0u) << "alignment is exactly 64";
  EXPECT_EQ(ws.lo[0], 0u);
  EXPECT_EQ(ws.hi.back(), 1000u);
  for (int t = 1; t < 3; ++t) {
    EXPECT_EQ(ws.lo[t], ws.hi[t - 1]);
    EXPECT_EQ(ws.lo[t] % 8, 0u);
  }
}
