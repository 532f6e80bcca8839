// mem's kernels in CUDA (BabelStream's CUDA model, with
// TheBandwidthBenchmark's kernels). Every product and sum is an explicitly
// rounded intrinsic (__dmul_rn, __dadd_rn and their float twins), which nvcc
// never fuses into a multiply-add, so the arrays match the host's replay bit
// for bit whatever -fmad says.
//
// The shape is BabelStream 5's: blocks of 256 threads, four elements per
// thread, a grid of n / 1024 blocks. BabelStream walks a thread's four with
// an unrolled grid-stride loop whose loads cannot move above the previous
// element's store (the arrays might alias), so each thread has one load per
// array in flight; here a thread loads all four of its elements before it
// stores any, four loads per array in flight. HBM3 needs a few megabytes in
// flight to stay busy (bandwidth times latency), and a GPU holds only so
// many resident threads: loads per thread are how the kernel gets there.
#include <algorithm>
#include <cstdint>
#include <utility>

#include "backends/cuda/mem_kernels.hpp"
#include "mem/kernels.hpp"

namespace movebench::mem::cuda {
namespace {

// A number whose + and * are the explicitly rounded intrinsics: the row's
// formula (kernel_rows.hpp) evaluated on it rounds every operation on its
// own, as the host does.
template <class T>
struct Rounded {
  T v;
};
__device__ __forceinline__ Rounded<double> operator*(Rounded<double> x, Rounded<double> y) {
  return {__dmul_rn(x.v, y.v)};
}
__device__ __forceinline__ Rounded<double> operator+(Rounded<double> x, Rounded<double> y) {
  return {__dadd_rn(x.v, y.v)};
}
__device__ __forceinline__ Rounded<float> operator*(Rounded<float> x, Rounded<float> y) {
  return {__fmul_rn(x.v, y.v)};
}
__device__ __forceinline__ Rounded<float> operator+(Rounded<float> x, Rounded<float> y) {
  return {__fadd_rn(x.v, y.v)};
}

// Runs `op` over [0, n): block g's tile is elements [g * 1024, (g + 1) * 1024)
// (kThreads * kUnroll), thread t takes t, t + 256, t + 512, t + 768 of it
// (each access coalesced across the warp), all loaded (op.load) before any is
// stored (op.store). Tiles past the grid (more than 2^31 - 1 blocks, or a
// grid of the resident size: each_passes) are taken by a grid-stride loop,
// so a thread takes the same elements whenever it runs it. Indices are
// 64-bit throughout.
template <class Op>
__device__ __forceinline__ void each_tile(const Op& op, std::size_t n) {
  constexpr std::size_t kTile = std::size_t(kThreads) * kUnroll;
  for (std::size_t base = blockIdx.x * kTile + threadIdx.x; base < n; base += std::size_t(gridDim.x) * kTile) {
    typename Op::Loaded v[kUnroll];
    if (base + std::size_t(kUnroll - 1) * kThreads < n) {  // every tile but the last: no bounds checks
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) v[k] = op.load(base + std::size_t(k) * kThreads);
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) op.store(base + std::size_t(k) * kThreads, v[k]);
      continue;
    }
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      const std::size_t i = base + std::size_t(k) * kThreads;
      if (i < n) v[k] = op.load(i);
    }
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      const std::size_t i = base + std::size_t(k) * kThreads;
      if (i < n) op.store(i, v[k]);
    }
  }
}

template <class Op>
__global__ void each(Op op, std::size_t n) {
  each_tile(op, n);
}

// kernel_scalar's period of one kernel, passed by value.
template <class T>
struct ScalarTable {
  T v[kScalarPeriod];
};

// `passes` calls in one launch, call first + p with the table's scalar
// (first + p) % kScalarPeriod; every thread keeps its elements, so no pass
// waits for another thread's.
template <class Op, class T>
__global__ void each_passes(Op op, std::size_t n, ScalarTable<T> table, std::uint32_t first, std::uint32_t passes) {
  for (std::uint32_t p = 0; p < passes; ++p) {
    op.s = table.v[(first + p) % kScalarPeriod];
    each_tile(op, n);
  }
}

// An element-wise row as each() runs it: an element loads the arrays the row
// reads (in the order its formula takes them) and stores the formula's
// value into the array it writes.
template <class Row, class T, class In = typename Row::In>
struct Apply;
template <class Row, class T, Slot... In>
struct Apply<Row, T, Reads<In...>> {
  T* a;
  T* b;
  T* c;
  T* d;
  T s;
  struct Loaded {
    T v[sizeof...(In) == 0 ? 1 : sizeof...(In)];
  };
  __device__ Loaded load(std::size_t i) const { return Loaded{{slot<In>(*this)[i]...}}; }
  __device__ void store(std::size_t i, const Loaded& x) const { put(i, x, std::make_index_sequence<sizeof...(In)>{}); }
  template <std::size_t... J>
  __device__ void put(std::size_t i, const Loaded& x, std::index_sequence<J...>) const {
    slot<Row::writes>(*this)[i] = Row::formula(Rounded<T>{s}, Rounded<T>{x.v[J]}...).v;
  }
};

// BabelStream's dot shape (4 blocks per SM of 1024 threads, each thread a
// grid-strided share, a halving reduction in shared memory), reading one
// array. Each thread adds its share in double, in index order; four of its
// loads are issued before the first add (the adds stay in that order), so
// one array read gives as many bytes in flight as dot's two. Block g adds
// its total to partial[g]. The halving needs a power-of-two block. `passes`
// calls in one launch: each thread adds its share that many times.
template <class T>
__global__ void sum(const T* a, std::size_t n, double* partial, std::uint32_t passes) {
  static_assert((kSumThreads & (kSumThreads - 1)) == 0, "the halving needs a power of two");
  __shared__ double scratch[kSumThreads];
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  double total = 0;
  for (std::uint32_t p = 0; p < passes; ++p) {
    std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
      const T x0 = a[i], x1 = a[i + stride], x2 = a[i + 2 * stride], x3 = a[i + 3 * stride];
      total += x0;
      total += x1;
      total += x2;
      total += x3;
    }
    for (; i < n; i += stride) total += a[i];
  }
  scratch[threadIdx.x] = total;
  for (unsigned half = kSumThreads / 2; half > 0; half /= 2) {
    __syncthreads();
    if (threadIdx.x < half) scratch[threadIdx.x] += scratch[threadIdx.x + half];
  }
  if (threadIdx.x == 0) partial[blockIdx.x] += scratch[0];
}

unsigned blocks_for(std::size_t n) {
  constexpr std::size_t kTile = std::size_t(kThreads) * kUnroll;
  const std::size_t b = (n + kTile - 1) / kTile;
  return static_cast<unsigned>(b < 1 ? 1 : b > 0x7fffffffu ? 0x7fffffffu : b);
}

template <class Op>
void run(Op op, std::size_t n, cudaStream_t stream) {
  each<<<blocks_for(n), kThreads, 0, stream>>>(op, n);
}

}  // namespace

template <class T>
cudaError_t launch(int kernel, T* a, T* b, T* c, T* d, std::size_t n, T s, double* partial, int sum_blocks,
                   cudaStream_t stream) {
  visit_row(static_cast<Kernel>(kernel), [&](auto row) {
    using Row = decltype(row);
    if constexpr (Row::writes == Slot::kNone) {
      sum<<<sum_blocks, kSumThreads, 0, stream>>>(a, n, partial, 1u);  // the one reduction, sum
    } else {
      run(Apply<Row, T>{a, b, c, d, s}, n, stream);
    }
  });
  return cudaGetLastError();
}

template cudaError_t launch<double>(int, double*, double*, double*, double*, std::size_t, double, double*, int,
                                    cudaStream_t);
template cudaError_t launch<float>(int, float*, float*, float*, float*, std::size_t, float, double*, int, cudaStream_t);

template <class T>
cudaError_t launch_passes(int kernel, T* a, T* b, T* c, T* d, std::size_t n, const T* scalars, std::uint32_t first,
                          std::uint32_t passes, double* partial, int sum_blocks, int resident_blocks,
                          cudaStream_t stream) {
  visit_row(static_cast<Kernel>(kernel), [&](auto row) {
    using Row = decltype(row);
    if constexpr (Row::writes == Slot::kNone) {
      sum<<<sum_blocks, kSumThreads, 0, stream>>>(a, n, partial, passes);
    } else {
      ScalarTable<T> table{};
      for (std::uint32_t j = 0; j < kScalarPeriod; ++j) table.v[j] = scalars[j];
      const unsigned blocks = std::min(blocks_for(n), static_cast<unsigned>(resident_blocks < 1 ? 1 : resident_blocks));
      each_passes<<<blocks, kThreads, 0, stream>>>(Apply<Row, T>{a, b, c, d, T(0)}, n, table, first, passes);
    }
  });
  return cudaGetLastError();
}

template cudaError_t launch_passes<double>(int, double*, double*, double*, double*, std::size_t, const double*,
                                           std::uint32_t, std::uint32_t, double*, int, int, cudaStream_t);
template cudaError_t launch_passes<float>(int, float*, float*, float*, float*, std::size_t, const float*, std::uint32_t,
                                          std::uint32_t, double*, int, int, cudaStream_t);

}  // namespace movebench::mem::cuda
