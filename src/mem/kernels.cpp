#include "mem/kernels.hpp"

#include <fmt/format.h>

#include <cstring>
#include <type_traits>

#include "core/errors.hpp"
#include "core/splitmix64.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace movebench::mem {

namespace {

constexpr std::array<std::string_view, kShapeCount> kShapeNames = {"plain",     "nt",     "page",     "page-nt",
                                                                   "plain-256", "nt-256", "page-256", "page-nt-256"};

// The widest vector this build targets; streaming stores need it aligned.
#if defined(__AVX512F__)
constexpr std::size_t kVectorBytes = 64;
#elif defined(__AVX__)
constexpr std::size_t kVectorBytes = 32;
#elif defined(__SSE2__) || defined(__ARM_NEON) || defined(__aarch64__)
constexpr std::size_t kVectorBytes = 16;
#else
constexpr std::size_t kVectorBytes = 8;  // scalar "vectors": plain stores only
#endif

// The narrower width the "-256" shapes use on AVX-512 builds: on some
// cores (AMD Zen 4, docs/performance.md) 256-bit loads and streaming stores
// move memory faster than 512-bit ones; elsewhere (Intel Ice Lake) not.
constexpr std::size_t kHalfVectorBytes = 32;
constexpr bool kHasHalfWidth = kVectorBytes == 64;

// GCC vector types of W bytes: the kernels' lambdas work on them as on
// scalars.
template <class T, std::size_t W>
struct VecOf {
  typedef T type __attribute__((vector_size(W)));
};
template <class T, std::size_t W = kVectorBytes>
using Vec = typename VecOf<T, W>::type;

template <std::size_t W, class T>
inline Vec<T, W> load(const T* p) {
  Vec<T, W> v;
  std::memcpy(&v, p, sizeof v);  // an unaligned vector load
  return v;
}
template <std::size_t W, class T>
inline void store(T* p, Vec<T, W> v) {
  std::memcpy(p, &v, sizeof v);
}
// A kernel's result as a vector: init returns the scalar, broadcast it.
template <class T, std::size_t W, class R>
inline Vec<T, W> as_vec(R r) {
  if constexpr (std::is_same_v<R, T>) {
    return Vec<T, W>{} + r;
  } else {
    return r;
  }
}

inline void prefetch(const void* p) { __builtin_prefetch(p, 0, 3); }

// One aligned vector stored past the caches. x86: MOVNTPD/MOVNTPS; aarch64:
// STNP, the non-temporal store pair (a hint the core may ignore); elsewhere
// a plain store.
template <std::size_t W, class T>
inline void stream(T* p, Vec<T, W> v) {
#if defined(__AVX512F__)
  if constexpr (W == 32 && sizeof(T) == 8) {
    _mm256_stream_pd(reinterpret_cast<double*>(p), reinterpret_cast<__m256d>(v));
  } else if constexpr (W == 32) {
    _mm256_stream_ps(reinterpret_cast<float*>(p), reinterpret_cast<__m256>(v));
  } else if constexpr (sizeof(T) == 8) {
    _mm512_stream_pd(reinterpret_cast<double*>(p), reinterpret_cast<__m512d>(v));
  } else {
    _mm512_stream_ps(reinterpret_cast<float*>(p), reinterpret_cast<__m512>(v));
  }
#elif defined(__AVX__)
  if constexpr (sizeof(T) == 8) {
    _mm256_stream_pd(reinterpret_cast<double*>(p), reinterpret_cast<__m256d>(v));
  } else {
    _mm256_stream_ps(reinterpret_cast<float*>(p), reinterpret_cast<__m256>(v));
  }
#elif defined(__SSE2__)
  if constexpr (sizeof(T) == 8) {
    _mm_stream_pd(reinterpret_cast<double*>(p), reinterpret_cast<__m128d>(v));
  } else {
    _mm_stream_ps(reinterpret_cast<float*>(p), reinterpret_cast<__m128>(v));
  }
#elif defined(__aarch64__)
  std::uint64_t lo, hi;
  std::memcpy(&lo, &v, 8);
  std::memcpy(&hi, reinterpret_cast<const char*>(&v) + 8, 8);
  asm volatile("stnp %x0, %x1, [%2]" : : "r"(lo), "r"(hi), "r"(p) : "memory");
#else
  store<W>(p, v);
#endif
}

// Streaming stores are weakly ordered on x86: publish them before the
// team's barrier. (On aarch64 the barrier's own ordering covers STNP.)
inline void publish_streaming_stores() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

// out[i] = op(in[i]...) for i in [lo, hi). Same-index reads and writes only,
// so "omp simd" is safe even when out is also an input.
template <class T, class Op, class... In>
inline void map_plain(T* out, std::size_t lo, std::size_t hi, Op op, const In*... in) {
#pragma omp simd
  for (std::size_t i = lo; i < hi; ++i) out[i] = op(in[i]...);
}

// One W-byte vector of out from the same elements of the inputs, streamed
// (Nt) or stored plainly; out + j aligned to W.
template <bool Nt, std::size_t W, class T, class Op, class... In>
inline void put_vector(T* out, std::size_t j, Op op, const In*... in) {
  if constexpr (Nt) {
    stream<W>(out + j, as_vec<T, W>(op(load<W>(in + j)...)));
  } else {
    store<W>(out + j, as_vec<T, W>(op(load<W>(in + j)...)));
  }
}

// One linear pass of W-byte vectors, streaming (Nt) or plain stores. No
// software prefetch: the hardware prefetchers follow a linear stream on
// their own.
template <bool Nt, std::size_t W, class T, class Op, class... In>
inline void map_linear(T* out, std::size_t lo, std::size_t hi, Op op, const In*... in) {
  constexpr std::size_t width = W / sizeof(T);
  const auto vector_at = [&](std::size_t j) { put_vector<Nt, W>(out, j, op, in...); };
  std::size_t i = lo;
  for (; i < hi && reinterpret_cast<std::uintptr_t>(out + i) % W; ++i) out[i] = op(in[i]...);
  for (; i + 2 * width <= hi; i += 2 * width) {
    vector_at(i);
    vector_at(i + width);
  }
  for (; i + width <= hi; i += width) vector_at(i);
  for (; i < hi; ++i) out[i] = op(in[i]...);
  if constexpr (Nt) publish_streaming_stores();
}

// kPages 4 KiB pages of every array walked at once, two cache lines from
// each page per step, prefetching each page's next two lines (the shape of
// glibc's large non-temporal memcpy). One core's hardware prefetcher tracks
// streams per 4 KiB page and stops at each page's end; on some cores (the
// Intel machine of docs/performance.md) four pages in flight keep more
// misses outstanding than one linear stream, on others (AMD Zen 4) the
// linear loop wins: the calibration decides.
constexpr std::size_t kPageBytes = 4096;
constexpr std::size_t kPages = 4;
constexpr std::size_t kStepBytes = 128;  // per page and step: two cache lines

template <bool Nt, std::size_t W, class T, class Op, class... In>
inline void map_page(T* out, std::size_t lo, std::size_t hi, Op op, const In*... in) {
  constexpr std::size_t width = W / sizeof(T);
  constexpr std::size_t page = kPageBytes / sizeof(T);  // elements per page
  constexpr std::size_t step = kStepBytes / sizeof(T);  // elements per page and step
  const auto vector_at = [&](std::size_t j) { put_vector<Nt, W>(out, j, op, in...); };
  std::size_t i = lo;
  for (; i < hi && reinterpret_cast<std::uintptr_t>(out + i) % W; ++i) out[i] = op(in[i]...);
  // Aligned vectors up to the next page boundary of out, then whole groups.
  for (; i + width <= hi && reinterpret_cast<std::uintptr_t>(out + i) % kPageBytes; i += width) vector_at(i);
  for (; i + kPages * page <= hi; i += kPages * page) {
    for (std::size_t l = 0; l < page; l += step) {
      for (std::size_t p = 0; p < kPages; ++p) {
        const std::size_t j = i + p * page + l;
        // Prefetches never fault: the last step's, past the arrays, are harmless.
        (prefetch(in + j + step), ...);
        (prefetch(reinterpret_cast<const char*>(in + j + step) + 64), ...);
        for (std::size_t v = 0; v < step; v += width) vector_at(j + v);
      }
    }
  }
  for (; i + width <= hi; i += width) vector_at(i);
  for (; i < hi; ++i) out[i] = op(in[i]...);
  if constexpr (Nt) publish_streaming_stores();
}

template <class T, class Op, class... In>
inline void map(Shape shape, T* out, std::size_t lo, std::size_t hi, Op op, const In*... in) {
  constexpr std::size_t half = kHasHalfWidth ? kHalfVectorBytes : kVectorBytes;
  switch (shape) {
    case Shape::kPlain: map_plain(out, lo, hi, op, in...); break;
    case Shape::kNt: map_linear<true, kVectorBytes>(out, lo, hi, op, in...); break;
    case Shape::kPage: map_page<false, kVectorBytes>(out, lo, hi, op, in...); break;
    case Shape::kPageNt: map_page<true, kVectorBytes>(out, lo, hi, op, in...); break;
    case Shape::kPlain256: map_linear<false, half>(out, lo, hi, op, in...); break;
    case Shape::kNt256: map_linear<true, half>(out, lo, hi, op, in...); break;
    case Shape::kPage256: map_page<false, half>(out, lo, hi, op, in...); break;
    case Shape::kPageNt256: map_page<true, half>(out, lo, hi, op, in...); break;
  }
}

// sum, linear: four independent vector accumulators, so an add's latency
// does not cap the rate in cache.
template <std::size_t W, class T, class Op>
T sum_linear(Op op, const T* a, std::size_t lo, std::size_t hi) {
  constexpr std::size_t width = W / sizeof(T);
  T total = 0;
  std::size_t i = lo;
  for (; i < hi && reinterpret_cast<std::uintptr_t>(a + i) % W; ++i) total += op(a[i]);
  Vec<T, W> acc[4] = {};
  for (; i + 4 * width <= hi; i += 4 * width) {
    for (std::size_t u = 0; u < 4; ++u) acc[u] += op(load<W>(a + i + u * width));
  }
  for (; i + width <= hi; i += width) acc[0] += op(load<W>(a + i));
  const Vec<T, W> all = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  for (std::size_t l = 0; l < width; ++l) total += all[l];
  for (; i < hi; ++i) total += op(a[i]);
  return total;
}

// sum, page walk: one accumulator per page, kPages pages at once.
template <std::size_t W, class T, class Op>
T sum_page(Op op, const T* a, std::size_t lo, std::size_t hi) {
  constexpr std::size_t width = W / sizeof(T);
  constexpr std::size_t page = kPageBytes / sizeof(T);
  constexpr std::size_t step = kStepBytes / sizeof(T);
  T total = 0;
  std::size_t i = lo;
  for (; i < hi && reinterpret_cast<std::uintptr_t>(a + i) % kPageBytes; ++i) total += op(a[i]);
  Vec<T, W> acc[kPages] = {};
  for (; i + kPages * page <= hi; i += kPages * page) {
    for (std::size_t l = 0; l < page; l += step) {
      for (std::size_t p = 0; p < kPages; ++p) {
        const T* at = a + i + p * page + l;
        prefetch(at + step);
        prefetch(reinterpret_cast<const char*>(at + step) + 64);
        for (std::size_t v = 0; v < step; v += width) acc[p] += op(load<W>(at + v));
      }
    }
  }
  for (; i + width <= hi; i += width) acc[0] += op(load<W>(a + i));
  static_assert(kPages == 4, "the accumulators are added as four");
  const Vec<T, W> all = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  for (std::size_t l = 0; l < width; ++l) total += all[l];
  for (; i < hi; ++i) total += op(a[i]);
  return total;
}

// A reduction (sum) in the given shape: the total of op(a[i]).
template <class T, class Op>
T reduce(Shape shape, Op op, const T* a, std::size_t lo, std::size_t hi) {
  constexpr std::size_t half = kHasHalfWidth ? kHalfVectorBytes : kVectorBytes;
  const bool narrow = vector_bits(shape) == 256;
  if (is_page(shape)) return narrow ? sum_page<half>(op, a, lo, hi) : sum_page<kVectorBytes>(op, a, lo, hi);
  return narrow ? sum_linear<half>(op, a, lo, hi) : sum_linear<kVectorBytes>(op, a, lo, hi);
}

// A row's formula with this call's scalar bound: what every loop below, on
// scalars or vectors, applies to the elements it reads. A formula without a
// scalar binds none: an empty function object, as a lambda that captures
// nothing is, which the inliner weighs as it always did (binding an unused
// scalar changed which kernels' loops GCC 12 inlined into run_kernel).
template <class Row, class T>
auto formula_of(T s) {
  if constexpr (Row::scalar == ScalarSchedule::kNone) {
    return [](auto... in) { return Row::formula(T{}, in...); };
  } else {
    return [s](auto... in) { return Row::formula(s, in...); };
  }
}

// One call of a row's kernel over elements [lo, hi) of x.
template <class Row, class T, Slot... In>
T run_row(Reads<In...>, const Arrays<T>& x, std::size_t lo, std::size_t hi, Shape shape, T s) {
  if constexpr (Row::writes == Slot::kNone) {
    static_assert(sizeof...(In) == 1, "a reduction reads one array");
    return reduce(shape, formula_of<Row>(s), slot<In>(x)..., lo, hi);
  } else {
    map(shape, slot<Row::writes>(x), lo, hi, formula_of<Row>(s), slot<In>(x)...);
    return 0;
  }
}

// One element after one call of a row's kernel (a reduction changes nothing).
template <class Row, class T, Slot... In>
void replay_row(Reads<In...>, Element<T>& e, T s) {
  if constexpr (Row::writes != Slot::kNone) slot<Row::writes>(e) = Row::formula(s, slot<In>(e)...);
}

// `count` elements of a block (structure of arrays) after one call of a
// row's kernel; a reduction adds to sum_a.
template <class Row, class T, Slot... In>
void replay_row_block(Reads<In...>, const Arrays<T>& x, std::size_t count, T s, double* sum_a) {
  const auto op = formula_of<Row>(s);
  if constexpr (Row::writes == Slot::kNone) {
    for (std::size_t e = 0; e < count; ++e) sum_a[e] += static_cast<double>(op(slot<In>(x)[e]...));
  } else {
    map_plain(slot<Row::writes>(x), 0, count, op, slot<In>(x)...);
  }
}

// The first call a block's replay must run for `calls` calls of a lone
// kernel: a kernel whose output is not an input shows only its last call,
// and a halving scalar (2, then 0.5, exactly) undoes every pair of calls of
// a kernel that scales what it reads (an odd count leaves one x2: call
// numbers of x2 are even). Returns calls when nothing is left to replay.
std::uint64_t first_call_to_replay(const KernelInfo& k, std::uint64_t calls) {
  const bool overwrites = k.writes != Slot::kNone && !k.reads[static_cast<std::size_t>(k.writes)];
  if (overwrites) return calls - 1;
  if (k.scalar == ScalarSchedule::kHalving) return calls % 2 == 0 ? calls : calls - 1;
  return 0;
}

// splitmix64: a well-mixed hash of the index, so initial values have no
// period a shifted or misrouted block could hide in.
double fraction(std::uint64_t i, unsigned which) {  // in [0, 1)
  return static_cast<double>(splitmix64(4 * i + which) >> 11) * 0x1p-53;
}

}  // namespace

std::string_view shape_name(Shape s) { return kShapeNames[static_cast<std::size_t>(s)]; }

Shape shape_by_name(std::string_view name) {
  for (Shape s : available_shapes()) {
    if (shape_name(s) == name) return s;
  }
  throw UsageError(fmt::format("unknown shape '{}': expected auto, {}", name, shape_names()));
}

std::string shape_names() {
  std::string out;
  for (Shape s : available_shapes()) out += fmt::format("{}{}", out.empty() ? "" : ", ", shape_name(s));
  return out;
}

std::vector<Shape> available_shapes() {
  std::vector<Shape> out{Shape::kPlain, Shape::kNt, Shape::kPage, Shape::kPageNt};
  if (kHasHalfWidth) out.insert(out.end(), {Shape::kPlain256, Shape::kNt256, Shape::kPage256, Shape::kPageNt256});
  return out;
}

bool is_nontemporal(Shape s) {
  return s == Shape::kNt || s == Shape::kPageNt || s == Shape::kNt256 || s == Shape::kPageNt256;
}
bool is_page(Shape s) {
  return s == Shape::kPage || s == Shape::kPageNt || s == Shape::kPage256 || s == Shape::kPageNt256;
}
int vector_bits(Shape s) {
  const bool narrow = s == Shape::kPlain256 || s == Shape::kNt256 || s == Shape::kPage256 || s == Shape::kPageNt256;
  return static_cast<int>(8 * (narrow && kHasHalfWidth ? kHalfVectorBytes : kVectorBytes));
}

Shape without_streaming_stores(Shape s) {
  switch (s) {
    case Shape::kNt: return Shape::kPlain;
    case Shape::kPageNt: return Shape::kPage;
    case Shape::kNt256: return Shape::kPlain256;
    case Shape::kPageNt256: return Shape::kPage256;
    default: return s;
  }
}

std::vector<Shape> shape_candidates(Kernel k, NtStores nt_stores) {
  if (info(k).writes == Slot::kNone) {  // a reduction stores nothing
    std::vector<Shape> out{Shape::kPlain, Shape::kPage};
    if (kHasHalfWidth) out.insert(out.end(), {Shape::kPlain256, Shape::kPage256});
    return out;
  }
  std::vector<Shape> out;
  for (Shape s : available_shapes()) {
    const bool nt = is_nontemporal(s);
    if (nt && (nt_stores == NtStores::kOff || !has_nontemporal_stores())) continue;
    if (!nt && nt_stores == NtStores::kOn && has_nontemporal_stores()) continue;
    out.push_back(s);
  }
  return out;
}

bool has_nontemporal_stores() {
#if defined(__SSE2__) || defined(__aarch64__)
  return true;
#else
  return false;
#endif
}

template <class T>
Element<T> initial_element(std::uint64_t i) {
  // Same ranges as TheBandwidthBenchmark's 2, 2, 0.5, 1 give or take a
  // quarter; d below 0.5 keeps the full sequence contracting.
  return {static_cast<T>(2.0 + 0.25 * fraction(i, 0)), static_cast<T>(2.0 + 0.25 * fraction(i, 1)),
          static_cast<T>(0.5 + 0.25 * fraction(i, 2)), static_cast<T>(0.25 + 0.25 * fraction(i, 3))};
}

template <class T>
T kernel_scalar(Kernel k, std::uint64_t call) {
  static_assert(kScalarPeriod % 2 == 0, "the halving's period divides the table's");
  if (scalar_schedule(k) == ScalarSchedule::kHalving) return static_cast<T>(call % 2 == 0 ? 2.0 : 0.5);
  return static_cast<T>(0.1 + 0.005 * static_cast<double>(call % kScalarPeriod));
}

template <class T>
T run_kernel(Kernel k, const Arrays<T>& x, std::size_t lo, std::size_t hi, Shape shape, std::uint64_t call) {
  const T s = kernel_scalar<T>(k, call);
  T result = 0;
  visit_row(k, [&](auto row) {
    using Row = decltype(row);
    result = run_row<Row>(typename Row::In{}, x, lo, hi, shape, s);
  });
  return result;
}

template <class T>
void replay(Kernel k, Element<T>& e, std::uint64_t call) {
  const T s = kernel_scalar<T>(k, call);
  visit_row(k, [&](auto row) {
    using Row = decltype(row);
    replay_row<Row>(typename Row::In{}, e, s);
  });
}

template <class T>
void replay_block(const Kernel* sequence, std::size_t kernels, std::uint64_t calls, std::uint64_t first,
                  std::size_t count, T* a, T* b, T* c, T* d, double* sum_a) {
  for (std::size_t e = 0; e < count; ++e) {
    const Element<T> v = initial_element<T>(first + e);
    a[e] = v.a, b[e] = v.b, c[e] = v.c, d[e] = v.d;
    sum_a[e] = 0;
  }
  if (calls == 0) return;
  const Arrays<T> x{a, b, c, d};
  std::uint64_t start = 0;  // the first call to replay
  if (kernels == 1 && info(sequence[0]).writes == Slot::kNone) {
    // A lone reduction changes nothing: every call adds the same values.
    const T s = kernel_scalar<T>(sequence[0], 0);
    visit_row(sequence[0], [&](auto row) {
      using Row = decltype(row);
      replay_row_block<Row>(typename Row::In{}, x, count, s, sum_a);
    });
    for (std::size_t e = 0; e < count; ++e) sum_a[e] *= static_cast<double>(calls);
    return;
  }
  if (kernels == 1) start = first_call_to_replay(info(sequence[0]), calls);
  for (std::uint64_t j = start; j < calls; ++j) {
    for (std::size_t q = 0; q < kernels; ++q) {
      const T s = kernel_scalar<T>(sequence[q], j);
      visit_row(sequence[q], [&](auto row) {
        using Row = decltype(row);
        replay_row_block<Row>(typename Row::In{}, x, count, s, sum_a);
      });
    }
  }
}

void set_flush_denormals() {
#if defined(__SSE__)
  _mm_setcsr(_mm_getcsr() | 0x8040);  // FTZ (bit 15) | DAZ (bit 6)
#elif defined(__aarch64__)
  std::uint64_t fpcr;
  asm volatile("mrs %0, fpcr" : "=r"(fpcr));
  asm volatile("msr fpcr, %0" : : "r"(fpcr | (1ull << 24)));  // FZ
#endif
}

#define MOVEBENCH_KERNELS_INSTANTIATE(T)                                                                               \
  template Element<T> initial_element<T>(std::uint64_t);                                                               \
  template T kernel_scalar<T>(Kernel, std::uint64_t);                                                                  \
  template T run_kernel<T>(Kernel, const Arrays<T>&, std::size_t, std::size_t, Shape, std::uint64_t);                  \
  template void replay<T>(Kernel, Element<T>&, std::uint64_t);                                                         \
  template void replay_block<T>(const Kernel*, std::size_t, std::uint64_t, std::uint64_t, std::size_t, T*, T*, T*, T*, \
                                double*);
MOVEBENCH_KERNELS_INSTANTIATE(double)
MOVEBENCH_KERNELS_INSTANTIATE(float)

}  // namespace movebench::mem
