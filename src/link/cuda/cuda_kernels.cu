#include "link/cuda/cuda_kernels.hpp"

namespace movebench::link::cuda {
namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ std::uint64_t global_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

__global__ void transform(std::uint32_t* dst, const std::uint32_t* src, std::size_t n, std::uint32_t mul,
                          std::uint32_t add) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    dst[i] = src[i] * mul + add;
  }
}

__global__ void blocker(const volatile std::uint32_t* flag, std::uint64_t timeout_ns) {
  const std::uint64_t start = global_ns();
  while (*flag == 0 && global_ns() - start < timeout_ns) {
  }
}

__global__ void chase(const std::uint32_t* ring, std::uint64_t steps, std::uint64_t* out) {
  std::uint32_t at = 0;
  const long long start = clock64();
  for (std::uint64_t i = 0; i < steps; ++i) at = __ldcv(ring + at);  // uncached: every load crosses the link
  // Branching on the last value makes the clock read wait for that load.
  if (at == 0xffffffffu) out[2] = 1;
  const long long end = clock64();
  out[0] = static_cast<std::uint64_t>(end - start);
  out[1] = at;
}

__global__ void serve(const std::uint32_t* in, std::uint32_t* out, volatile std::uint32_t* flags, std::size_t words,
                      std::size_t chunks, std::uint64_t timeout_ns) {
  __shared__ int give_up;
  if (threadIdx.x == 0) {
    flags[chunks * (1 + gridDim.x) + blockIdx.x] = 1;  // running
    __threadfence_system();
  }
  for (std::size_t c = 0; c < chunks; ++c) {
    if (threadIdx.x == 0) {
      const std::uint64_t start = global_ns();
      give_up = 0;
      while (flags[c] == 0) {
        if (global_ns() - start > timeout_ns) {
          give_up = 1;
          break;
        }
      }
    }
    __syncthreads();
    if (give_up) return;
    const std::size_t first = c * words;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < words;
         i += std::size_t(gridDim.x) * blockDim.x) {
      out[first + i] = in[first + i] * 3u + 1u;
    }
    __threadfence_system();  // the chunk's output is visible to the host before its done flag
    __syncthreads();
    if (threadIdx.x == 0) flags[chunks + c * gridDim.x + blockIdx.x] = 1;
  }
}

int blocks_for(std::size_t n) {
  const std::size_t b = (n + kThreads - 1) / kThreads;
  return static_cast<int>(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

}  // namespace

cudaError_t launch_transform(std::uint32_t* dst, const std::uint32_t* src, std::size_t n, std::uint32_t mul,
                             std::uint32_t add, cudaStream_t stream) {
  transform<<<blocks_for(n), kThreads, 0, stream>>>(dst, src, n, mul, add);
  return cudaGetLastError();
}

cudaError_t launch_blocker(const volatile std::uint32_t* flag, std::uint64_t timeout_ns, cudaStream_t stream) {
  blocker<<<1, 1, 0, stream>>>(flag, timeout_ns);
  return cudaGetLastError();
}

cudaError_t launch_chase(const std::uint32_t* ring, std::uint64_t steps, std::uint64_t* out, cudaStream_t stream) {
  chase<<<1, 1, 0, stream>>>(ring, steps, out);
  return cudaGetLastError();
}

cudaError_t launch_serve(const std::uint32_t* in, std::uint32_t* out, volatile std::uint32_t* flags,
                         std::size_t words, std::size_t chunks, int groups, std::uint64_t timeout_ns,
                         cudaStream_t stream) {
  serve<<<groups, kThreads, 0, stream>>>(in, out, flags, words, chunks, timeout_ns);
  return cudaGetLastError();
}

}  // namespace movebench::link::cuda
