// The CUDA backend (NVIDIA GPUs): streams, events on the GPU clock,
// cudaHostAlloc for pinned, mapped and write-combined host memory and
// cudaHostRegister for registered (the program's own) memory, the
// nvbandwidth blocker as the gate, a clock64 pointer chase through host
// memory and a persistent kernel. Stream's CUDA-only designs (graph
// launches, stream memory operations) are in cuda_designs.cpp. Needs a CUDA
// 12.0 or newer toolkit (CMake leaves the backend out before that).
#include "backends/cuda/cuda_device.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/host_info.hpp"
#include "device/registry.hpp"
#include "facts/accelerators.hpp"

namespace movebench::device {
namespace cuda {

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) {
    throw std::runtime_error(
        fmt::format("CUDA {} failed: {} ({})", what, cudaGetErrorName(err), cudaGetErrorString(err)));
  }
}

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

namespace {

constexpr double kGateSeconds = 10;

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

}  // namespace

bool MemOps::load() {
  wait = reinterpret_cast<Op>(driver_entry("cuStreamWaitValue32"));
  write = reinterpret_cast<Op>(driver_entry("cuStreamWriteValue32"));
  error_name = reinterpret_cast<decltype(error_name)>(driver_entry("cuGetErrorName"));
  return wait && write;
}

void MemOps::check(CUresult r, const char* what) const {
  if (r == CUDA_SUCCESS) return;
  const char* name = nullptr;
  if (!error_name || error_name(r, &name) != CUDA_SUCCESS) name = "unknown error";
  throw std::runtime_error(fmt::format("CUDA {} failed: {} ({})", what, name, static_cast<int>(r)));
}

void CudaQueue::hold(Gate& gate) {
  const auto ns = static_cast<std::uint64_t>(kGateSeconds * 1e9);
  check(launch_blocker(static_cast<CudaGate&>(gate).device_flag(), ns, stream_), "blocker kernel");
}

CudaDevice::CudaDevice(int index) : index_(index) {
  check(cudaSetDevice(index), "cudaSetDevice");
  check(cudaGetDeviceProperties(&prop_, index), "cudaGetDeviceProperties");
  // Every kernel is loaded now, before any can spin (see
  // kernel_image_status); a binary built without code for this GPU fails
  // here, in one line that says what to rebuild with.
  const cudaError_t image = kernel_image_status();
  if (image == cudaErrorNoKernelImageForDevice || image == cudaErrorInvalidDeviceFunction) {
    throw std::runtime_error(
        fmt::format("this movebench has no CUDA code for {} (compute capability {}.{}; built for {}): rebuild with "
                    "-DCMAKE_CUDA_ARCHITECTURES={}{} ({})",
                    prop_.name, prop_.major, prop_.minor, built_architectures(), prop_.major, prop_.minor,
                    cudaGetErrorName(image)));
  }
  check(image, "loading the kernels");
  // Peak SM clock (cudaDeviceProp::clockRate is gone in CUDA 13; the
  // attribute stays): a fact only, the chase measures the clock it ran at.
  check(cudaDeviceGetAttribute(&clock_khz_, cudaDevAttrClockRate, index), "clock rate");
  check(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, index), "SM count");
  check(cudaDeviceGetAttribute(&cooperative_, cudaDevAttrCooperativeLaunch, index), "cooperative launch");
  transform_blocks_ = cuda::transform_blocks(sms_);  // after cudaSetDevice: the occupancy is per device
  pool_ = std::make_unique<FlagPool>();
  has_memops_ = memops_.load();
}

CudaDevice::~CudaDevice() = default;

std::unique_ptr<Gate> CudaDevice::gate() { return std::make_unique<CudaGate>(*pool_); }

int CudaDevice::persistent_groups(std::size_t chunk_words) const {
  const std::size_t wanted = (chunk_words + kWordsPerBlockPass - 1) / kWordsPerBlockPass;
  return static_cast<int>(std::clamp<std::size_t>(wanted, 1, static_cast<std::size_t>(sms_)));
}

// Each SM's L1 (its unified data cache, from the compute capability's
// published size: facts::cuda_sm_data_cache_bytes; none where the table has
// no row) and the L2 all SMs share (50 MB on an H100): what a device sweep
// (mem latency's chase, mem seq) shows, and the report marks, as the host's are.
std::vector<CacheLevel> CudaDevice::caches() const {
  std::vector<CacheLevel> out;
  if (const auto l1 = facts::cuda_sm_data_cache_bytes(prop_.major, prop_.minor); l1 > 0) out.push_back({1, l1, sms_});
  int l2_bytes = 0;
  cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, index_);
  if (l2_bytes > 0) out.push_back({2, static_cast<std::uint64_t>(l2_bytes), 1});
  return out;
}

nlohmann::json CudaDevice::facts() const {
  int runtime = 0, driver = 0, memory_khz = 0, memory_bits = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  char bus[32] = {};
  cudaDeviceGetPCIBusId(bus, sizeof bus, index_);
  // The memory's peak from its own clock and bus width (two transfers a
  // clock): what mem --backend cuda's rates are held against.
  cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, index_);
  cudaDeviceGetAttribute(&memory_bits, cudaDevAttrGlobalMemoryBusWidth, index_);
  return {{"backend", "cuda"},
          {"caches", cache_facts(caches())},
          {"caches_source", fmt::format("L1: {} (compute capability {}.{}); L2: cudaDevAttrL2CacheSize",
                                        facts::kCudaSmDataCacheSource, prop_.major, prop_.minor)},
          {"memory_clock_khz", memory_khz},
          {"memory_bus_bits", memory_bits},
          {"memory_peak_bytes_per_s", facts::device_memory_peak(memory_khz, memory_bits)},
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

ProbeOut* CudaDevice::fresh_probe_out() {
  if (!probe_out_) probe_out_ = std::make_unique<CudaBuffer>(MemKind::kMapped, sizeof(ProbeOut));
  auto* out = probe_out_->as<ProbeOut>();
  out->ran_on = kNotRun;
  return out;
}

namespace {

constexpr std::uint64_t kCalibNs = 100'000;
// One-thread blocks per SM of a placed chase and of the census: enough that
// every SM gets one however the scheduler spreads them; a placed chase whose
// SM got none (or that ended on another SM) is launched again, up to
// kPlacedLaunches times.
constexpr int kBlocksPerSm = 4;
constexpr int kPlacedLaunches = 4;
// %smid is below %nsmid, which is a few hundred at most on any GPU so far.
constexpr std::uint32_t kMostSmIds = 4096;

// A probe on the SM's cycle counter (fine-grained: the global timer may
// step by 1 us, about one load across PCIe), converted at the rate the SM
// ran at during that probe, measured against the global nanosecond timer
// over kCalibNs around it: the peak rate the GPU reports is not what a busy
// or power-capped SM runs at.
Timed probe_time(const ProbeOut& out) {
  if (out.calib_ns == 0 || out.calib_cycles == 0) throw std::runtime_error("CUDA probe: a GPU clock did not advance");
  const double cycles_per_ns = static_cast<double>(out.calib_cycles) / static_cast<double>(out.calib_ns);
  return {static_cast<double>(out.cycles) / cycles_per_ns * 1e-9,
          fmt::format("gpu clock64 at {:.0f} MHz (measured on %globaltimer)", cycles_per_ns * 1e3),
          static_cast<std::uint32_t>(out.end)};
}

}  // namespace

Timed CudaDevice::probe(Probe what, Buffer& buf, std::size_t n, std::uint32_t value) {
  const auto* out = fresh_probe_out();
  auto* device_out = reinterpret_cast<ProbeOut*>(probe_out_->kernel_ptr());
  CudaQueue q;
  const int mode = what == Probe::kWrite ? kProbeWrite : what == Probe::kCachedChase ? kProbeCachedChase : kProbeChase;
  check(launch_probe(cb(buf).kernel_ptr(), n, mode, value, kCalibNs, device_out, q.get()), "probe kernel");
  q.finish(60);
  return probe_time(*out);
}

UnitPlacement CudaDevice::unit_placement() const {
  return {"sm",
          fmt::format("a grid of {} one-thread blocks per SM; the first block that finds itself on the SM asked for "
                      "(%smid) chases, the others return at once; the SMs are the %smid values a census launch "
                      "reached",
                      kBlocksPerSm),
          sms_};
}

// Three census launches of kBlocksPerSm blocks per SM, each block holding
// its SM 20 us: the SM ids a launch reaches, which need not be 0..SMs-1.
std::vector<std::uint32_t> CudaDevice::chase_units() {
  CudaBuffer seen(MemKind::kMapped, kMostSmIds * 4);
  auto* marks = seen.as<std::uint32_t>();
  std::fill(marks, marks + kMostSmIds, 0u);
  CudaQueue q;
  for (int i = 0; i < 3; ++i) {
    check(launch_census(seen.kernel_ptr(), kMostSmIds, kBlocksPerSm * sms_, 20'000, q.get()), "census kernel");
  }
  q.finish(60);
  std::vector<std::uint32_t> ids;
  for (std::uint32_t id = 0; id < kMostSmIds; ++id) {
    if (marks[id] != 0) ids.push_back(id);
  }
  return ids;
}

std::optional<Timed> CudaDevice::chase_on(std::uint32_t sm, Buffer& ring, std::size_t n) {
  if (!claim_) claim_ = std::make_unique<CudaBuffer>(MemKind::kDevice, 4);
  for (int launch = 0; launch < kPlacedLaunches; ++launch) {
    const auto* out = fresh_probe_out();
    auto* device_out = reinterpret_cast<ProbeOut*>(probe_out_->kernel_ptr());
    CudaQueue q;
    check(launch_placed_chase(cb(ring).kernel_ptr(), n, sm, kBlocksPerSm * sms_, claim_->kernel_ptr(), kCalibNs,
                              device_out, q.get()),
          "placed chase kernel");
    q.finish(60);
    // Read at the chase's end: another SM there means the block was moved
    // (PTX: %smid may change during a thread's life), so it is not kept.
    if (out->ran_on != sm) continue;
    return probe_time(*out);
  }
  return std::nullopt;
}

// persistent_groups() blocks; the launch is cooperative (see launch_serve), so the
// groups the host waits for are all running.
std::shared_ptr<Event> CudaDevice::launch_persistent(const PersistentJob& job) {
  persistent_queue_ = std::make_unique<CudaQueue>();
  auto* flags = cb(*job.flags).kernel_ptr();
  check(launch_serve(cb(*job.in).kernel_ptr(), cb(*job.out).kernel_ptr(), flags, job.chunk_words, job.chunks,
                     persistent_groups(job.chunk_words), static_cast<std::uint64_t>(job.timeout_s * 1e9),
                     persistent_queue_->get()),
        "persistent kernel (cooperative launch)");
  return persistent_queue_->mark();
}

}  // namespace cuda

namespace cuda {
namespace {

// From the properties and attributes alone: no context, no kernels loaded
// (the facts of every document must not cost a GPU's set-up).
facts::AcceleratorInfo describe(int index) {
  facts::AcceleratorInfo info;
  info.backend = "cuda";
  info.index = index;
  info.type = "gpu";
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, index), "cudaGetDeviceProperties");
  info.name = p.name;
  info.memory_bytes = static_cast<double>(p.totalGlobalMem);
  int khz = 0, bits = 0;
  cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, index);
  cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, index);
  info.memory_clock_khz = khz;
  info.memory_bus_bits = bits;
  info.peak_source = "cuda: cudaDevAttrMemoryClockRate, cudaDevAttrGlobalMemoryBusWidth";
  info.peak_why = "the driver reports no memory clock or bus width for it";
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, index) == cudaSuccess) info.bus_id = bus;
  info.bus_why = "cudaDeviceGetPCIBusId failed";
  return info;
}

}  // namespace
}  // namespace cuda

nlohmann::json list_cuda_accelerators() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) throw std::runtime_error(fmt::format("no CUDA device ({})", cudaGetErrorString(err)));
  nlohmann::json out = {{"devices", nlohmann::json::array()}};
  for (int i = 0; i < count; ++i) out["devices"].push_back(facts::accelerator_entry(cuda::describe(i)));
  return out;
}

std::unique_ptr<Device> open_cuda_device(const DeviceChoice& choice, bool /*accelerators_only: every GPU is one*/) {
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
  return std::make_unique<cuda::CudaDevice>(pick_index(choice.device, names, "CUDA device"));
}

}  // namespace movebench::device
