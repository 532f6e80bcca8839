// The eight streaming kernels of TheBandwidthBenchmark: their traffic,
// declared once, and their loops (plain and non-temporal stores).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace movebench::mem {

enum class Kernel { kInit, kSum, kCopy, kUpdate, kTriad, kDaxpy, kStriad, kSdaxpy };
inline constexpr std::size_t kKernelCount = 8;

// Per element: words loaded and stored, whether the store misses and so
// first reads its line (write-allocate), and floating-point operations.
struct KernelInfo {
  Kernel id;
  std::string_view name;     // "triad": the dotted name is mem.triad
  std::string_view label;    // "Triad": the seed's table label
  std::string_view formula;  // as the arrays are bound in the run (see kernels.cpp)
  int loads;
  int stores;
  bool write_allocate;
  int flops;
  int arrays;  // distinct arrays touched: the dataset of a sweep point

  // Bytes per element as the seed counts them (loads + stores), and with the
  // write-allocate reads added.
  int words() const { return loads + stores; }
  int words_with_write_allocate() const { return words() + (write_allocate ? stores : 0); }
};

const std::array<KernelInfo, kKernelCount>& kernel_table();
const KernelInfo& info(Kernel k);
// Throws UsageError for an unknown name.
Kernel kernel_by_name(std::string_view name);

// The four arrays every kernel is bound to, as the seed binds them:
// init writes b, sum reads a, copy c = a, then a is updated from b, c, d.
template <class T>
struct Arrays {
  T* a;
  T* b;
  T* c;
  T* d;
};

// The seed's scalar and initial values (TheBandwidthBenchmark main.c).
inline constexpr double kScalar = 0.1;
inline constexpr double kInitA = 2.0, kInitB = 2.0, kInitC = 0.5, kInitD = 1.0;

// Runs kernel k over elements [lo, hi). Returns the partial sum for kSum,
// else 0. With nt, stores bypass the caches (streaming stores) where the CPU
// has them. Compiled with -ffp-contract=off so the result is bit-identical
// to replay().
template <class T>
T run_kernel(Kernel k, const Arrays<T>& x, std::size_t lo, std::size_t hi, bool nt);

// One element's values after the same kernels in the same order: the
// reference a validation compares every element against.
template <class T>
struct Element {
  T a = static_cast<T>(kInitA), b = static_cast<T>(kInitB), c = static_cast<T>(kInitC),
    d = static_cast<T>(kInitD);
};
template <class T>
void replay(Kernel k, Element<T>& e);

// Sets flush-to-zero and denormals-are-zero on the calling thread, as the
// seed gets from -ffast-math: repeated update (a *= 0.1) must reach zero,
// not crawl through slow denormals.
void set_flush_denormals();

// True when this build has streaming-store instructions for T.
bool has_nontemporal_stores();

}  // namespace movebench::mem
