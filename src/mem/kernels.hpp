// The streaming kernels of TheBandwidthBenchmark (kernel_rows.hpp): their traffic,
// declared once, their values, and the loop shapes that run them.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mem/kernel_rows.hpp"

namespace movebench::mem {

// Per element: words loaded and stored, whether the store misses and so
// first reads its line (write-allocate), and floating-point operations:
// every field derived from the kernel's row (kernel_rows.hpp, kernel_table.cpp).
struct KernelInfo {
  Kernel id;
  std::string_view name;                 // "triad": the dotted name is mem.triad
  std::string_view label;                // "Triad": TheBandwidthBenchmark's table label
  std::string formula;                   // "a = b + c * s": the row's formula as the arrays are bound
  std::string expression;                // "b[i] + c[i] * s": its right-hand side at element i (C and OpenCL C)
  Slot writes;                           // kNone: a reduction (sum)
  std::array<bool, kSlotCount> reads{};  // by Slot
  ScalarSchedule scalar;
  int loads;
  int stores;
  bool write_allocate;
  int flops;
  int arrays;  // distinct arrays touched: the dataset of a sweep point

  // Bytes per element as TheBandwidthBenchmark counts them (loads + stores),
  // and with the write-allocate reads added.
  int words() const { return loads + stores; }
  int words_with_write_allocate() const { return words() + (write_allocate ? stores : 0); }
  bool has_scalar() const { return scalar != ScalarSchedule::kNone; }
};

const std::array<KernelInfo, kKernelCount>& kernel_table();
const KernelInfo& info(Kernel k);
// Throws UsageError for an unknown name.
Kernel kernel_by_name(std::string_view name);
// The OpenCL C kernel of an element-wise row (not sum): one work-item per
// element; its arrays a, b, c, d (those it touches, in that order), then
// ulong n, then TYPE s when it has a scalar.
std::string elementwise_kernel_source(const KernelInfo& k);
// The same row as `<name>_passes`: calls first .. first + passes - 1 in one
// launch, call first + p taking scalars[(first + p) % kScalarPeriod]; each
// work-item takes the same elements (a grid-stride loop) in every pass, so
// no pass waits for another work-item's elements. OpenCL C, as above.
std::string elementwise_passes_source(const KernelInfo& k);

// How a kernel's loop walks its arrays and stores its results. Every shape
// computes exactly the same values from the same inputs and moves the same
// bytes; only the instruction stream differs, and which one is fastest
// differs between CPUs (docs/mem.md):
//   plain    the compiler's loop with plain stores (TheBandwidthBenchmark's
//            own loop, for comparability)
//   nt       one linear pass with streaming (non-temporal) stores
//   page     four 4 KiB pages walked at once with software prefetch, plain stores
//   page-nt  the same walk with streaming stores (glibc's large memcpy shape)
// On AVX-512 builds each also comes with 256-bit vectors ("plain-256" is a
// linear loop of them with plain stores, "nt-256", "page-256",
// "page-nt-256"): AMD Zen 4 streams memory faster with 256-bit loads and
// streaming stores, Intel Ice Lake with 512-bit ones.
// sum stores nothing: its shapes are plain (a linear loop with independent
// accumulators) and page, at both widths.
enum class Shape { kPlain, kNt, kPage, kPageNt, kPlain256, kNt256, kPage256, kPageNt256 };
inline constexpr std::size_t kShapeCount = 8;
std::string_view shape_name(Shape s);
// Throws UsageError for an unknown name or one this build does not have.
Shape shape_by_name(std::string_view name);
// The shapes this build has (the -256 ones on AVX-512 builds only), and
// their names for help and error text.
std::vector<Shape> available_shapes();
std::string shape_names();
bool is_nontemporal(Shape s);
bool is_page(Shape s);
// The same walk and width with plain stores: what sum (which stores
// nothing) runs for a forced --shape.
Shape without_streaming_stores(Shape s);
// The width of the vectors a shape's loads and stores use (plain: at most).
int vector_bits(Shape s);
// --nt-stores: streaming stores on, off, or auto (the calibration decides).
enum class NtStores { kAuto, kOn, kOff };
// The shapes a calibration chooses from for kernel k: `nt_stores` on keeps
// the streaming ones, off the plain ones, auto all (sum: plain and page).
std::vector<Shape> shape_candidates(Kernel k, NtStores nt_stores);

// The four arrays every kernel is bound to, as TheBandwidthBenchmark binds
// them: init writes b, sum reads a, copy c = a, then a is updated from b, c, d.
template <class T>
struct Arrays {
  T* a;
  T* b;
  T* c;
  T* d;
};

// Values. Every element starts from values of its own index (a hash of it,
// no period), and the scalar of every call depends on the call's number, so
// an element written to the wrong place, another thread's slice or a
// skipped call leaves values the replay does not predict. The scalars keep
// everything bounded over any number of calls: init and triad use s in
// [0.1, 0.19), update alternates 2 and 0.5 (exact), and d stays in
// [0.25, 0.5), so the round a = b + c*(d + b) of the full sequence contracts.
template <class T>
struct Element {
  T a, b, c, d;
};
template <class T>
Element<T> initial_element(std::uint64_t i);
// The scalar of call number `call` of kernel k (unused by copy, sum, striad
// and sdaxpy, which have none). It repeats every kScalarPeriod calls:
// kernel_scalar(k, call) == kernel_scalar(k, call % kScalarPeriod), so a
// device running many calls in one launch takes them from a table of
// kScalarPeriod values (elementwise_passes_source, the CUDA backend's).
inline constexpr std::uint32_t kScalarPeriod = 18;
template <class T>
T kernel_scalar(Kernel k, std::uint64_t call);

// Runs kernel k over elements [lo, hi) in the given shape, as call number
// `call`. Returns the partial sum for kSum, else 0. Compiled with
// -ffp-contract=off so the result is bit-identical to replay().
template <class T>
T run_kernel(Kernel k, const Arrays<T>& x, std::size_t lo, std::size_t hi, Shape shape, std::uint64_t call);

// One element's values after call number `call` of kernel k: the reference
// a validation compares every element against.
template <class T>
void replay(Kernel k, Element<T>& e, std::uint64_t call);

// A block of `count` consecutive elements from index `first`, after calls
// 0 .. calls-1 of `sequence` (call j runs every kernel of the sequence in
// order), as structure-of-arrays; sum_a[e] adds the element's a at every
// sum call. Vectorised across the block, so a replay costs less than the
// measurement; a lone kernel whose output is not one of its inputs (init,
// copy, triad, striad, sum) and update (whose scalars 2 and 0.5 undo each
// other exactly) are replayed in closed form.
template <class T>
void replay_block(const Kernel* sequence, std::size_t kernels, std::uint64_t calls, std::uint64_t first,
                  std::size_t count, T* a, T* b, T* c, T* d, double* sum_a);

// Sets flush-to-zero (and denormals-are-zero where the CPU has it) on the
// calling thread, as TheBandwidthBenchmark gets from -ffast-math.
void set_flush_denormals();

// True when this build has streaming-store instructions.
bool has_nontemporal_stores();

}  // namespace movebench::mem
