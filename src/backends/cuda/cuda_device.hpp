// The CUDA backend's types, for its parts above the device layer (mem's
// kernels, mem_cuda.cpp; stream's graph and memops designs, cuda_designs.cpp):
// a buffer's device pointer, a queue's stream, the driver's stream memory
// operations.
// Everything else goes through the Device interface.
#pragma once
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/cuda/cuda_kernels.hpp"
#include "core/buffer.hpp"
#include "core/host_info.hpp"
#include "device/device.hpp"
#include "device/persistent.hpp"
#include "device/unit_chase.hpp"
#include "device/wait.hpp"

#if CUDART_VERSION < 12000
#error "the CUDA backend needs a CUDA 12.0 or newer toolkit (graph instantiate flags, entry point status)"
#endif

namespace movebench::device::cuda {

// One line naming the call and the error (its name is what the CUDA
// documentation and forums index); throws std::runtime_error.
void check(cudaError_t err, const char* what);

class CudaBuffer : public Buffer {
 public:
  CudaBuffer(MemKind kind, std::size_t bytes) : Buffer(kind, bytes) {
    const std::size_t n = bytes ? bytes : 4;
    switch (kind) {
      case MemKind::kDevice: check(cudaMalloc(&device_, n), "cudaMalloc"); break;
      case MemKind::kPageable:
      case MemKind::kRegistered:
        pageable_ = written_buffer(n, 4096, std::byte{0});
        if (kind == MemKind::kRegistered) register_mapped(n);
        break;
      case MemKind::kPinned: check(cudaHostAlloc(&host_, n, cudaHostAllocDefault), "cudaHostAlloc"); break;
      case MemKind::kMapped:
      case MemKind::kWriteCombined: {
        const unsigned flags = cudaHostAllocMapped | (kind == MemKind::kWriteCombined ? cudaHostAllocWriteCombined : 0);
        check(cudaHostAlloc(&host_, n, flags), "cudaHostAlloc");
        check(cudaHostGetDevicePointer(&device_, host_, 0), "cudaHostGetDevicePointer");
        break;
      }
    }
  }
  ~CudaBuffer() override {
    if (kind() == MemKind::kDevice) cudaFree(device_);
    if (host_) cudaFreeHost(host_);
    if (kind() == MemKind::kRegistered) cudaHostUnregister(pageable_.data());
  }
  void* host() const override { return host_ ? host_ : pageable_.data(); }
  // What copies take (any kind) and what kernels take (device, mapped, write-combined, registered).
  void* copy_ptr() const { return device_ && kind() == MemKind::kDevice ? device_ : host(); }
  std::uint32_t* kernel_ptr() const {
    if (!device_) throw std::runtime_error("a CUDA kernel cannot reach pageable or unmapped pinned memory");
    return static_cast<std::uint32_t*>(device_);
  }

 private:
  // The program's own memory made pinned and mapped after the fact, as an MPI
  // library registers a user's buffer. A failure undoes the registration
  // before the throw: no destructor runs, and the memory must not be unmapped
  // while still registered.
  void register_mapped(std::size_t n) {
    check(cudaHostRegister(pageable_.data(), n, cudaHostRegisterMapped), "cudaHostRegister");
    if (const cudaError_t err = cudaHostGetDevicePointer(&device_, pageable_.data(), 0); err != cudaSuccess) {
      cudaHostUnregister(pageable_.data());
      check(err, "cudaHostGetDevicePointer");
    }
  }

  void* device_ = nullptr;
  void* host_ = nullptr;
  HostBuffer pageable_;
};

inline CudaBuffer& cb(Buffer& b) { return static_cast<CudaBuffer&>(b); }

class CudaEvent : public Event {
 public:
  // Timing events for marks (elapsed() reads them); events only waited on
  // skip the timestamp (cudaEventDisableTiming: cheaper to record and query).
  explicit CudaEvent(bool timing = true) {
    check(cudaEventCreateWithFlags(&event_, timing ? cudaEventDefault : cudaEventDisableTiming), "cudaEventCreate");
  }
  ~CudaEvent() override { cudaEventDestroy(event_); }
  bool done() override {
    const cudaError_t e = cudaEventQuery(event_);
    if (e == cudaErrorNotReady) return false;
    check(e, "cudaEventQuery");
    return true;
  }
  void wait(double timeout_s) override {
    if (!wait_until([this] { return done(); }, timeout_s))
      throw std::runtime_error("CUDA device did not answer in time");
  }
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

class CudaQueue : public Queue {
 public:
  // transform_blocks: CudaDevice::transform_blocks(); 0 for a queue that
  // runs no transform (the probe's, the persistent kernel's).
  explicit CudaQueue(int transform_blocks = 0) : transform_blocks_(transform_blocks) {
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  // Drained before it goes, so nothing it holds outlives it. Every wait that
  // can be queued ends by itself (the blocker and the persistent kernel time
  // out; memops waits are released by ReleaseAll before their stream goes).
  ~CudaQueue() override {
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
  }
  void copy(Buffer& dst, std::size_t doff, Buffer& src, std::size_t soff, std::size_t bytes) override {
    check(cudaMemcpyAsync(static_cast<char*>(cb(dst).copy_ptr()) + doff,
                          static_cast<const char*>(cb(src).copy_ptr()) + soff, bytes, cudaMemcpyDefault, stream_),
          "cudaMemcpyAsync");
  }
  void transform(Buffer& dst, std::size_t doff, Buffer& src, std::size_t soff, std::size_t words, std::uint32_t mul,
                 std::uint32_t add) override {
    if (transform_blocks_ < 1) throw std::logic_error("this CUDA queue was made without a transform grid");
    check(launch_transform(cb(dst).kernel_ptr() + doff, cb(src).kernel_ptr() + soff, words, mul, add, transform_blocks_,
                           stream_),
          "transform kernel");
  }
  void hold(Gate& gate) override;
  std::shared_ptr<Event> mark() override {
    auto e = std::make_shared<CudaEvent>();
    check(cudaEventRecord(e->get(), stream_), "cudaEventRecord");
    return e;
  }
  void after(const std::shared_ptr<Event>& event) override {  // the stream keeps the dependency itself
    check(cudaStreamWaitEvent(stream_, static_cast<CudaEvent&>(*event).get(), 0), "cudaStreamWaitEvent");
  }
  void finish(double timeout_s) override {
    CudaEvent end(false);
    check(cudaEventRecord(end.get(), stream_), "cudaEventRecord");
    end.wait(timeout_s);
  }
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
  int transform_blocks_ = 0;
};

// Stream memory operations from the driver (found at run time, so nothing
// links libcuda).
struct MemOps {
  using Op = CUresult (*)(CUstream, CUdeviceptr, cuuint32_t, unsigned);
  Op wait = nullptr, write = nullptr;
  CUresult (*error_name)(CUresult, const char**) = nullptr;
  bool load();  // false when the driver lacks them
  void check(CUresult r, const char* what) const;
};

class FlagPool;

class CudaDevice : public Device, public PersistentKernel, public UnitChase {
 public:
  explicit CudaDevice(int index);
  ~CudaDevice() override;
  std::string backend() const override { return "cuda"; }
  std::string name() const override { return prop_.name; }
  nlohmann::json facts() const override;
  std::vector<MemKind> host_kinds() const override {
    return {MemKind::kPageable, MemKind::kPinned, MemKind::kMapped, MemKind::kRegistered, MemKind::kWriteCombined};
  }
  bool kernel_reaches(MemKind k) const override {
    return k == MemKind::kMapped || k == MemKind::kWriteCombined || k == MemKind::kRegistered;
  }
  bool gate_works_with(MemKind k) const override { return k != MemKind::kPageable; }
  std::unique_ptr<Buffer> alloc(MemKind kind, std::size_t bytes) override {
    return std::make_unique<CudaBuffer>(kind, bytes);
  }
  std::unique_ptr<Queue> queue() override { return std::make_unique<CudaQueue>(transform_blocks_); }
  // The transform kernel's grid cap (cuda_kernels.hpp), for code that
  // launches it on a stream of its own (stream's graph and memops designs).
  int transform_blocks() const { return transform_blocks_; }
  std::unique_ptr<Gate> gate() override;
  double elapsed(Event& from, Event& to) override {
    float ms = 0;
    check(cudaEventElapsedTime(&ms, static_cast<CudaEvent&>(from).get(), static_cast<CudaEvent&>(to).get()),
          "cudaEventElapsedTime");
    return ms * 1e-3;
  }
  Timed probe(Probe what, Buffer& buf, std::size_t n, std::uint32_t value) override;
  bool has_persistent() const override { return cooperative_ != 0; }
  // One block per 1024 words of a chunk (a 16-byte vector per thread), at
  // most one per SM: every block
  // polls the host's flag across the link and publishes a done flag the
  // host reads, so idle blocks would only add latency.
  int persistent_groups(std::size_t chunk_words) const override;
  std::shared_ptr<Event> launch_persistent(const PersistentJob& job) override;
  // The driver's stream memory operations; nullptr when it lacks them.
  const MemOps* memops() const { return has_memops_ ? &memops_ : nullptr; }
  // The chase from one SM in turn (link's latency.chase_per_unit).
  UnitPlacement unit_placement() const override;
  std::vector<std::uint32_t> chase_units() override;
  std::optional<Timed> chase_on(std::uint32_t sm, Buffer& ring, std::size_t n) override;

 private:
  std::vector<CacheLevel> caches() const;  // the L1 per SM and the L2, as facts() records them

  int index_;
  cudaDeviceProp prop_{};
  int clock_khz_ = 0, sms_ = 1, cooperative_ = 0, transform_blocks_ = 1;
  std::unique_ptr<FlagPool> pool_;
  MemOps memops_;
  bool has_memops_ = false;
  std::unique_ptr<CudaQueue> persistent_queue_;
  std::unique_ptr<CudaBuffer> probe_out_;  // mapped: a cuda::ProbeOut
  std::unique_ptr<CudaBuffer> claim_;      // device memory: the placed chase's claim word

  // The probe's output, ran_on set to kNotRun, for a launch to fill.
  ProbeOut* fresh_probe_out();
};

}  // namespace movebench::device::cuda
