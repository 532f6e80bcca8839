#include "backends/cuda/cuda_kernels.hpp"

#include <algorithm>
#include <cstdint>

#ifndef MOVEBENCH_CUDA_ARCHS
#define MOVEBENCH_CUDA_ARCHS "?"
#endif

namespace movebench::device::cuda {
namespace {

constexpr int kThreads = kThreadsPerBlock;

__device__ __forceinline__ std::uint64_t global_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

// Flags in mapped host memory are read and written at system scope with
// acquire/release (PTX ISA 6.0, sm_70+; the mapping CUDA C++ atomics use):
// what the host wrote before a flag is seen after it, and what the GPU
// wrote before a flag reaches host memory before the flag does.
__device__ __forceinline__ std::uint32_t load_acquire(const std::uint32_t* p) {
  std::uint32_t v;
  asm volatile("ld.acquire.sys.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_release(std::uint32_t* p, std::uint32_t v) {
  asm volatile("st.release.sys.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Spins until *flag != 0 (true) or timeout_ns passed (false): no device-side
// wait is unbounded.
__device__ bool wait_flag(const std::uint32_t* flag, std::uint64_t timeout_ns) {
  const std::uint64_t start = global_ns();
  while (load_acquire(flag) == 0) {
    if (global_ns() - start > timeout_ns) return false;
  }
  return true;
}

__device__ __forceinline__ uint4 apply(uint4 v, std::uint32_t mul, std::uint32_t add) {
  return make_uint4(v.x * mul + add, v.y * mul + add, v.z * mul + add, v.w * mul + add);
}

// dst[i] = src[i] * mul + add for i < n, shared by the grid's threads: the
// link's kernel (SM) path, stream's chunk kernel and the persistent kernel's
// chunks. Shaped like nvbandwidth's SM copy (stridingMemcpyKernel): 16-byte
// accesses, and once the grid is capped at what the GPU holds resident,
// kUnroll loads in flight per thread before any store. A copy through host
// memory is bound by the bytes in flight across the link, not by the SMs:
// one 4-byte load per thread left the figure to the count of resident warps.
// Loads and stores stay in program order (no __restrict__: the link clears a
// buffer in place, dst == src, safe because each thread stores only what it
// loaded). Buffers not both 16-byte aligned go word by word; the n % 4 words
// past the last vector are done by block 0.
constexpr int kUnroll = 4;
__device__ __forceinline__ bool vectors_fit(const std::uint32_t* dst, const std::uint32_t* src) {
  return ((reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src)) & 15) == 0;
}
__device__ void transform_range(std::uint32_t* dst, const std::uint32_t* src, std::size_t n, std::uint32_t mul,
                                std::uint32_t add) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (!vectors_fit(dst, src)) {
    for (; i < n; i += stride) dst[i] = src[i] * mul + add;
    return;
  }
  auto* d4 = reinterpret_cast<uint4*>(dst);
  const auto* s4 = reinterpret_cast<const uint4*>(src);
  const std::size_t n4 = n / 4;
  for (; i + (kUnroll - 1) * stride < n4; i += kUnroll * stride) {
    uint4 v[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) v[k] = s4[i + k * stride];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) d4[i + k * stride] = apply(v[k], mul, add);
  }
  for (; i < n4; i += stride) d4[i] = apply(s4[i], mul, add);
  const std::size_t t = n4 * 4 + threadIdx.x;
  if (blockIdx.x == 0 && t < n) dst[t] = src[t] * mul + add;
}

__global__ void transform(std::uint32_t* dst, const std::uint32_t* src, std::size_t n, std::uint32_t mul,
                          std::uint32_t add) {
  transform_range(dst, src, n, mul, add);
}

__global__ void blocker(const std::uint32_t* flag, std::uint64_t timeout_ns) { wait_flag(flag, timeout_ns); }

// The first global-timer value above `after`, and clock64 right then: the
// timer may advance in steps (as coarse as 1 us on some GPUs), so a rate is
// only measured from one step to another.
__device__ std::uint64_t next_tick(std::uint64_t after, long long& cycles) {
  std::uint64_t t;
  while ((t = global_ns()) <= after) {
  }
  cycles = clock64();
  return t;
}

// n dependent loads from word `at`: uncached (every load crosses the link
// to host memory), or plain, through the L1 and L2 (device memory).
template <bool kCached>
__device__ std::uint32_t chase(const std::uint32_t* ring, std::uint64_t n, std::uint32_t at, ProbeOut* out) {
  for (std::uint64_t i = 0; i < n; ++i) at = kCached ? ring[at] : __ldcv(ring + at);
  // Branching on the last value makes the clock read after it wait for that load.
  if (at == 0xffffffffu) out->sink = 1;
  return at;
}

// n stores, then a system-scope fence, which waits until they are performed
// for the host (hdl_single_engine's write response).
__device__ std::uint32_t store(std::uint32_t* words, std::uint64_t n, std::uint32_t value) {
  for (std::uint64_t i = 0; i < n; ++i) words[i] = value + static_cast<std::uint32_t>(i);
  __threadfence_system();
  return n ? value + static_cast<std::uint32_t>(n - 1) : 0u;
}

__device__ __forceinline__ std::uint32_t sm_id() {
  std::uint32_t id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

// The probe in the calling thread, timed by clock64, the SM clock's rate
// measured against %globaltimer around it over at least calib_ns.
__device__ void run_probe(std::uint32_t* buf, std::uint64_t n, int mode, std::uint32_t value, std::uint64_t calib_ns,
                          ProbeOut* out) {
  long long c0 = 0, c1 = 0;
  const std::uint64_t n0 = next_tick(global_ns(), c0);
  const long long start = clock64();
  const std::uint32_t last = mode == kProbeWrite         ? store(buf, n, value)
                             : mode == kProbeCachedChase ? chase<true>(buf, n, value, out)
                                                         : chase<false>(buf, n, 0, out);
  const long long end = clock64();
  const std::uint64_t now = global_ns();
  const std::uint64_t n1 = next_tick(now > n0 + calib_ns ? now : n0 + calib_ns, c1);
  out->cycles = static_cast<std::uint64_t>(end - start);
  out->end = last;
  out->calib_cycles = static_cast<std::uint64_t>(c1 - c0);
  out->calib_ns = n1 - n0;
  out->ran_on = sm_id();
}

// One thread, on whichever SM the launch gives it.
__global__ void probe(std::uint32_t* buf, std::uint64_t n, int mode, std::uint32_t value, std::uint64_t calib_ns,
                      ProbeOut* out) {
  run_probe(buf, n, mode, value, calib_ns, out);
}

// Every block marks the SM it runs on and holds it a while, so that the
// scheduler spreads the grid over the SMs instead of reusing a few.
__global__ void census(std::uint32_t* seen, std::uint32_t ids, std::uint64_t hold_ns) {
  const std::uint32_t id = sm_id();
  if (id < ids) seen[id] = 1;
  const std::uint64_t start = global_ns();
  while (global_ns() - start < hold_ns) {
  }
}

// The chase from SM `sm` alone: the first block there claims it (device
// memory atomics: those on mapped host memory are not promised across PCIe),
// every other block returns before the chase starts.
__global__ void placed_chase(std::uint32_t* ring, std::uint64_t n, std::uint32_t sm, std::uint32_t* claim,
                             std::uint64_t calib_ns, ProbeOut* out) {
  if (sm_id() != sm || atomicCAS(claim, 0u, 1u) != 0u) return;
  run_probe(ring, n, kProbeChase, 0, calib_ns, out);
}

__global__ void serve(const std::uint32_t* in, std::uint32_t* out, std::uint32_t* flags, std::size_t words,
                      std::size_t chunks, std::uint64_t timeout_ns) {
  __shared__ bool released;
  const std::size_t groups = gridDim.x;
  if (threadIdx.x == 0) store_release(&flags[chunks * (1 + groups) + blockIdx.x], 1);  // running
  for (std::size_t c = 0; c < chunks; ++c) {
    if (threadIdx.x == 0) released = wait_flag(&flags[c], timeout_ns);
    __syncthreads();
    if (!released) return;  // the host gave up: so does the group
    transform_range(out + c * words, in + c * words, words, 3u, 1u);
    // The barrier orders every thread's output before thread 0's release
    // store, which publishes them all system-wide before the done flag
    // (the pattern of cooperative groups' grid sync). It also keeps thread 0
    // from overwriting `released` while others still read it.
    __syncthreads();
    if (threadIdx.x == 0) store_release(&flags[chunks + c * groups + blockIdx.x], 1);
  }
}

// One thread per unit of work (a word, or a 16-byte vector) up to `most`
// blocks, the GPU's resident blocks: past that the grid-stride loop, with
// its loads in flight, takes over.
int blocks_for(std::size_t units, int most) {
  const std::size_t b = (units + kThreads - 1) / kThreads;
  return static_cast<int>(b < 1 ? 1 : b > static_cast<std::size_t>(most) ? most : b);
}

}  // namespace

// Asking for a kernel's attributes loads it (nvbandwidth's preloadKernels
// does the same). With CUDA 12's lazy loading (the default since 12.2) a
// kernel is otherwise loaded at its first launch, and loading may
// synchronise the context: a first transform queued while the blocker spins
// on the host's flag, or behind a stream wait of the memops design, would
// wait for work that waits for this very thread.
cudaError_t kernel_image_status() {
  const void* kernels[] = {reinterpret_cast<const void*>(transform), reinterpret_cast<const void*>(blocker),
                           reinterpret_cast<const void*>(probe),     reinterpret_cast<const void*>(serve),
                           reinterpret_cast<const void*>(census),    reinterpret_cast<const void*>(placed_chase)};
  for (const void* kernel : kernels) {
    cudaFuncAttributes attributes{};
    if (const cudaError_t err = cudaFuncGetAttributes(&attributes, kernel); err != cudaSuccess) return err;
  }
  return cudaSuccess;
}

const char* built_architectures() { return MOVEBENCH_CUDA_ARCHS; }

int transform_blocks(int sms) {
  int per_sm = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, transform, kThreads, 0) != cudaSuccess || per_sm < 1) {
    per_sm = 1;
  }
  return std::max(1, sms) * per_sm;
}

cudaError_t launch_transform(std::uint32_t* dst, const std::uint32_t* src, std::size_t n, std::uint32_t mul,
                             std::uint32_t add, int max_blocks, cudaStream_t stream) {
  const bool vectors = ((reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src)) & 15) == 0;
  transform<<<blocks_for(vectors ? n / 4 : n, max_blocks), kThreads, 0, stream>>>(dst, src, n, mul, add);
  return cudaGetLastError();
}

cudaError_t launch_blocker(const std::uint32_t* flag, std::uint64_t timeout_ns, cudaStream_t stream) {
  blocker<<<1, 1, 0, stream>>>(flag, timeout_ns);
  return cudaGetLastError();
}

cudaError_t launch_probe(std::uint32_t* buf, std::uint64_t n, int mode, std::uint32_t value, std::uint64_t calib_ns,
                         ProbeOut* out, cudaStream_t stream) {
  probe<<<1, 1, 0, stream>>>(buf, n, mode, value, calib_ns, out);
  return cudaGetLastError();
}

cudaError_t launch_census(std::uint32_t* seen, std::uint32_t ids, int blocks, std::uint64_t hold_ns,
                          cudaStream_t stream) {
  census<<<blocks, 1, 0, stream>>>(seen, ids, hold_ns);
  return cudaGetLastError();
}

cudaError_t launch_placed_chase(std::uint32_t* ring, std::uint64_t n, std::uint32_t sm, int blocks,
                                std::uint32_t* claim, std::uint64_t calib_ns, ProbeOut* out, cudaStream_t stream) {
  if (const cudaError_t err = cudaMemsetAsync(claim, 0, sizeof *claim, stream); err != cudaSuccess) return err;
  placed_chase<<<blocks, 1, 0, stream>>>(ring, n, sm, claim, calib_ns, out);
  return cudaGetLastError();
}

// Cooperative: the groups spin for the host and never for each other, but
// the host waits for every group, so a group left unscheduled behind the
// others would stall the pass until the time-out. A cooperative launch
// guarantees all blocks are resident at once (or fails with
// cudaErrorCooperativeLaunchTooLarge).
cudaError_t launch_serve(const std::uint32_t* in, std::uint32_t* out, std::uint32_t* flags, std::size_t words,
                         std::size_t chunks, int groups, std::uint64_t timeout_ns, cudaStream_t stream) {
  void* args[] = {&in, &out, &flags, &words, &chunks, &timeout_ns};
  return cudaLaunchCooperativeKernel(serve, dim3(groups), dim3(kThreads), args, 0, stream);
}

}  // namespace movebench::device::cuda
