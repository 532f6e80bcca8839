// mem's kernels in CUDA, behind plain C++ launchers so that only
// mem_kernels.cu goes through nvcc.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace movebench::mem::cuda {

// Threads per block of the seven streaming kernels (BabelStream 5's TBSIZE,
// which its occupancy query clamps the block to) and elements per thread
// (its UNROLL_FACTOR): a block covers kThreads * kUnroll elements.
constexpr int kThreads = 256;
constexpr int kUnroll = 4;
// Threads per block of the sum (BabelStream's TBSIZE_DOT).
constexpr int kSumThreads = 1024;

// One call of kernel `kernel` (mem::Kernel's value) over elements [0, n) of
// a, b, c, d with scalar s; the sum adds each of its `sum_blocks` blocks'
// totals to partial[block] (double accumulators).
template <class T>
cudaError_t launch(int kernel, T* a, T* b, T* c, T* d, std::size_t n, T s, double* partial, int sum_blocks,
                   cudaStream_t stream);
// Calls first .. first + passes - 1 of kernel `kernel` in one launch, call
// first + p with scalars[(first + p) % kScalarPeriod] (host memory, the
// kernel's kScalarPeriod scalars), on a grid of at most `resident_blocks`
// (the sum: its `sum_blocks`, adding `passes` totals).
template <class T>
cudaError_t launch_passes(int kernel, T* a, T* b, T* c, T* d, std::size_t n, const T* scalars, std::uint32_t first,
                          std::uint32_t passes, double* partial, int sum_blocks, int resident_blocks,
                          cudaStream_t stream);

}  // namespace movebench::mem::cuda
