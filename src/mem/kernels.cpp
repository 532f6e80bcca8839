#include "mem/kernels.hpp"

#include <fmt/format.h>
#include <immintrin.h>

#include <cstring>
#include <type_traits>

#include "core/errors.hpp"

namespace movebench::mem {

namespace {

constexpr std::array<KernelInfo, kKernelCount> kTable = {{
    {Kernel::kInit, "init", "Init", "b = s", 0, 1, true, 0, 1},
    {Kernel::kSum, "sum", "Sum", "s += a", 1, 0, false, 1, 1},
    {Kernel::kCopy, "copy", "Copy", "c = a", 1, 1, true, 0, 2},
    {Kernel::kUpdate, "update", "Update", "a = a * s", 1, 1, false, 1, 1},
    {Kernel::kTriad, "triad", "Triad", "a = b + c * s", 2, 1, true, 2, 3},
    {Kernel::kDaxpy, "daxpy", "Daxpy", "a = a + b * s", 2, 1, false, 2, 2},
    {Kernel::kStriad, "striad", "STriad", "a = b + c * d", 3, 1, true, 2, 4},
    {Kernel::kSdaxpy, "sdaxpy", "SDaxpy", "a = a + b * c", 3, 1, false, 2, 3},
}};

// The widest vector this build targets; streaming stores need it aligned.
#if defined(__AVX512F__)
constexpr std::size_t kVectorBytes = 64;
#elif defined(__AVX__)
constexpr std::size_t kVectorBytes = 32;
#elif defined(__SSE2__)
constexpr std::size_t kVectorBytes = 16;
#else
constexpr std::size_t kVectorBytes = 0;
#endif

#if defined(__SSE2__)
// GCC vector types: the kernels' lambdas work on them as on scalars.
template <class T>
struct VecOf;
template <>
struct VecOf<double> {
  typedef double type __attribute__((vector_size(kVectorBytes)));
};
template <>
struct VecOf<float> {
  typedef float type __attribute__((vector_size(kVectorBytes)));
};
template <class T>
using Vec = typename VecOf<T>::type;

template <class T>
inline Vec<T> load(const T* p) {
  Vec<T> v;
  std::memcpy(&v, p, sizeof v);  // an unaligned vector load
  return v;
}
// A kernel's result as a vector: init returns the scalar, broadcast it.
template <class T, class R>
inline Vec<T> as_vec(R r) {
  if constexpr (std::is_same_v<R, T>) {
    return Vec<T>{} + r;
  } else {
    return r;
  }
}

inline void stream(double* p, Vec<double> v) {
#if defined(__AVX512F__)
  _mm512_stream_pd(p, reinterpret_cast<__m512d>(v));
#elif defined(__AVX__)
  _mm256_stream_pd(p, reinterpret_cast<__m256d>(v));
#else
  _mm_stream_pd(p, reinterpret_cast<__m128d>(v));
#endif
}
inline void stream(float* p, Vec<float> v) {
#if defined(__AVX512F__)
  _mm512_stream_ps(p, reinterpret_cast<__m512>(v));
#elif defined(__AVX__)
  _mm256_stream_ps(p, reinterpret_cast<__m256>(v));
#else
  _mm_stream_ps(p, reinterpret_cast<__m128>(v));
#endif
}
#endif

// out[i] = op(in[i]...) for i in [lo, hi). Same-index reads and writes only,
// so "omp simd" is safe even when out is also an input.
template <class T, class Op, class... In>
inline void map_plain(T* out, std::size_t lo, std::size_t hi, Op op, const In*... in) {
#pragma omp simd
  for (std::size_t i = lo; i < hi; ++i) out[i] = op(in[i]...);
}

// Streaming stores, walking kPages 4 KiB pages of every array at once, two
// cache lines from each page per step, and prefetching each page's next two
// lines (the shape of glibc's large non-temporal memcpy). One core's hardware
// prefetcher tracks streams per 4 KiB page and stops at each page's end; a
// single linear stream leaves the core waiting on memory at every page start.
// Four pages in flight keep enough misses outstanding: on the development
// machine (docs/performance.md) copy and triad gain 15-25 % on one thread
// over the plain linear streaming loop. Every element is still computed by
// op from the same inputs, so results are bit-identical to map_plain.
constexpr std::size_t kPageBytes = 4096;
constexpr std::size_t kPages = 4;
constexpr std::size_t kStepBytes = 128;  // per page and step: two cache lines

template <class T, class Op, class... In>
inline void map_streaming(T* out, std::size_t lo, std::size_t hi, Op op, const In*... in) {
#if defined(__SSE2__)
  constexpr std::size_t width = kVectorBytes / sizeof(T);
  constexpr std::size_t page = kPageBytes / sizeof(T);  // elements per page
  constexpr std::size_t step = kStepBytes / sizeof(T);  // elements per page and step
  const auto vector_at = [&](std::size_t j) { stream(out + j, as_vec<T>(op(load(in + j)...))); };
  std::size_t i = lo;
  for (; i < hi && reinterpret_cast<std::uintptr_t>(out + i) % kVectorBytes; ++i) out[i] = op(in[i]...);
  // Aligned vectors up to the next page boundary of out, then whole groups.
  for (; i + width <= hi && reinterpret_cast<std::uintptr_t>(out + i) % kPageBytes; i += width) vector_at(i);
  for (; i + kPages * page <= hi; i += kPages * page) {
    for (std::size_t l = 0; l < page; l += step) {
      for (std::size_t p = 0; p < kPages; ++p) {
        const std::size_t j = i + p * page + l;
        // Prefetches never fault: the last step's, past the arrays, are harmless.
        (_mm_prefetch(reinterpret_cast<const char*>(in + j + step), _MM_HINT_T0), ...);
        (_mm_prefetch(reinterpret_cast<const char*>(in + j + step) + 64, _MM_HINT_T0), ...);
        for (std::size_t v = 0; v < step; v += width) vector_at(j + v);
      }
    }
  }
  for (; i + width <= hi; i += width) vector_at(i);
  for (; i < hi; ++i) out[i] = op(in[i]...);
  _mm_sfence();  // streaming stores are weakly ordered: publish before the barrier
#else
  map_plain(out, lo, hi, op, in...);
#endif
}

template <class T, class Op, class... In>
inline void map(bool nt, T* out, std::size_t lo, std::size_t hi, Op op, const In*... in) {
  if (nt) {
    map_streaming(out, lo, hi, op, in...);
  } else {
    map_plain(out, lo, hi, op, in...);
  }
}

template <class T>
T sum(const T* a, std::size_t lo, std::size_t hi) {
#if defined(__SSE2__)
  // One vector accumulator per page, walking kPages pages at once as the
  // streaming stores do: a single linear read stream leaves one core waiting
  // on memory at every page start. Independent accumulators also keep an
  // add's latency from capping the rate in cache.
  constexpr std::size_t width = kVectorBytes / sizeof(T);
  constexpr std::size_t page = kPageBytes / sizeof(T);
  constexpr std::size_t step = kStepBytes / sizeof(T);
  T total = 0;
  std::size_t i = lo;
  for (; i < hi && reinterpret_cast<std::uintptr_t>(a + i) % kPageBytes; ++i) total += a[i];
  Vec<T> acc[kPages] = {};
  for (; i + kPages * page <= hi; i += kPages * page) {
    for (std::size_t l = 0; l < page; l += step) {
      for (std::size_t p = 0; p < kPages; ++p) {
        const T* at = a + i + p * page + l;
        _mm_prefetch(reinterpret_cast<const char*>(at + step), _MM_HINT_T0);
        _mm_prefetch(reinterpret_cast<const char*>(at + step) + 64, _MM_HINT_T0);
        for (std::size_t v = 0; v < step; v += width) acc[p] += load(at + v);
      }
    }
  }
  for (; i + width <= hi; i += width) acc[0] += load(a + i);
  static_assert(kPages == 4, "the accumulators are added as four");
  Vec<T> all = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  for (std::size_t l = 0; l < width; ++l) total += all[l];
  for (; i < hi; ++i) total += a[i];
  return total;
#else
  T total = 0;
  for (std::size_t i = lo; i < hi; ++i) total += a[i];
  return total;
#endif
}

}  // namespace

const std::array<KernelInfo, kKernelCount>& kernel_table() { return kTable; }
const KernelInfo& info(Kernel k) { return kTable[static_cast<std::size_t>(k)]; }

Kernel kernel_by_name(std::string_view name) {
  for (const auto& k : kTable) {
    if (k.name == name) return k.id;
  }
  throw UsageError(fmt::format("unknown kernel '{}': expected init, sum, copy, update, triad, daxpy, striad or sdaxpy", name));
}

bool has_nontemporal_stores() { return kVectorBytes != 0; }

template <class T>
T run_kernel(Kernel k, const Arrays<T>& x, std::size_t lo, std::size_t hi, bool nt) {
  const T s = static_cast<T>(kScalar);
  switch (k) {
    case Kernel::kInit: map(nt, x.b, lo, hi, [s] { return s; }); break;
    case Kernel::kSum: return sum(x.a, lo, hi);
    case Kernel::kCopy: map(nt, x.c, lo, hi, [](auto a) { return a; }, x.a); break;
    case Kernel::kUpdate: map(nt, x.a, lo, hi, [s](auto a) { return a * s; }, x.a); break;
    case Kernel::kTriad: map(nt, x.a, lo, hi, [s](auto b, auto c) { return b + c * s; }, x.b, x.c); break;
    case Kernel::kDaxpy: map(nt, x.a, lo, hi, [s](auto a, auto b) { return a + b * s; }, x.a, x.b); break;
    case Kernel::kStriad:
      map(nt, x.a, lo, hi, [](auto b, auto c, auto d) { return b + c * d; }, x.b, x.c, x.d);
      break;
    case Kernel::kSdaxpy:
      map(nt, x.a, lo, hi, [](auto a, auto b, auto c) { return a + b * c; }, x.a, x.b, x.c);
      break;
  }
  return 0;
}

template <class T>
void replay(Kernel k, Element<T>& e) {
  const T s = static_cast<T>(kScalar);
  switch (k) {
    case Kernel::kInit: e.b = s; break;
    case Kernel::kSum: break;
    case Kernel::kCopy: e.c = e.a; break;
    case Kernel::kUpdate: e.a = e.a * s; break;
    case Kernel::kTriad: e.a = e.b + e.c * s; break;
    case Kernel::kDaxpy: e.a = e.a + e.b * s; break;
    case Kernel::kStriad: e.a = e.b + e.c * e.d; break;
    case Kernel::kSdaxpy: e.a = e.a + e.b * e.c; break;
  }
}

void set_flush_denormals() {
#if defined(__SSE__)
  _mm_setcsr(_mm_getcsr() | 0x8040);  // FTZ (bit 15) | DAZ (bit 6)
#endif
}

template double run_kernel<double>(Kernel, const Arrays<double>&, std::size_t, std::size_t, bool);
template float run_kernel<float>(Kernel, const Arrays<float>&, std::size_t, std::size_t, bool);
template void replay<double>(Kernel, Element<double>&);
template void replay<float>(Kernel, Element<float>&);

}  // namespace movebench::mem
