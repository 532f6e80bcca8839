// The CUDA backend (NVIDIA GPUs): streams, events on the GPU clock,
// cudaHostAlloc for pinned, mapped and write-combined host memory and
// cudaHostRegister for registered (the program's own) memory, the
// nvbandwidth blocker as the gate, a clock64 pointer chase through host
// memory, a persistent kernel, and two CUDA-only stream designs: graph
// launches and kernels gated by stream memory operations. Needs a CUDA 12.0
// or newer toolkit (CMake leaves the backend out before that).
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "core/buffer.hpp"
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "link/backends.hpp"
#include "link/cuda/cuda_kernels.hpp"
#include "link/stream_designs.hpp"
#include "link/wait.hpp"

#if CUDART_VERSION < 12000
#error "the CUDA backend needs a CUDA 12.0 or newer toolkit (graph instantiate flags, entry point status)"
#endif

namespace movebench::link {
namespace {

using cuda::launch_blocker;
using cuda::launch_probe;
using cuda::launch_serve;
using cuda::launch_transform;

// One line naming the call and the error (its name is what the CUDA
// documentation and forums index).
void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) {
    throw std::runtime_error(
        fmt::format("CUDA {} failed: {} ({})", what, cudaGetErrorName(err), cudaGetErrorString(err)));
  }
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

CudaBuffer& cb(Buffer& b) { return static_cast<CudaBuffer&>(b); }

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
  const std::uint32_t* device_flag() { return pool_.device(slot_); }

 private:
  FlagPool& pool_;
  std::size_t slot_;
};

class CudaQueue : public Queue {
 public:
  CudaQueue() { check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate"); }
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
};

// A driver entry point found at run time through the runtime (so nothing
// links libcuda), nullptr when the driver lacks it. The 12.0 ABI is asked
// for: the stream memory operations' v2 entry points (CUDA 11.7), which CUDA
// 12 and later drivers have on every device (the V1 attribute check is gone).
void* driver_entry(const char* symbol) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
#if CUDART_VERSION >= 12050
  const cudaError_t err = cudaGetDriverEntryPointByVersion(symbol, &fn, 12000, cudaEnableDefault, &found);
#else  // the ByVersion form is 12.5+; before it the runtime's own version is used
  const cudaError_t err = cudaGetDriverEntryPoint(symbol, &fn, cudaEnableDefault, &found);
#endif
  return err == cudaSuccess && found == cudaDriverEntryPointSuccess ? fn : nullptr;
}

// Stream memory operations from the driver.
struct MemOps {
  using Op = CUresult (*)(CUstream, CUdeviceptr, cuuint32_t, unsigned);
  Op wait = nullptr, write = nullptr;
  CUresult (*error_name)(CUresult, const char**) = nullptr;
  bool load() {
    wait = reinterpret_cast<Op>(driver_entry("cuStreamWaitValue32"));
    write = reinterpret_cast<Op>(driver_entry("cuStreamWriteValue32"));
    error_name = reinterpret_cast<decltype(error_name)>(driver_entry("cuGetErrorName"));
    return wait && write;
  }
  void check(CUresult r, const char* what) const {
    if (r == CUDA_SUCCESS) return;
    const char* name = nullptr;
    if (!error_name || error_name(r, &name) != CUDA_SUCCESS) name = "unknown error";
    throw std::runtime_error(fmt::format("CUDA {} failed: {} ({})", what, name, static_cast<int>(r)));
  }
};

class CudaDevice : public Device {
 public:
  explicit CudaDevice(int index) : index_(index) {
    check(cudaSetDevice(index), "cudaSetDevice");
    check(cudaGetDeviceProperties(&prop_, index), "cudaGetDeviceProperties");
    // A binary built without code for this GPU fails here, in one line that
    // says what to rebuild with, not at the first kernel launch.
    const cudaError_t image = cuda::kernel_image_status();
    if (image == cudaErrorNoKernelImageForDevice || image == cudaErrorInvalidDeviceFunction) {
      throw std::runtime_error(fmt::format(
          "this movebench has no CUDA code for {} (compute capability {}.{}; built for {}): rebuild with "
          "-DCMAKE_CUDA_ARCHITECTURES={}{} ({})",
          prop_.name, prop_.major, prop_.minor, cuda::built_architectures(), prop_.major, prop_.minor,
          cudaGetErrorName(image)));
    }
    check(image, "loading the kernels");
    // Peak SM clock (cudaDeviceProp::clockRate is gone in CUDA 13; the
    // attribute stays): a fact only, the chase measures the clock it ran at.
    check(cudaDeviceGetAttribute(&clock_khz_, cudaDevAttrClockRate, index), "clock rate");
    check(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, index), "SM count");
    check(cudaDeviceGetAttribute(&cooperative_, cudaDevAttrCooperativeLaunch, index), "cooperative launch");
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
  Timed probe(Probe what, Buffer& buf, std::size_t n, std::uint32_t value) override;
  bool has_persistent() const override { return cooperative_ != 0; }
  // One block per 256 words of a chunk, at most one per SM: every block
  // polls the host's flag across the link and publishes a done flag the
  // host reads, so idle blocks would only add latency.
  int persistent_groups(std::size_t chunk_words) const override {
    const std::size_t wanted = (chunk_words + cuda::kThreadsPerBlock - 1) / cuda::kThreadsPerBlock;
    return static_cast<int>(std::clamp<std::size_t>(wanted, 1, static_cast<std::size_t>(sms_)));
  }
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
  int clock_khz_ = 0, sms_ = 1, cooperative_ = 0;
  std::unique_ptr<FlagPool> pool_;
  MemOps memops_;
  bool has_memops_ = false;
  std::unique_ptr<CudaQueue> persistent_queue_;
  std::unique_ptr<CudaBuffer> probe_out_;  // mapped: a cuda::ChaseOut
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
          {"clock", "cuda events; latency probes: SM clock64, its rate measured against %globaltimer in every probe"}};
}

// A probe on the SM's cycle counter (fine-grained: the global timer may
// step by 1 us, about one load across PCIe), converted at the rate the SM
// ran at during that probe, measured against the global nanosecond timer
// over kCalibNs around it: the peak rate the GPU reports is not what a busy
// or power-capped SM runs at.
Timed CudaDevice::probe(Probe what, Buffer& buf, std::size_t n, std::uint32_t value) {
  constexpr std::uint64_t kCalibNs = 100'000;
  if (!probe_out_) probe_out_ = std::make_unique<CudaBuffer>(MemKind::kMapped, sizeof(cuda::ProbeOut));
  CudaQueue q;
  const auto* out = probe_out_->as<cuda::ProbeOut>();
  auto* device_out = reinterpret_cast<cuda::ProbeOut*>(probe_out_->kernel_ptr());
  check(launch_probe(cb(buf).kernel_ptr(), n, what == Probe::kWrite, value, kCalibNs, device_out, q.get()),
        "probe kernel");
  q.finish(60);
  if (out->calib_ns == 0 || out->calib_cycles == 0) throw std::runtime_error("CUDA probe: a GPU clock did not advance");
  const double cycles_per_ns = static_cast<double>(out->calib_cycles) / static_cast<double>(out->calib_ns);
  return {static_cast<double>(out->cycles) / cycles_per_ns * 1e-9,
          fmt::format("gpu clock64 at {:.0f} MHz (measured on %globaltimer)", cycles_per_ns * 1e3),
          static_cast<std::uint32_t>(out->end)};
}

// persistent_groups() blocks; the launch is cooperative (see launch_serve), so the
// groups the host waits for are all running.
std::shared_ptr<Event> CudaDevice::launch_persistent(const PersistentJob& job) {
  persistent_queue_ = std::make_unique<CudaQueue>();
  auto* flags = cb(*job.flags).kernel_ptr();
  check(launch_serve(cb(*job.in).kernel_ptr(), cb(*job.out).kernel_ptr(), flags, job.chunk_words, job.chunks,
                     persistent_groups(job.chunk_words),
                     static_cast<std::uint64_t>(job.timeout_s * 1e9), persistent_queue_->get()),
        "persistent kernel (cooperative launch)");
  return persistent_queue_->mark();
}

// Graph launches: one instantiated graph per chunk (its kernel node bound to
// the chunk), built and uploaded to the GPU before the pass (else the first
// launch of each graph does the upload); the pass only launches them.
//   host:    launch g0, g1 .. (wait c0) seen0, launch g2 ...
//   stream:    [K0][K1][K2] ...
ChunkTimes CudaDevice::graph_design(const StreamJob& job) {
  if (job.chunks > 4096) throw UsageError("the graph design builds one graph per chunk: at most 4096 chunks");
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
                                                  job.chunk_words, 3, 1, q.get());
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
ChunkTimes CudaDevice::memops_design(const StreamJob& job) {
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
    memops_.check(memops_.wait(q.get(), dev + c * 4, 1, CU_STREAM_WAIT_VALUE_GEQ), "cuStreamWaitValue32");
    check(launch_transform(cb(*job.out).kernel_ptr() + at, cb(*job.in).kernel_ptr() + at, job.chunk_words, 3, 1,
                           q.get()),
          "memops kernel");
    // The default write is ordered after the kernel's writes (a system-wide
    // fence scoped to the stream): output first, then the done flag.
    memops_.check(memops_.write(q.get(), dev + (job.chunks + c) * 4, 1, CU_STREAM_WRITE_VALUE_DEFAULT),
                  "cuStreamWriteValue32");
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
