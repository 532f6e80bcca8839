#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/errors.hpp"
#include "mem/kernels.hpp"
#include "mem/team.hpp"

using namespace movebench;
using namespace movebench::mem;

TEST(Traffic, AsTheBandwidthBenchmarkCountsIt) {
  // TheBandwidthBenchmark: words moved per element, and flops.
  const struct {
    Kernel k;
    int words, words_wa, flops;
  } expected[] = {{Kernel::kInit, 1, 2, 0},   {Kernel::kSum, 1, 1, 1},   {Kernel::kCopy, 2, 3, 0},
                  {Kernel::kUpdate, 2, 2, 1}, {Kernel::kTriad, 3, 4, 2}, {Kernel::kDaxpy, 3, 3, 2},
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

std::vector<Kernel> all_kernels() {
  std::vector<Kernel> all;
  for (const auto& k : kernel_table()) all.push_back(k.id);
  return all;
}

// Arrays of n elements holding their initial values.
template <class T>
struct Filled {
  std::vector<T> a, b, c, d;
  explicit Filled(std::size_t n) : a(n), b(n), c(n), d(n) {
    for (std::size_t i = 0; i < n; ++i) {
      const Element<T> e = initial_element<T>(i);
      a[i] = e.a, b[i] = e.b, c[i] = e.c, d[i] = e.d;
    }
  }
  Arrays<T> arrays() { return {a.data(), b.data(), c.data(), d.data()}; }
};

TYPED_TEST(KernelTest, EveryShapeIsBitIdenticalToTheReplay) {
  // Long enough for several groups of four 4 KiB pages, with an unaligned
  // start and a ragged end, so the peel, page-walk, vector and tail loops all
  // run; three calls of the whole sequence, each with its own scalars.
  using T = TypeParam;
  set_flush_denormals();
  const std::size_t n = 4 * 4096 * 5 / sizeof(T) + 37;
  const auto all = all_kernels();
  for (Shape shape : available_shapes()) {
    for (std::size_t lo : {std::size_t{0}, std::size_t{3}}) {
      Filled<T> x(n);
      const auto view = x.arrays();
      double sums = 0;
      for (std::uint64_t call = 0; call < 3; ++call) {
        for (Kernel k : all) sums += static_cast<double>(run_kernel(k, view, lo, n, shape, call));
      }
      std::vector<T> a(n), b(n), c(n), d(n);
      std::vector<double> sum_a(n);
      replay_block<T>(all.data(), all.size(), 3, 0, n, a.data(), b.data(), c.data(), d.data(), sum_a.data());
      double expected_sum = 0;
      for (std::size_t i = lo; i < n; ++i) {
        ASSERT_EQ(x.a[i], a[i]) << shape_name(shape) << " lo=" << lo << " i=" << i;
        ASSERT_EQ(x.b[i], b[i]) << shape_name(shape) << " lo=" << lo << " i=" << i;
        ASSERT_EQ(x.c[i], c[i]) << shape_name(shape) << " lo=" << lo << " i=" << i;
        expected_sum += sum_a[i];
      }
      for (std::size_t i = 0; i < lo; ++i) ASSERT_EQ(x.a[i], initial_element<T>(i).a) << "written before lo";
      EXPECT_NEAR(sums, expected_sum, std::abs(expected_sum) * (sizeof(T) == 4 ? 1e-5 : 1e-12)) << shape_name(shape);
    }
  }
}

TYPED_TEST(KernelTest, ValuesDependOnTheIndexAndTheCall) {
  using T = TypeParam;
  const auto a0 = initial_element<T>(0), a1 = initial_element<T>(1), a256 = initial_element<T>(256);
  EXPECT_NE(a0.a, a1.a);
  EXPECT_NE(a0.a, a256.a) << "no short period";
  EXPECT_NE(a0.d, a1.d);
  for (Kernel k : {Kernel::kInit, Kernel::kUpdate, Kernel::kTriad, Kernel::kDaxpy}) {
    EXPECT_NE(kernel_scalar<T>(k, 0), kernel_scalar<T>(k, 1)) << info(k).name;
  }
}

TYPED_TEST(KernelTest, TheScalarsRepeatEveryPeriod) {
  // A device running many calls in one launch takes their scalars from a
  // table of kScalarPeriod values (mem seq --backend's passes per launch).
  using T = TypeParam;
  for (const auto& k : kernel_table()) {
    for (std::uint64_t call : {0ull, 1ull, 17ull, 18ull, 35ull, 1000001ull, (1ull << 40) + 3}) {
      EXPECT_EQ(kernel_scalar<T>(k.id, call), kernel_scalar<T>(k.id, call % kScalarPeriod)) << k.name << " " << call;
    }
  }
}

TYPED_TEST(KernelTest, ValuesStayFiniteOverManyCalls) {
  // TheBandwidthBenchmark's constant scalars made the sequence grow by 1.1x
  // a round: inf after about 930 rounds in float, 7400 in double.
  using T = TypeParam;
  set_flush_denormals();
  const auto all = all_kernels();
  constexpr std::size_t n = 64;
  T a[n], b[n], c[n], d[n];
  double s[n];
  replay_block<T>(all.data(), all.size(), 20000, 12345, n, a, b, c, d, s);
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_TRUE(std::isfinite(a[i]) && std::isfinite(c[i]) && std::isfinite(s[i])) << i;
    EXPECT_GT(std::abs(a[i]), T(0.01)) << "values stay away from zero too";
  }
  EXPECT_NE(a[0], a[1]) << "the index still shows after 20000 rounds";
}

TYPED_TEST(KernelTest, ClosedFormReplaysEqualTheFullReplay) {
  // A lone kernel is replayed in closed form (only its last call, or update's
  // pairs cancelling); the same calls replayed one by one must agree.
  using T = TypeParam;
  set_flush_denormals();
  constexpr std::size_t n = 16;
  for (Kernel k : all_kernels()) {
    for (std::uint64_t calls : {1u, 2u, 7u, 10u}) {
      T a[n], b[n], c[n], d[n];
      double s[n];
      const Kernel seq[] = {k};
      replay_block<T>(seq, 1, calls, 40, n, a, b, c, d, s);
      for (std::size_t i = 0; i < n; ++i) {
        Element<T> e = initial_element<T>(40 + i);
        double sum_a = 0;
        for (std::uint64_t j = 0; j < calls; ++j) {
          if (k == Kernel::kSum) sum_a += static_cast<double>(e.a);
          replay(k, e, j);
        }
        ASSERT_EQ(a[i], e.a) << info(k).name << " calls=" << calls;
        ASSERT_EQ(b[i], e.b) << info(k).name << " calls=" << calls;
        ASSERT_EQ(c[i], e.c) << info(k).name << " calls=" << calls;
        ASSERT_DOUBLE_EQ(s[i], sum_a) << info(k).name;
      }
    }
  }
}

TYPED_TEST(KernelTest, TeamRunValidatesAndCatchesCorruption) {
  using T = TypeParam;
  for (bool shared : {true, false}) {
    Team team;
    team.threads = 2;
    for (auto& s : team.shape) s = Shape::kPageNt;
    // 4099: odd, so the slices' ends (the old lost last element) are checked.
    auto ws = make_workspace<T>(4099, shared, team, 64, false);
    initialise(ws, team);
    const auto all = all_kernels();
    double sum = 0;
    const auto times = time_sequence(ws, team, all, 3, 1, 0, sum);
    ASSERT_EQ(times.size(), all.size());
    ASSERT_EQ(times[0].size(), 3u);
    for (const auto& per_kernel : times) {
      for (double t : per_kernel) EXPECT_GT(t, 0);
    }
    auto ok = validate(ws, all, 3, sum);
    EXPECT_TRUE(ok.passed) << ok.message;
    EXPECT_FALSE(validate(ws, all, 4, sum).passed) << "a skipped call must be caught";
    EXPECT_FALSE(validate(ws, all, 3, sum * 2).passed) << "a wrong sum must be caught";

    auto& victim = ws.views.back().c[ws.elements_per_view - 1];
    const T kept = victim;
    victim = victim + 1;
    auto bad = validate(ws, all, 3, sum);
    EXPECT_FALSE(bad.passed);
    EXPECT_NE(bad.message.find("array c["), std::string::npos) << bad.message;
    victim = kept;
    ASSERT_TRUE(validate(ws, all, 3, sum).passed);
    victim = std::nextafter(victim, T(100));
    EXPECT_FALSE(validate(ws, all, 3, sum).passed) << "one ulp off must be caught: the check is exact";
    victim = kept;

    // A misplaced element: two neighbours swapped.
    auto* a = ws.views.front().a;
    std::swap(a[100], a[101]);
    auto misplaced = validate(ws, all, 3, sum);
    EXPECT_FALSE(misplaced.passed);
    EXPECT_NE(misplaced.message.find("array a[100]"), std::string::npos) << misplaced.message;
    std::swap(a[100], a[101]);
    if (shared) {
      // Another thread's slice: thread 1's first line copied over thread 0's.
      for (std::size_t i = 0; i < 8; ++i) a[i] = a[ws.lo[1] + i];
      EXPECT_FALSE(validate(ws, all, 3, sum).passed);
    }
  }
}

TYPED_TEST(KernelTest, CalibrationIsBoundedAndPicksACandidate) {
  using T = TypeParam;
  Team team;
  team.threads = 2;
  auto ws = make_workspace<T>(1 << 20, true, team, 64, false);
  initialise(ws, team);
  const auto all = all_kernels();
  std::array<std::vector<Shape>, kKernelCount> candidates;
  for (Kernel k : all) candidates[static_cast<std::size_t>(k)] = shape_candidates(k, NtStores::kAuto);
  const Calibration c = calibrate_shapes(ws, team, all, candidates, 0.05);
  for (Kernel k : all) {
    const auto& allowed = candidates[static_cast<std::size_t>(k)];
    EXPECT_NE(std::find(allowed.begin(), allowed.end(), c.shape[static_cast<std::size_t>(k)]), allowed.end());
  }
  EXPECT_GT(c.seconds, 0);
  // Bounded by rounds, not by a wall time a loaded machine could break:
  // every kernel with a choice got at least the minimum rounds and at most
  // the maximum.
  for (Kernel k : all) {
    const int rounds = c.rounds[static_cast<std::size_t>(k)];
    if (candidates[static_cast<std::size_t>(k)].size() > 1) {
      EXPECT_GE(rounds, kMinCalibrationRounds) << info(k).name;
      EXPECT_LE(rounds, kMaxCalibrationRounds) << info(k).name;
    } else {
      EXPECT_EQ(rounds, 0) << info(k).name;
    }
  }
  // With no budget at all, the minimum and no more.
  const Calibration quick = calibrate_shapes(ws, team, all, candidates, 0.0);
  for (Kernel k : all) {
    if (candidates[static_cast<std::size_t>(k)].size() > 1) {
      EXPECT_EQ(quick.rounds[static_cast<std::size_t>(k)], kMinCalibrationRounds) << info(k).name;
    }
  }
  // sum: plain and page, at both widths where the build has two.
  const auto sum_shapes = shape_candidates(Kernel::kSum, NtStores::kAuto);
  EXPECT_EQ(sum_shapes.size(), available_shapes().size() / 2);
  for (Shape s : sum_shapes) EXPECT_FALSE(is_nontemporal(s));
  for (Shape s : shape_candidates(Kernel::kCopy, NtStores::kOff)) EXPECT_FALSE(is_nontemporal(s));
  EXPECT_EQ(shape_candidates(Kernel::kCopy, NtStores::kAuto).size(),
            has_nontemporal_stores() ? available_shapes().size() : available_shapes().size() / 2);
  for (Shape s : available_shapes()) {
    EXPECT_EQ(shape_by_name(shape_name(s)), s);
    EXPECT_FALSE(is_nontemporal(without_streaming_stores(s)));
    EXPECT_EQ(is_page(without_streaming_stores(s)), is_page(s));
    EXPECT_EQ(vector_bits(without_streaming_stores(s)), vector_bits(s));
  }
  EXPECT_EQ(shape_by_name("page-nt"), Shape::kPageNt);
  EXPECT_THROW(shape_by_name("fast"), UsageError);
}

TEST(Workspace, SlicesAreCacheLineAlignedAndCoverTheArray) {
  for (std::size_t n : {std::size_t{1000}, std::size_t{1025}, std::size_t{17}}) {
    for (int threads : {2, 3}) {
      Team team;
      team.threads = threads;
      auto ws = make_workspace<double>(n, true, team, 64, false);
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(ws.views[0].a) % 64, 0u);
      EXPECT_NE(reinterpret_cast<std::uintptr_t>(ws.views[0].a) % 128, 0u) << "alignment is exactly 64";
      EXPECT_EQ(ws.lo[0], 0u);
      EXPECT_EQ(ws.hi.back(), n) << "n=" << n << " threads=" << threads << ": the last element is processed";
      for (int t = 1; t < threads; ++t) {
        EXPECT_EQ(ws.lo[t], ws.hi[t - 1]);
        EXPECT_EQ(ws.lo[t] % 8, 0u);
      }
    }
  }
}
