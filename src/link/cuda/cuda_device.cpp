// The CUDA backend (NVIDIA GPUs): streams, events on the GPU clock,
// cudaHostAlloc for pinned, mapped and write-combined host memory, the
// nvbandwidth blocker as the gate, a clock64 pointer chase through host
// memory, a persistent kernel, and two CUDA-only stream designs: graph
// launches and kernels gated by stream memory operations.
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <atomic>
#include <cstring>
#include <stdexcept>

#include "core/buffer.hpp"
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "link/backends.hpp"
#include "link/cuda/cuda_kernels.hpp"
#include "link/stream_designs.hpp"
#include "link/wait.hpp"

namespace movebench::link {
namespace {

using cuda::launch_blocker;
using cuda::launch_chase;
using cuda::launch_serve;
using cuda::launch_transform;

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(fmt::format("CUDA {} failed: {}", what, cudaGetErrorString(err)));
}

constexpr double kGateSeconds = 10;

class CudaBuffer : public Buffer {
 public:
  CudaBuffer(MemKind kind, std::size_t bytes) : Buffer(kind, bytes) {
    const std::size_t n = bytes ? bytes : 4;
    switch (kind) {
      case MemKind::kDevice: check(cudaMalloc(&device_, n), "cudaMalloc"); break;
      case MemKind::kPageable:
      case MemKind::kRegistered:
        pageable_ = HostBuffer(n, 4096);
        std::memset(pageable_.data(), 0, n);
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

CudaBuffer& cb(Buffer& b) { return static_cast<CudaBuffer&>(b); }

class CudaEvent : public Event {
 public:
  CudaEvent() { check(cudaEventCreate(&event_), "cudaEventCreate"); }
  ~CudaEvent() override { cudaEventDestroy(event_); }
  bool done() override {
    const cudaError_t e = cudaEventQuery(event_);
    if (e == cudaErrorNotReady) return false;
    check(e, "cudaEventQuery");
    return true;
  }
  void wait(double timeout_s) override {
    if (!wait_until([this] { return done(); }, timeout_s)) throw std::runtime_error("CUDA device did not answer in time");
  }
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

// Gates take slots of one mapped page of flags: no allocation (which may
// synchronise the device) per test.
class FlagPool {
 public:
  FlagPool() {
    check(cudaHostAlloc(reinterpret_cast<void**>(&host_), kSlots * 4, cudaHostAllocMapped), "cudaHostAlloc flags");
    check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_), host_, 0), "flag device pointer");
  }
  ~FlagPool() { cudaFreeHost(host_); }
  std::size_t take() {
    const std::size_t slot = next_++ % kSlots;
    std::atomic_ref<std::uint32_t>(host_[slot]).store(0, std::memory_order_release);
    return slot;
  }
  std::uint32_t* host(std::size_t slot) { return host_ + slot; }
  std::uint32_t* device(std::size_t slot) { return device_ + slot; }

 private:
  static constexpr std::size_t kSlots = 1024;
  std::uint32_t* host_ = nullptr;
  std::uint32_t* device_ = nullptr;
  std::size_t next_ = 0;
};

class CudaGate : public Gate {
 public:
  CudaGate(FlagPool& pool) : pool_(pool), slot_(pool.take()) {}
  ~CudaGate() override { open(); }
  void open() override { std::atomic_ref<std::uint32_t>(*pool_.host(slot_)).store(1, std::memory_order_release); }
  const volatile std::uint32_t* device_flag() { return pool_.device(slot_); }

 private:
  FlagPool& pool_;
  std::size_t slot_;
};

class CudaQueue : public Queue {
 public:
  CudaQueue() { check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate"); }
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
    check(launch_transform(cb(dst).kernel_ptr() + doff, cb(src).kernel_ptr() + soff, words, mul, add, stream_),
          "transform kernel");
  }
  void hold(Gate& gate) override {
    const auto ns = static_cast<std::uint64_t>(kGateSeconds * 1e9);
    check(launch_blocker(static_cast<CudaGate&>(gate).device_flag(), ns, stream_), "blocker kernel");
  }
  std::shared_ptr<Event> mark() override {
    auto e = std::make_shared<CudaEvent>();
    check(cudaEventRecord(e->get(), stream_), "cudaEventRecord");
    return e;
  }
  void after(Event& event) override {
    check(cudaStreamWaitEvent(stream_, static_cast<CudaEvent&>(event).get(), 0), "cudaStreamWaitEvent");
  }
  void finish(double timeout_s) override { mark()->wait(timeout_s); }
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// Stream memory operations from the driver, found at run time through the
// runtime (so nothing links libcuda).
struct MemOps {
  CUresult (*wait)(CUstream, CUdeviceptr, cuuint32_t, unsigned) = nullptr;
  CUresult (*write)(CUstream, CUdeviceptr, cuuint32_t, unsigned) = nullptr;
  bool load() {
    cudaDriverEntryPointQueryResult q{};
    void* w = nullptr;
    void* r = nullptr;
    if (cudaGetDriverEntryPointByVersion("cuStreamWaitValue32", &w, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess) {
      return false;
    }
    if (cudaGetDriverEntryPointByVersion("cuStreamWriteValue32", &r, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess) {
      return false;
    }
    wait = reinterpret_cast<decltype(wait)>(w);
    write = reinterpret_cast<decltype(write)>(r);
    return true;
  }
};

class CudaDevice : public Device {
 public:
  explicit CudaDevice(int index) : index_(index) {
    check(cudaSetDevice(index), "cudaSetDevice");
    check(cudaGetDeviceProperties(&prop_, index), "cudaGetDeviceProperties");
    check(cudaDeviceGetAttribute(&clock_khz_, cudaDevAttrClockRate, index), "clock rate");
    check(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, index), "SM count");
    pool_ = std::make_unique<FlagPool>();
    has_memops_ = memops_.load();
  }
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
  std::unique_ptr<Queue> queue() override { return std::make_unique<CudaQueue>(); }
  std::unique_ptr<Gate> gate() override { return std::make_unique<CudaGate>(*pool_); }
  double elapsed(Event& from, Event& to) override {
    float ms = 0;
    check(cudaEventElapsedTime(&ms, static_cast<CudaEvent&>(from).get(), static_cast<CudaEvent&>(to).get()),
          "cudaEventElapsedTime");
    return ms * 1e-3;
  }
  Timed chase(Buffer& ring, std::size_t steps) override;
  bool has_persistent() const override { return true; }
  int persistent_groups() const override { return sms_; }
  std::shared_ptr<Event> launch_persistent(const PersistentJob& job) override;
  std::vector<std::string> extra_designs() const override {
    return has_memops_ ? std::vector<std::string>{"graph", "memops"} : std::vector<std::string>{"graph"};
  }
  ChunkTimes run_extra_design(const std::string& design, const StreamJob& job) override {
    return design == "graph" ? graph_design(job) : memops_design(job);
  }

 private:
  ChunkTimes graph_design(const StreamJob& job);
  ChunkTimes memops_design(const StreamJob& job);

  int index_;
  cudaDeviceProp prop_{};
  int clock_khz_ = 0, sms_ = 1;
  std::unique_ptr<FlagPool> pool_;
  MemOps memops_;
  bool has_memops_ = false;
  std::unique_ptr<CudaQueue> persistent_queue_;
  std::unique_ptr<CudaBuffer> chase_out_;
};

nlohmann::json CudaDevice::facts() const {
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  char bus[32] = {};
  cudaDeviceGetPCIBusId(bus, sizeof bus, index_);
  return {{"backend", "cuda"},
          {"index", index_},
          {"compute_capability", fmt::format("{}.{}", prop_.major, prop_.minor)},
          {"multiprocessors", sms_},
          {"sm_clock_khz", clock_khz_},
          {"cuda_runtime_version", runtime},
          {"cuda_driver_version", driver},
          {"bus_id", std::string(bus)},
          {"stream_memops", has_memops_},
          {"clock", "cuda events; chase: SM clock64 at the peak clock rate"}};
}

// The SM's cycle counter around the chase, converted at the peak clock the
// GPU reports: if the SM runs slower, the true time is longer, which is why
// the clock name carries the rate used.
Timed CudaDevice::chase(Buffer& ring, std::size_t steps) {
  if (!chase_out_) chase_out_ = std::make_unique<CudaBuffer>(MemKind::kMapped, 4 * sizeof(std::uint64_t));
  CudaQueue q;
  auto* out = static_cast<std::uint64_t*>(chase_out_->host());
  check(launch_chase(cb(ring).kernel_ptr(), steps, reinterpret_cast<std::uint64_t*>(chase_out_->kernel_ptr()),
                     q.get()),
        "chase kernel");
  q.finish(60);
  const double seconds = static_cast<double>(out[0]) / (clock_khz_ * 1e3);
  return {seconds, fmt::format("gpu clock64 at {} MHz", clock_khz_ / 1000), static_cast<std::uint32_t>(out[1])};
}

std::shared_ptr<Event> CudaDevice::launch_persistent(const PersistentJob& job) {
  persistent_queue_ = std::make_unique<CudaQueue>();
  auto* flags = cb(*job.flags).kernel_ptr();
  check(launch_serve(cb(*job.in).kernel_ptr(), cb(*job.out).kernel_ptr(), flags, job.chunk_words, job.chunks, sms_,
                     static_cast<std::uint64_t>(job.timeout_s * 1e9), persistent_queue_->get()),
        "persistent kernel");
  return persistent_queue_->mark();
}

// Graph launches: one instantiated graph per chunk (its kernel node bound to
// the chunk), built before the pass; the pass only launches them.
//   host:    launch g0, g1 .. (wait c0) seen0, launch g2 ...
//   stream:    [K0][K1][K2] ...
ChunkTimes CudaDevice::graph_design(const StreamJob& job) {
  if (job.chunks > 4096) throw UsageError("the graph design builds one graph per chunk: at most 4096 chunks");
  CudaQueue q;
  std::vector<cudaGraphExec_t> execs;
  for (std::size_t c = 0; c < job.chunks; ++c) {
    const std::size_t at = c * job.chunk_words;
    cudaGraph_t graph = nullptr;
    check(cudaStreamBeginCapture(q.get(), cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
    check(launch_transform(cb(*job.out).kernel_ptr() + at, cb(*job.in).kernel_ptr() + at, job.chunk_words, 3, 1,
                           q.get()),
          "captured kernel");
    check(cudaStreamEndCapture(q.get(), &graph), "cudaStreamEndCapture");
    cudaGraphExec_t exec = nullptr;
    check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
    cudaGraphDestroy(graph);
    execs.push_back(exec);
  }
  ChunkTimes t = windowed(job, [&](std::size_t c) {
    check(cudaGraphLaunch(execs[c], q.get()), "cudaGraphLaunch");
    return q.mark();
  });
  for (auto e : execs) cudaGraphExecDestroy(e);
  return t;
}

// Stream memory operations: every chunk's kernel is queued before the pass
// behind a wait on its flag in mapped memory, followed by a write of its
// done flag. The host then only writes a flag per chunk and polls another:
// no launch and no driver call on a chunk's path.
//   host:    write go0 go1 (poll done0) seen0 write go2 ...
//   stream:  [wait go0][K0][write done0][wait go1][K1][write done1] ...
ChunkTimes CudaDevice::memops_design(const StreamJob& job) {
  constexpr std::size_t kAhead = 256;  // chunks queued ahead: bounds the stream's queue depth
  // Destroyed in reverse: flags released, then the stream drained, then the flags freed.
  CudaBuffer flags(MemKind::kMapped, 2 * job.chunks * 4);
  CudaQueue q;
  auto* host = static_cast<std::uint32_t*>(flags.host());
  std::memset(host, 0, 2 * job.chunks * 4);
  const auto dev = reinterpret_cast<CUdeviceptr>(flags.kernel_ptr());
  auto stream = reinterpret_cast<CUstream>(q.get());
  auto enqueue = [&](std::size_t c) {
    const std::size_t at = c * job.chunk_words;
    if (memops_.wait(stream, dev + c * 4, 1, CU_STREAM_WAIT_VALUE_GEQ) != CUDA_SUCCESS) {
      throw std::runtime_error("cuStreamWaitValue32 failed");
    }
    check(launch_transform(cb(*job.out).kernel_ptr() + at, cb(*job.in).kernel_ptr() + at, job.chunk_words, 3, 1,
                           q.get()),
          "memops kernel");
    if (memops_.write(stream, dev + (job.chunks + c) * 4, 1, CU_STREAM_WRITE_VALUE_DEFAULT) != CUDA_SUCCESS) {
      throw std::runtime_error("cuStreamWriteValue32 failed");
    }
  };
  // Whatever happens, every wait in the stream is released before it is destroyed.
  struct Release {
    std::uint32_t* go;
    std::size_t n;
    ~Release() {
      for (std::size_t c = 0; c < n; ++c) std::atomic_ref<std::uint32_t>(go[c]).store(1, std::memory_order_release);
    }
  } release{host, job.chunks};
  std::size_t queued = 0;
  while (queued < std::min(job.chunks, kAhead)) enqueue(queued++);
  ChunkTimes t;
  t.seen.assign(job.chunks, 0);
  std::size_t retired = 0;
  auto retire = [&] {
    auto ready = [&] { return std::atomic_ref<std::uint32_t>(host[job.chunks + retired]).load() != 0; };
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

}  // namespace

std::unique_ptr<Device> open_cuda_device(const DeviceChoice& choice) {
  if (!choice.platform.empty()) throw UsageError("--platform applies to the opencl backend only");
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    throw UsageError(fmt::format("cuda backend: no CUDA device here ({})",
                                 err != cudaSuccess ? cudaGetErrorString(err) : "none found"));
  }
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp p{};
    cudaGetDeviceProperties(&p, i);
    names.emplace_back(p.name);
  }
  return std::make_unique<CudaDevice>(pick_index(choice.device, names, "CUDA device"));
}

}  // namespace movebench::link
