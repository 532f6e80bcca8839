// The table of mem's kernels: one row per kernel, the single source of its
// name, label, the arrays it reads and writes (and so its traffic), its
// scalar and its formula. The formula is written once, as a template that
// the host loops (on scalars and GCC vector types), the replay of the
// validation, the CUDA kernels (on explicitly rounded numbers) and the
// generated OpenCL source (on expression text) all instantiate. Plain
// C++17 with no library headers, so that nvcc compiles it too.
//
// Adding a kernel: its enumerator in Kernel, its row (below) and the row's
// name in KernelRows; everything else (tables, --kernels, JSON, validation,
// the OpenCL and CUDA kernels, docs' traffic table in the result file)
// follows. docs/architecture.md has the recipe.
#pragma once
#include <cstddef>

#if defined(__CUDACC__)
#define MOVEBENCH_FORMULA __host__ __device__ constexpr
#else
#define MOVEBENCH_FORMULA constexpr
#endif

namespace movebench::mem {

// In the order of KernelRows (static_assert'ed in kernels.cpp).
enum class Kernel { kInit, kSum, kCopy, kUpdate, kTriad, kDaxpy, kStriad, kSdaxpy };

// The four arrays every kernel is bound to (Arrays<T>: a, b, c, d), as
// TheBandwidthBenchmark binds them; kNone: a kernel that stores nothing (sum).
enum class Slot { kA, kB, kC, kD, kNone };
inline constexpr std::size_t kSlotCount = 4;

// The arrays a kernel reads, in the order its formula takes them.
template <Slot... S>
struct Reads {};

// How a kernel's scalar s changes from call to call (kernel_scalar): none
// (its formula has no s), a ramp in [0.1, 0.19), or 2 and 0.5 alternating
// (update: two calls undo each other exactly).
enum class ScalarSchedule { kNone, kRamp, kHalving };

// Each row: the kernel, its names, what it writes and reads, its scalar and
// formula(s, inputs...), the value stored into `writes` (for sum, the value
// added up: s += formula).
struct InitRow {
  static constexpr Kernel id = Kernel::kInit;
  static constexpr const char* name = "init";
  static constexpr const char* label = "Init";
  static constexpr Slot writes = Slot::kB;
  using In = Reads<>;
  static constexpr ScalarSchedule scalar = ScalarSchedule::kRamp;
  template <class S>
  MOVEBENCH_FORMULA static S formula(S s) {
    return s;
  }
};
struct SumRow {
  static constexpr Kernel id = Kernel::kSum;
  static constexpr const char* name = "sum";
  static constexpr const char* label = "Sum";
  static constexpr Slot writes = Slot::kNone;
  using In = Reads<Slot::kA>;
  static constexpr ScalarSchedule scalar = ScalarSchedule::kNone;
  template <class S, class V>
  MOVEBENCH_FORMULA static V formula(S, V a) {
    return a;
  }
};
struct CopyRow {
  static constexpr Kernel id = Kernel::kCopy;
  static constexpr const char* name = "copy";
  static constexpr const char* label = "Copy";
  static constexpr Slot writes = Slot::kC;
  using In = Reads<Slot::kA>;
  static constexpr ScalarSchedule scalar = ScalarSchedule::kNone;
  template <class S, class V>
  MOVEBENCH_FORMULA static V formula(S, V a) {
    return a;
  }
};
struct UpdateRow {
  static constexpr Kernel id = Kernel::kUpdate;
  static constexpr const char* name = "update";
  static constexpr const char* label = "Update";
  static constexpr Slot writes = Slot::kA;
  using In = Reads<Slot::kA>;
  static constexpr ScalarSchedule scalar = ScalarSchedule::kHalving;
  template <class S, class V>
  MOVEBENCH_FORMULA static V formula(S s, V a) {
    return a * s;
  }
};
struct TriadRow {
  static constexpr Kernel id = Kernel::kTriad;
  static constexpr const char* name = "triad";
  static constexpr const char* label = "Triad";
  static constexpr Slot writes = Slot::kA;
  using In = Reads<Slot::kB, Slot::kC>;
  static constexpr ScalarSchedule scalar = ScalarSchedule::kRamp;
  template <class S, class V>
  MOVEBENCH_FORMULA static V formula(S s, V b, V c) {
    return b + c * s;
  }
};
struct DaxpyRow {
  static constexpr Kernel id = Kernel::kDaxpy;
  static constexpr const char* name = "daxpy";
  static constexpr const char* label = "Daxpy";
  static constexpr Slot writes = Slot::kA;
  using In = Reads<Slot::kA, Slot::kB>;
  static constexpr ScalarSchedule scalar = ScalarSchedule::kRamp;
  template <class S, class V>
  MOVEBENCH_FORMULA static V formula(S s, V a, V b) {
    return a + b * s;
  }
};
struct StriadRow {
  static constexpr Kernel id = Kernel::kStriad;
  static constexpr const char* name = "striad";
  static constexpr const char* label = "STriad";
  static constexpr Slot writes = Slot::kA;
  using In = Reads<Slot::kB, Slot::kC, Slot::kD>;
  static constexpr ScalarSchedule scalar = ScalarSchedule::kNone;
  template <class S, class V>
  MOVEBENCH_FORMULA static V formula(S, V b, V c, V d) {
    return b + c * d;
  }
};
struct SdaxpyRow {
  static constexpr Kernel id = Kernel::kSdaxpy;
  static constexpr const char* name = "sdaxpy";
  static constexpr const char* label = "SDaxpy";
  static constexpr Slot writes = Slot::kA;
  using In = Reads<Slot::kA, Slot::kB, Slot::kC>;
  static constexpr ScalarSchedule scalar = ScalarSchedule::kNone;
  template <class S, class V>
  MOVEBENCH_FORMULA static V formula(S, V a, V b, V c) {
    return a + b * c;
  }
};

template <class... Rows>
struct RowList {
  static constexpr std::size_t size = sizeof...(Rows);
};
// The table, in TheBandwidthBenchmark's order (Kernel's values).
using KernelRows = RowList<InitRow, SumRow, CopyRow, UpdateRow, TriadRow, DaxpyRow, StriadRow, SdaxpyRow>;
inline constexpr std::size_t kKernelCount = KernelRows::size;

// Calls f(Row{}) with the row of kernel k.
template <class F, class... Rows>
constexpr void visit_row(Kernel k, F&& f, RowList<Rows...>) {
  (void)((k == Rows::id ? (f(Rows{}), true) : false) || ...);
}
template <class F>
constexpr void visit_row(Kernel k, F&& f) {
  visit_row(k, f, KernelRows{});
}
// Calls f(Row{}) for every row, in order.
template <class F, class... Rows>
constexpr void for_each_row(F&& f, RowList<Rows...>) {
  (f(Rows{}), ...);
}
template <class F>
constexpr void for_each_row(F&& f) {
  for_each_row(f, KernelRows{});
}

// Kernel k's scalar schedule, without the runtime table (kernel_table()):
// run_kernel asks it on every call.
constexpr ScalarSchedule scalar_schedule(Kernel k) {
  ScalarSchedule out = ScalarSchedule::kNone;
  visit_row(k, [&](auto row) { out = decltype(row)::scalar; });
  return out;
}

// The member of x (Arrays<T>, Element<T>, or anything with a, b, c, d) that
// slot S names.
template <Slot S, class X>
MOVEBENCH_FORMULA decltype(auto) slot(X& x) {
  static_assert(S != Slot::kNone, "sum stores nothing");
  if constexpr (S == Slot::kA) {
    return (x.a);
  } else if constexpr (S == Slot::kB) {
    return (x.b);
  } else if constexpr (S == Slot::kC) {
    return (x.c);
  } else {
    return (x.d);
  }
}

}  // namespace movebench::mem
