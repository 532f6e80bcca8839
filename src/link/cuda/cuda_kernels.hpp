// The CUDA kernels of link and stream, behind plain C++ launchers so that
// only cuda_kernels.cu goes through nvcc (small and quick to compile in CI).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace movebench::link::cuda {

// dst[i] = src[i] * mul + add over n words (either side may be mapped host memory).
cudaError_t launch_transform(std::uint32_t* dst, const std::uint32_t* src, std::size_t n, std::uint32_t mul,
                             std::uint32_t add, cudaStream_t stream);
// nvbandwidth's blocker: one thread spins until *flag != 0 (mapped host
// memory the host writes) or timeout_ns on the GPU's clock have passed.
cudaError_t launch_blocker(const volatile std::uint32_t* flag, std::uint64_t timeout_ns, cudaStream_t stream);
// One thread follows `steps` links of the ring (uncached loads) and writes
// the SM cycles they took to out[0] and the end index to out[1].
cudaError_t launch_chase(const std::uint32_t* ring, std::uint64_t steps, std::uint64_t* out, cudaStream_t stream);
// The persistent kernel of stream: `groups` blocks; chunk c starts when
// flags[c] != 0; block b ends it with flags[chunks + c * groups + b] = 1.
cudaError_t launch_serve(const std::uint32_t* in, std::uint32_t* out, volatile std::uint32_t* flags,
                         std::size_t words, std::size_t chunks, int groups, std::uint64_t timeout_ns,
                         cudaStream_t stream);

}  // namespace movebench::link::cuda
