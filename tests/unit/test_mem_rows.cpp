// The kernel rows (src/mem/kernel_rows.hpp) drive everything: the table the
// result file shows, the host loops, the replay, the OpenCL source, and the
// names the command line takes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/errors.hpp"
#include "mem/kernels.hpp"
#include "mem/mem_options.hpp"

using namespace movebench;
using namespace movebench::mem;

TEST(KernelRows, TheTableIsWhatTheResultFileAlwaysShowed) {
  // settings.mem.traffic of every result file: the same text as before the
  // rows, now traced from each row's formula.
  const struct {
    Kernel k;
    const char* name;
    const char* formula;
    const char* expression;
    int loads, stores;
    bool write_allocate;
    int flops, arrays;
  } expected[] = {
      {Kernel::kInit, "init", "b = s", "s", 0, 1, true, 0, 1},
      {Kernel::kSum, "sum", "s += a", "a[i]", 1, 0, false, 1, 1},
      {Kernel::kCopy, "copy", "c = a", "a[i]", 1, 1, true, 0, 2},
      {Kernel::kUpdate, "update", "a = a * s", "a[i] * s", 1, 1, false, 1, 1},
      {Kernel::kTriad, "triad", "a = b + c * s", "b[i] + c[i] * s", 2, 1, true, 2, 3},
      {Kernel::kDaxpy, "daxpy", "a = a + b * s", "a[i] + b[i] * s", 2, 1, false, 2, 2},
      {Kernel::kStriad, "striad", "a = b + c * d", "b[i] + c[i] * d[i]", 3, 1, true, 2, 4},
      {Kernel::kSdaxpy, "sdaxpy", "a = a + b * c", "a[i] + b[i] * c[i]", 3, 1, false, 2, 3},
  };
  ASSERT_EQ(kernel_table().size(), std::size(expected));
  for (const auto& e : expected) {
    const KernelInfo& k = info(e.k);
    EXPECT_EQ(k.id, e.k);
    EXPECT_EQ(k.name, e.name);
    EXPECT_EQ(k.formula, e.formula) << e.name;
    EXPECT_EQ(k.expression, e.expression) << e.name;
    EXPECT_EQ(k.loads, e.loads) << e.name;
    EXPECT_EQ(k.stores, e.stores) << e.name;
    EXPECT_EQ(k.write_allocate, e.write_allocate) << e.name;
    EXPECT_EQ(k.flops, e.flops) << e.name;
    EXPECT_EQ(k.arrays, e.arrays) << e.name;
  }
}

TEST(KernelRows, AScalarScheduleGoesWithAFormulaThatUsesTheScalar) {
  for (const auto& k : kernel_table()) {
    const bool uses_s =
        k.expression == "s" || k.expression.ends_with(" s") || k.expression.find(" s ") != std::string::npos;
    EXPECT_EQ(k.has_scalar(), uses_s) << k.name << ": " << k.expression;
  }
}

template <class T>
class RowReplayTest : public ::testing::Test {};
using RowTypes = ::testing::Types<double, float>;
TYPED_TEST_SUITE(RowReplayTest, RowTypes);

TYPED_TEST(RowReplayTest, EveryRowInEveryShapeEqualsItsReplayedFormula) {
  // Each kernel alone, three calls, in every shape (plain and streaming
  // stores, linear and page walks, both widths), from an unaligned start to
  // a ragged end: every element equals its initial values put through the
  // row's formula by replay(), bit for bit, and the sum returns their total.
  using T = TypeParam;
  set_flush_denormals();
  const std::size_t n = 4 * 4096 * 5 / sizeof(T) + 29;
  for (const auto& row : kernel_table()) {
    for (Shape shape : available_shapes()) {
      std::vector<T> a(n), b(n), c(n), d(n);
      for (std::size_t i = 0; i < n; ++i) {
        const Element<T> e = initial_element<T>(i);
        a[i] = e.a, b[i] = e.b, c[i] = e.c, d[i] = e.d;
      }
      const Arrays<T> x{a.data(), b.data(), c.data(), d.data()};
      const std::size_t lo = 5;
      double total = 0;
      for (std::uint64_t call = 0; call < 3; ++call)
        total += static_cast<double>(run_kernel(row.id, x, lo, n, shape, call));
      double expected_total = 0;
      for (std::size_t i = lo; i < n; ++i) {
        Element<T> e = initial_element<T>(i);
        for (std::uint64_t call = 0; call < 3; ++call) {
          if (row.writes == Slot::kNone) expected_total += static_cast<double>(e.a);
          replay(row.id, e, call);
        }
        ASSERT_EQ(a[i], e.a) << row.name << " " << shape_name(shape) << " i=" << i;
        ASSERT_EQ(b[i], e.b) << row.name << " " << shape_name(shape) << " i=" << i;
        ASSERT_EQ(c[i], e.c) << row.name << " " << shape_name(shape) << " i=" << i;
        ASSERT_EQ(d[i], e.d) << row.name << " " << shape_name(shape) << " i=" << i;
      }
      EXPECT_NEAR(total, expected_total, expected_total * (sizeof(T) == 4 ? 1e-5 : 1e-12)) << row.name;
    }
  }
}

TEST(KernelRows, TheOpenClPassesSourceIsGeneratedFromEachRow) {
  // mem seq --backend opencl's many calls in one launch: a grid-stride loop
  // inside the passes, each pass's scalar from the period's table.
  EXPECT_EQ(elementwise_passes_source(info(Kernel::kTriad)),
            "kernel void triad_passes(global TYPE* a, global const TYPE* b, global const TYPE* c, ulong n, "
            "global const TYPE* scalars, uint first, uint passes) {\n"
            "  for (uint p = 0; p < passes; ++p) {\n"
            "    const TYPE s = scalars[(first + p) % 18u];\n"
            "    for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) a[i] = b[i] + c[i] * s;\n"
            "  }\n}\n");
}

TEST(KernelRows, TheOpenClSourceIsGeneratedFromEachRow) {
  // The element-wise kernels of `mem --backend opencl`, as they were written
  // by hand before the rows (the argument order the host sets them in).
  EXPECT_EQ(elementwise_kernel_source(info(Kernel::kTriad)),
            "kernel void triad(global TYPE* a, global const TYPE* b, global const TYPE* c, ulong n, TYPE s) {\n"
            "  const size_t i = get_global_id(0);\n"
            "  if (i < n) a[i] = b[i] + c[i] * s;\n"
            "}\n");
  EXPECT_EQ(elementwise_kernel_source(info(Kernel::kCopy)),
            "kernel void copy(global const TYPE* a, global TYPE* c, ulong n) {\n"
            "  const size_t i = get_global_id(0);\n"
            "  if (i < n) c[i] = a[i];\n"
            "}\n");
  EXPECT_EQ(elementwise_kernel_source(info(Kernel::kInit)),
            "kernel void init(global TYPE* b, ulong n, TYPE s) {\n"
            "  const size_t i = get_global_id(0);\n"
            "  if (i < n) b[i] = s;\n"
            "}\n");
  for (const auto& k : kernel_table()) {
    if (k.writes == Slot::kNone) continue;  // sum: the reduction, written for OpenCL by hand
    const std::string source = elementwise_kernel_source(k);
    EXPECT_NE(source.find("kernel void " + std::string(k.name) + "("), std::string::npos) << source;
    EXPECT_NE(source.find("= " + k.expression + ";"), std::string::npos) << source;
    EXPECT_EQ(source.find(" s)") != std::string::npos, k.has_scalar()) << source;
  }
}

TEST(KernelRows, AnUnknownNameIsRefusedWithEveryRowNamed) {
  for (const auto& k : kernel_table()) EXPECT_EQ(kernel_by_name(k.name), k.id);
  try {
    kernel_by_name("stream");
    FAIL() << "stream is no kernel";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "unknown kernel 'stream': expected init, sum, copy, update, triad, daxpy, striad or sdaxpy");
  }
}

TEST(MemOptionNames, EveryValueHasOneNameBothWays) {
  for (const auto& n : kModeNames) EXPECT_EQ(value_in(kModeNames, n.name), n.value);
  for (const auto& n : kModeNames) EXPECT_EQ(name_in(kModeNames, n.value), n.name);
  for (const auto& n : kNtStoresNames) EXPECT_EQ(value_in(kNtStoresNames, n.name), n.value);
  for (const auto& n : kElementTypeNames) EXPECT_EQ(value_in(kElementTypeNames, n.name), n.value);
  for (const auto& n : kRateUnitNames) EXPECT_EQ(value_in(kRateUnitNames, n.name), n.value);
  MemOptions o;
  EXPECT_EQ(o.mode_name(), "bandwidth");
  EXPECT_EQ(o.type_name(), "double");
  EXPECT_EQ(o.nt_stores_name(), "auto");
  EXPECT_EQ(o.shape_text(), "auto");
  EXPECT_EQ(o.unit_name(), "MB/s");
  o.shape = Shape::kPageNt;
  o.unit = RateUnit::kGigabytes;
  EXPECT_EQ(o.shape_text(), "page-nt");
  EXPECT_EQ(o.unit_scale(), 1e-9);
  EXPECT_EQ(o.flop_unit(), "GFlop/s");
}
