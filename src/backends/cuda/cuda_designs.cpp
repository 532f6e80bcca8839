// Stream's CUDA-only designs: graph launches and kernels gated by stream
// memory operations, rows the CUDA backend adds to the design table
// (its row of the backend registry: add_designs).
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "backends/cuda/cuda_device.hpp"
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "device/wait.hpp"
#include "stream/designs.hpp"

namespace movebench::stream {
namespace {

using device::wait_until;
using device::cuda::cb;
using device::cuda::check;
using device::cuda::CudaBuffer;
using device::cuda::CudaDevice;
using device::cuda::CudaQueue;
using device::cuda::launch_transform;
using device::cuda::MemOps;

// Graph launches: one instantiated graph per chunk (its kernel node bound to
// the chunk), built and uploaded to the GPU before the pass (else the first
// launch of each graph does the upload); the pass only launches them. One
// graph per chunk is why its row has a chunk limit (kGraphMaxChunks).
//   host:    launch g0, g1 .. (wait c0) seen0, launch g2 ...
//   stream:    [K0][K1][K2] ...
ChunkTimes graph(Device& device, const StreamJob& job, DesignState&) {
  const int blocks = static_cast<CudaDevice&>(device).transform_blocks();
  CudaQueue q;
  // Destroyed before the stream is drained: the runtime frees a graph still
  // in flight when it completes.
  struct Execs {
    std::vector<cudaGraphExec_t> all;
    ~Execs() {
      for (auto e : all) cudaGraphExecDestroy(e);
    }
  } execs;
  for (std::size_t c = 0; c < job.chunks; ++c) {
    const std::size_t at = c * job.chunk_words;
    check(cudaStreamBeginCapture(q.get(), cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
    const cudaError_t launched = launch_transform(cb(*job.out).kernel_ptr() + at, cb(*job.in).kernel_ptr() + at,
                                                  job.chunk_words, 3, 1, blocks, q.get());
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(q.get(), &graph);  // ends the capture even after a failed launch
    cudaGraphExec_t exec = nullptr;
    const cudaError_t made =
        launched == cudaSuccess && ended == cudaSuccess ? cudaGraphInstantiate(&exec, graph, 0) : cudaSuccess;
    if (graph) cudaGraphDestroy(graph);
    check(launched, "captured kernel");
    check(ended, "cudaStreamEndCapture");
    check(made, "cudaGraphInstantiate");
    execs.all.push_back(exec);
    check(cudaGraphUpload(exec, q.get()), "cudaGraphUpload");
  }
  q.finish(job.timeout_s);  // uploads done before the pass starts
  return windowed(job, [&](std::size_t c) {
    check(cudaGraphLaunch(execs.all[c], q.get()), "cudaGraphLaunch");
    return q.mark();
  });
}

// Stream memory operations: every chunk's kernel is queued before the pass
// behind a wait on its flag in mapped memory, followed by a write of its
// done flag. The host then only writes a flag per chunk and polls another:
// no launch and no driver call on a chunk's path.
//   host:    write go0 go1 (poll done0) seen0 write go2 ...
//   stream:  [wait go0][K0][write done0][wait go1][K1][write done1] ...
// A stream wait has no time-out: until its flag is written the stream
// (and the hardware queue it shares) is stopped. So the host's waits are
// bounded, and ReleaseAll writes every go flag on the way out, whatever
// happened, before the stream is drained and the flags freed.
ChunkTimes memops(Device& device, const StreamJob& job, DesignState&) {
  const auto& cuda_device = static_cast<CudaDevice&>(device);
  const MemOps& ops = *cuda_device.memops();
  // Chunks queued ahead of the host: more than the window needs, few enough
  // (3 operations each) that a launch never blocks on a full command queue
  // while the stream waits for a flag only this thread will write.
  const std::size_t ahead = std::max<std::size_t>(64, static_cast<std::size_t>(job.inflight) + 1);
  // Destroyed in reverse: flags released, then the stream drained, then the flags freed.
  CudaBuffer flags(MemKind::kMapped, 2 * job.chunks * 4);
  CudaQueue q;
  auto* host = flags.as<std::uint32_t>();
  std::memset(host, 0, 2 * job.chunks * 4);
  ReleaseAll release(host, job.chunks);
  const auto dev = reinterpret_cast<CUdeviceptr>(flags.kernel_ptr());
  auto enqueue = [&](std::size_t c) {
    const std::size_t at = c * job.chunk_words;
    ops.check(ops.wait(q.get(), dev + c * 4, 1, CU_STREAM_WAIT_VALUE_GEQ), "cuStreamWaitValue32");
    check(launch_transform(cb(*job.out).kernel_ptr() + at, cb(*job.in).kernel_ptr() + at, job.chunk_words, 3, 1,
                           cuda_device.transform_blocks(), q.get()),
          "memops kernel");
    // The default write is ordered after the kernel's writes (a system-wide
    // fence scoped to the stream): output first, then the done flag.
    ops.check(ops.write(q.get(), dev + (job.chunks + c) * 4, 1, CU_STREAM_WRITE_VALUE_DEFAULT), "cuStreamWriteValue32");
  };
  std::size_t queued = 0;
  while (queued < std::min(job.chunks, ahead)) enqueue(queued++);
  ChunkTimes t;
  t.seen.assign(job.chunks, 0);
  std::size_t retired = 0;
  auto retire = [&] {
    auto ready = [&] {
      return std::atomic_ref<std::uint32_t>(host[job.chunks + retired]).load(std::memory_order_acquire) != 0;
    };
    if (!wait_until(ready, job.timeout_s)) throw std::runtime_error("memops design: the GPU did not answer in time");
    t.seen[retired++] = now_seconds();
    if (queued < job.chunks) enqueue(queued++);
  };
  for (std::size_t c = 0; c < job.chunks; ++c) {
    if (c >= static_cast<std::size_t>(job.inflight)) retire();
    t.submitted.push_back(now_seconds());
    std::atomic_ref<std::uint32_t>(host[c]).store(1, std::memory_order_release);
  }
  while (retired < job.chunks) retire();
  q.finish(job.timeout_s);
  return t;
}

bool on_cuda(Device& device) { return dynamic_cast<CudaDevice*>(&device) != nullptr; }
bool has_memops(Device& device) { return on_cuda(device) && static_cast<CudaDevice&>(device).memops(); }
// Both make what they need per pass (their graphs, their flags and stream).
DesignState nothing(Device&, const StreamJob&) { return {}; }

// One instantiated graph (and its device-side upload) per chunk: bounded so a
// pass never holds more than this many graphs at once.
constexpr std::size_t kGraphMaxChunks = 4096;

}  // namespace

void add_cuda_designs(std::vector<Design>& table) {
  table.push_back({"graph", "CUDA graph launches per chunk", on_cuda, nothing, graph, kGraphMaxChunks});
  table.push_back({"memops", "pre-queued kernels gated by stream memory operations", has_memops, nothing, memops});
}

}  // namespace movebench::stream
