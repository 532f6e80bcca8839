// mem's eight kernels in CUDA (BabelStream's CUDA model, with
// TheBandwidthBenchmark's kernels): a grid-stride loop over the elements,
// and the sum as a block reduction in shared memory. Every product and sum
// is an explicitly rounded intrinsic (__dmul_rn, __dadd_rn and their float
// twins), which nvcc never fuses into a multiply-add, so the arrays match the
// host's replay bit for bit whatever -fmad says.
#include "mem/cuda/mem_kernels.hpp"
#include "mem/kernels.hpp"

namespace movebench::mem::cuda {
namespace {

__device__ __forceinline__ double mul(double x, double y) { return __dmul_rn(x, y); }
__device__ __forceinline__ double add(double x, double y) { return __dadd_rn(x, y); }
__device__ __forceinline__ float mul(float x, float y) { return __fmul_rn(x, y); }
__device__ __forceinline__ float add(float x, float y) { return __fadd_rn(x, y); }

__device__ __forceinline__ std::size_t first() { return blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; }
__device__ __forceinline__ std::size_t stride() { return std::size_t(gridDim.x) * blockDim.x; }

template <class T>
__global__ void init(T* b, std::size_t n, T s) {
  for (std::size_t i = first(); i < n; i += stride()) b[i] = s;
}
template <class T>
__global__ void copy(const T* a, T* c, std::size_t n) {
  for (std::size_t i = first(); i < n; i += stride()) c[i] = a[i];
}
template <class T>
__global__ void update(T* a, std::size_t n, T s) {
  for (std::size_t i = first(); i < n; i += stride()) a[i] = mul(a[i], s);
}
template <class T>
__global__ void triad(T* a, const T* b, const T* c, std::size_t n, T s) {
  for (std::size_t i = first(); i < n; i += stride()) a[i] = add(b[i], mul(c[i], s));
}
template <class T>
__global__ void daxpy(T* a, const T* b, std::size_t n, T s) {
  for (std::size_t i = first(); i < n; i += stride()) a[i] = add(a[i], mul(b[i], s));
}
template <class T>
__global__ void striad(T* a, const T* b, const T* c, const T* d, std::size_t n) {
  for (std::size_t i = first(); i < n; i += stride()) a[i] = add(b[i], mul(c[i], d[i]));
}
template <class T>
__global__ void sdaxpy(T* a, const T* b, const T* c, std::size_t n) {
  for (std::size_t i = first(); i < n; i += stride()) a[i] = add(a[i], mul(b[i], c[i]));
}
// Each thread adds up a strided share in double, the block halves its
// shared scratch until one value is left, and block g adds it to partial[g].
template <class T>
__global__ void sum(const T* a, std::size_t n, double* partial) {
  __shared__ double scratch[kThreadsPerBlock];
  double total = 0;
  for (std::size_t i = first(); i < n; i += stride()) total += a[i];
  scratch[threadIdx.x] = total;
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    __syncthreads();
    if (threadIdx.x < half) scratch[threadIdx.x] += scratch[threadIdx.x + half];
  }
  if (threadIdx.x == 0) partial[blockIdx.x] += scratch[0];
}

// One thread per element, as BabelStream launches them (the grid-stride
// loop only matters past 2^31 blocks).
unsigned blocks_for(std::size_t n) {
  const std::size_t b = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
  return static_cast<unsigned>(b < 1 ? 1 : b > 0x7fffffffu ? 0x7fffffffu : b);
}

}  // namespace

template <class T>
cudaError_t launch(int kernel, T* a, T* b, T* c, T* d, std::size_t n, T s, double* partial, int sum_blocks,
                   cudaStream_t stream) {
  const unsigned blocks = blocks_for(n);
  switch (static_cast<Kernel>(kernel)) {
    case Kernel::kInit: init<<<blocks, kThreadsPerBlock, 0, stream>>>(b, n, s); break;
    case Kernel::kSum: sum<<<sum_blocks, kThreadsPerBlock, 0, stream>>>(a, n, partial); break;
    case Kernel::kCopy: copy<<<blocks, kThreadsPerBlock, 0, stream>>>(a, c, n); break;
    case Kernel::kUpdate: update<<<blocks, kThreadsPerBlock, 0, stream>>>(a, n, s); break;
    case Kernel::kTriad: triad<<<blocks, kThreadsPerBlock, 0, stream>>>(a, b, c, n, s); break;
    case Kernel::kDaxpy: daxpy<<<blocks, kThreadsPerBlock, 0, stream>>>(a, b, n, s); break;
    case Kernel::kStriad: striad<<<blocks, kThreadsPerBlock, 0, stream>>>(a, b, c, d, n); break;
    case Kernel::kSdaxpy: sdaxpy<<<blocks, kThreadsPerBlock, 0, stream>>>(a, b, c, n); break;
  }
  return cudaGetLastError();
}

template cudaError_t launch<double>(int, double*, double*, double*, double*, std::size_t, double, double*, int,
                                    cudaStream_t);
template cudaError_t launch<float>(int, float*, float*, float*, float*, std::size_t, float, double*, int,
                                   cudaStream_t);

}  // namespace movebench::mem::cuda
