// The CUDA kernels of link and stream, behind plain C++ launchers so that
// only cuda_kernels.cu goes through nvcc (small and quick to compile in CI).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace movebench::device::cuda {

// Threads per block of every kernel here.
constexpr int kThreadsPerBlock = 256;
// Words one block of transform (and of the persistent kernel) covers per
// pass: a 16-byte vector per thread where the buffers are aligned.
constexpr int kWordsPerBlockPass = 4 * kThreadsPerBlock;

// Loads every kernel here on the current device: cudaSuccess when this
// build has code it can run (a cubin for its architecture, or PTX the
// driver can compile for it). Called once, before any queue exists.
cudaError_t kernel_image_status();
// The CMAKE_CUDA_ARCHITECTURES this file was compiled for, for messages.
const char* built_architectures();

// The most blocks launch_transform should use on a GPU of `sms` SMs: as
// many as it holds resident at once (the occupancy calculator's figure).
int transform_blocks(int sms);
// dst[i] = src[i] * mul + add over n words (either side may be mapped host
// memory), in at most max_blocks blocks (transform_blocks()).
cudaError_t launch_transform(std::uint32_t* dst, const std::uint32_t* src, std::size_t n, std::uint32_t mul,
                             std::uint32_t add, int max_blocks, cudaStream_t stream);
// nvbandwidth's blocker: one thread spins until *flag != 0 (mapped host
// memory the host writes) or timeout_ns on the GPU's global timer passed.
cudaError_t launch_blocker(const std::uint32_t* flag, std::uint64_t timeout_ns, cudaStream_t stream);
// What one probe kernel writes to its mapped `out` words.
struct ProbeOut {
  std::uint64_t cycles;        // SM clock64 cycles of the probe
  std::uint64_t end;           // the word index the chase ended on, or the last value stored
  std::uint64_t calib_cycles;  // clock64 cycles over calib_ns nanoseconds of %globaltimer:
  std::uint64_t calib_ns;      //   the SM clock rate while the probe ran
  std::uint64_t ran_on;        // the SM (%smid) the probe ran on
  std::uint64_t sink;          // never written (keeps the last load's use)
};
// What ran_on holds until a probe writes it: a placed probe whose SM got no
// block leaves it so.
constexpr std::uint64_t kNotRun = ~std::uint64_t{0};
// The probe's modes: follow n links of the ring in `buf` from word 0 with
// uncached loads (host memory), store value + i to its words 0..n-1 and wait
// for them at system scope, or follow n links from word `value` with plain
// loads (device memory, through the caches).
constexpr int kProbeChase = 0, kProbeWrite = 1, kProbeCachedChase = 2;
// One thread, timed by the SM's clock64, runs the probe `mode`; around it
// the clock rate is measured against the global nanosecond timer over at
// least calib_ns.
cudaError_t launch_probe(std::uint32_t* buf, std::uint64_t n, int mode, std::uint32_t value, std::uint64_t calib_ns,
                         ProbeOut* out, cudaStream_t stream);
// The SMs a launch reaches: `blocks` one-thread blocks, each holding its SM
// for hold_ns (so that the grid is spread, not run one block after another
// on a few SMs), set seen[%smid] = 1 for every %smid below `ids`.
cudaError_t launch_census(std::uint32_t* seen, std::uint32_t ids, int blocks, std::uint64_t hold_ns,
                          cudaStream_t stream);
// The chase probe (kProbeChase) from SM `sm` (%smid): `blocks` one-thread
// blocks, of which the first to find itself on that SM claims the chase
// (atomicCAS on *claim, device memory, cleared here first) and the rest
// return at once. out->ran_on stays kNotRun when no block landed there; it
// is the SM at the chase's end, which the caller checks is still `sm`.
cudaError_t launch_placed_chase(std::uint32_t* ring, std::uint64_t n, std::uint32_t sm, int blocks,
                                std::uint32_t* claim, std::uint64_t calib_ns, ProbeOut* out, cudaStream_t stream);
// The persistent kernel of stream: `groups` blocks launched cooperatively
// (all co-resident, or the launch fails); chunk c starts when flags[c] != 0;
// block b ends it with flags[chunks + c * groups + b] = 1.
cudaError_t launch_serve(const std::uint32_t* in, std::uint32_t* out, std::uint32_t* flags, std::size_t words,
                         std::size_t chunks, int groups, std::uint64_t timeout_ns, cudaStream_t stream);

}  // namespace movebench::device::cuda
