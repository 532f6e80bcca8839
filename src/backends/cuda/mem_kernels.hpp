// mem's kernels in CUDA, behind plain C++ launchers so that only
// mem_kernels.cu goes through nvcc.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>

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

}  // namespace movebench::mem::cuda
