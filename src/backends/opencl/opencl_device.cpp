// The OpenCL backend: any platform and device (PoCL on a CPU in CI, GPUs
// and FPGAs in the field). Device memory is a plain buffer; "pageable" host
// memory is ordinary memory copied with Read/WriteBuffer; "pinned" and
// "mapped" are the same allocation used two ways (OpenCL has no other
// pinned memory): an ALLOC_HOST_PTR buffer kept mapped, whose pointer
// pinned hands to Read/WriteBuffer (NVIDIA oclBandwidthTest's
// --memory=pinned) and whose cl_mem mapped hands to kernels (zero copy);
// "registered" is the program's own page-aligned memory wrapped in a
// USE_HOST_PTR buffer, used both ways. Timestamps come from event
// profiling (the device's clock); the gate is a user event.
#include "backends/opencl/opencl_device.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "backends/opencl/kernels.cl.hpp"
#include "core/buffer.hpp"
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/host_info.hpp"
#include "device/persistent.hpp"
#include "device/registry.hpp"
#include "device/unit_chase.hpp"
#include "device/wait.hpp"
#include "facts/accelerators.hpp"

namespace movebench::device {
namespace opencl {

void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS) throw std::runtime_error(fmt::format("OpenCL {} failed (error {})", what, err));
}

std::string platform_text(cl_platform_id p, cl_platform_info what) { return info_text(clGetPlatformInfo, p, what); }
std::string device_text(cl_device_id d, cl_device_info what) { return info_text(clGetDeviceInfo, d, what); }

cl_program build_program(cl_context context, cl_device_id device, const char* source, const std::string& options) {
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
  check(err, "clCreateProgramWithSource");
  if (clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
    std::size_t n = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, '\0');
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    clReleaseProgram(program);
    throw std::runtime_error("OpenCL kernels did not build: " + log);
  }
  return program;
}

cl_kernel make_kernel(cl_program program, const char* name) {
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &err);
  check(err, fmt::format("clCreateKernel {}", name).c_str());
  return kernel;
}

namespace {

class ClEvent : public Event {
 public:
  ClEvent(cl_event e, cl_command_queue q) : event_(e), queue_(q) {}
  ~ClEvent() override { clReleaseEvent(event_); }
  bool done() override {
    cl_int status = CL_QUEUED;
    check(clGetEventInfo(event_, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr), "event status");
    if (status < 0) throw std::runtime_error(fmt::format("OpenCL command failed (status {})", status));
    return status == CL_COMPLETE;
  }
  void wait(double timeout_s) override {
    clFlush(queue_);
    if (!wait_until([this] { return done(); }, timeout_s)) {
      throw std::runtime_error("OpenCL device did not answer in time");
    }
  }
  // Device-clock nanoseconds at which the command ended.
  cl_ulong end_ns() const {
    cl_ulong t = 0;
    check(clGetEventProfilingInfo(event_, CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr), "profiling");
    return t;
  }
  cl_ulong start_ns() const {
    cl_ulong t = 0;
    check(clGetEventProfilingInfo(event_, CL_PROFILING_COMMAND_START, sizeof t, &t, nullptr), "profiling");
    return t;
  }
  cl_event get() const { return event_; }

 private:
  cl_event event_;
  cl_command_queue queue_;
};

class ClGate : public Gate {
 public:
  explicit ClGate(cl_context ctx) {
    cl_int err = CL_SUCCESS;
    event_ = clCreateUserEvent(ctx, &err);
    check(err, "clCreateUserEvent");
  }
  ~ClGate() override {
    open();
    clReleaseEvent(event_);
  }
  void open() override {
    if (!opened_) clSetUserEventStatus(event_, CL_COMPLETE);
    opened_ = true;
  }
  cl_event get() const { return event_; }

 private:
  cl_event event_;
  bool opened_ = false;
};

// The host kinds whose cl_mem kernels are given; pinned is the mapped
// allocation kept for copies, so that its figures are the copy engine's.
bool kernel_kind(MemKind kind) { return kind == MemKind::kMapped || kind == MemKind::kRegistered; }

class ClBuffer : public Buffer {
 public:
  ClBuffer(cl_context ctx, cl_command_queue setup, MemKind kind, std::size_t bytes)
      : Buffer(kind, bytes), setup_(setup) {
    const std::size_t n = bytes ? bytes : 4;
    if (kind == MemKind::kPageable || kind == MemKind::kRegistered) plain_ = written_buffer(n, 4096, std::byte{0});
    if (kind == MemKind::kPageable) return;
    cl_mem_flags flags = CL_MEM_READ_WRITE;
    if (kind == MemKind::kPinned || kind == MemKind::kMapped) flags |= CL_MEM_ALLOC_HOST_PTR;
    if (kind == MemKind::kRegistered) flags |= CL_MEM_USE_HOST_PTR;
    cl_int err = CL_SUCCESS;
    mem_ = clCreateBuffer(ctx, flags, n, kind == MemKind::kRegistered ? plain_.data() : nullptr, &err);
    check(err, "clCreateBuffer");
    if (kind == MemKind::kDevice) return;
    // Host memory stays mapped for the buffer's life, so the host may use its
    // pointer at any time (OpenCL only promises the host a buffer's contents
    // while it is mapped); whether a kernel sees them meanwhile is the
    // device's business, and the pattern check after every test tells.
    mapped_ = clEnqueueMapBuffer(setup, mem_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, n, 0, nullptr, nullptr, &err);
    // OpenCL 1.2 maps a USE_HOST_PTR buffer at its own host pointer; one that
    // maps it elsewhere copies behind our back, which is not registered memory.
    const bool moved = err == CL_SUCCESS && kind == MemKind::kRegistered && mapped_ != plain_.data();
    if (err != CL_SUCCESS || moved) {
      release();  // the destructor will not run
      if (moved) throw std::runtime_error("OpenCL mapped a USE_HOST_PTR buffer away from its host memory");
      check(err, "clEnqueueMapBuffer");
    }
  }
  ~ClBuffer() override { release(); }
  void* host() const override { return mapped_ ? mapped_ : plain_.data(); }
  cl_mem mem() const { return mem_; }

 private:
  // Unmapped and released before plain_ (a USE_HOST_PTR buffer's memory) is freed.
  void release() {
    if (mapped_) {
      clEnqueueUnmapMemObject(setup_, mem_, mapped_, 0, nullptr, nullptr);
      clFinish(setup_);
      mapped_ = nullptr;
    }
    if (mem_) clReleaseMemObject(mem_);
    mem_ = nullptr;
  }

  cl_command_queue setup_;
  HostBuffer plain_;
  cl_mem mem_ = nullptr;
  void* mapped_ = nullptr;
};

}  // namespace

cl_mem mem_of(Buffer& b) {
  cl_mem m = static_cast<ClBuffer&>(b).mem();
  if (!m || (b.kind() != MemKind::kDevice && !kernel_kind(b.kind()))) {
    throw std::runtime_error(fmt::format("OpenCL kernels are not given {} host memory", kind_name(b.kind())));
  }
  return m;
}

namespace {

class ClQueue : public Queue {
 public:
  ClQueue(cl_context ctx, cl_device_id dev, cl_kernel transform) : transform_(transform) {
    cl_int err = CL_SUCCESS;
    queue_ = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    check(err, "clCreateCommandQueue");
  }
  ~ClQueue() override {
    clFinish(queue_);
    clReleaseCommandQueue(queue_);
  }
  void copy(Buffer& dst, std::size_t doff, Buffer& src, std::size_t soff, std::size_t bytes) override {
    const bool dst_dev = dst.kind() == MemKind::kDevice, src_dev = src.kind() == MemKind::kDevice;
    if (dst_dev && src_dev) {
      check(clEnqueueCopyBuffer(queue_, mem_of(src), mem_of(dst), soff, doff, bytes, 0, nullptr, nullptr), "copy");
    } else if (dst_dev) {
      check(
          clEnqueueWriteBuffer(queue_, mem_of(dst), CL_FALSE, doff, bytes, src.as<char>() + soff, 0, nullptr, nullptr),
          "clEnqueueWriteBuffer");
    } else if (src_dev) {
      check(clEnqueueReadBuffer(queue_, mem_of(src), CL_FALSE, soff, bytes, dst.as<char>() + doff, 0, nullptr, nullptr),
            "clEnqueueReadBuffer");
    } else {
      throw std::runtime_error("OpenCL backend: host-to-host copies are not a link transfer");
    }
  }
  void transform(Buffer& dst, std::size_t doff, Buffer& src, std::size_t soff, std::size_t words, std::uint32_t mul,
                 std::uint32_t add) override {
    cl_mem d = mem_of(dst), s = mem_of(src);
    // One kernel object serves every queue of this (single) calling thread:
    // clEnqueueNDRangeKernel captures the arguments set just before it.
    set_args(transform_, d, cl_ulong{doff}, s, cl_ulong{soff}, cl_ulong{words}, mul, add);
    const std::size_t global = std::min<std::size_t>(std::max<std::size_t>(words, 1), 1u << 20);
    check(clEnqueueNDRangeKernel(queue_, transform_, 1, nullptr, &global, nullptr, 0, nullptr, nullptr), "transform");
  }
  void hold(Gate& gate) override {
    cl_event ue = static_cast<ClGate&>(gate).get();
    check(clEnqueueMarkerWithWaitList(queue_, 1, &ue, nullptr), "gate marker");
  }
  std::shared_ptr<Event> mark() override {
    cl_event e = nullptr;
    check(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &e), "marker");
    return std::make_shared<ClEvent>(e, queue_);
  }
  void after(const std::shared_ptr<Event>& event) override {  // a wait list retains its events
    cl_event e = static_cast<ClEvent&>(*event).get();
    check(clEnqueueMarkerWithWaitList(queue_, 1, &e, nullptr), "cross-queue wait");
  }
  void finish(double timeout_s) override { mark()->wait(timeout_s); }
  cl_command_queue get() const { return queue_; }

 private:
  cl_command_queue queue_ = nullptr;
  cl_kernel transform_;
};

// The device's PCI address from cl_khr_pci_bus_info; empty where the
// platform does not have the extension (PoCL's CPU device, most GPUs' older
// drivers).
std::string pci_bus_id(cl_device_id device) {
  if (device_text(device, CL_DEVICE_EXTENSIONS).find("cl_khr_pci_bus_info") == std::string::npos) return {};
  cl_device_pci_bus_info_khr bus{};
  if (clGetDeviceInfo(device, CL_DEVICE_PCI_BUS_INFO_KHR, sizeof bus, &bus, nullptr) != CL_SUCCESS) return {};
  return fmt::format("{:04x}:{:02x}:{:02x}.{:x}", bus.pci_domain, bus.pci_bus, bus.pci_device, bus.pci_function);
}

struct Candidate {
  cl_platform_id platform;
  cl_device_id device;
  std::string name;
};

std::vector<cl_platform_id> platforms() {
  cl_uint n = 0;
  if (clGetPlatformIDs(0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::vector<cl_platform_id> out(n);
  clGetPlatformIDs(n, out.data(), nullptr);
  return out;
}

std::vector<Candidate> devices_of(cl_platform_id p, bool accelerators_only) {
  cl_uint n = 0;
  const cl_device_type type =
      accelerators_only ? (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR) : CL_DEVICE_TYPE_ALL;
  if (clGetDeviceIDs(p, type, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::vector<cl_device_id> ids(n);
  clGetDeviceIDs(p, type, n, ids.data(), nullptr);
  std::vector<Candidate> out;
  for (auto id : ids) out.push_back({p, id, device_text(id, CL_DEVICE_NAME)});
  return out;
}

// --platform picks one platform (index or name); without it every
// platform's devices are candidates for --device.
Candidate choose(const DeviceChoice& choice, bool accelerators_only) {
  auto plats = platforms();
  if (plats.empty()) throw UsageError("opencl backend: no OpenCL platform found (is an ICD such as PoCL installed?)");
  if (!choice.platform.empty()) {
    std::vector<std::string> names;
    for (auto p : plats) names.push_back(platform_text(p, CL_PLATFORM_NAME));
    plats = {plats[pick_index(choice.platform, names, "OpenCL platform")]};
  }
  std::vector<Candidate> all;
  for (auto p : plats) {
    for (auto& c : devices_of(p, accelerators_only)) all.push_back(c);
  }
  std::vector<std::string> names;
  for (auto& c : all) names.push_back(c.name);
  return all[pick_index(choice.device, names, accelerators_only ? "OpenCL GPU or accelerator" : "OpenCL device")];
}

class ClDevice : public Device, public PersistentKernel, public UnitChase, public Handles {
 public:
  explicit ClDevice(const Candidate& c) : platform_(c.platform), device_(c.device), name_(c.name) {
    cl_int err = CL_SUCCESS;
    context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    build();
    setup_ = std::make_unique<ClQueue>(context_, device_, transform_);
  }
  ~ClDevice() override {
    setup_.reset();
    for (auto k : {transform_, probe_, serve_}) clReleaseKernel(k);
    clReleaseProgram(program_);
    clReleaseContext(context_);
  }
  std::string backend() const override { return "opencl"; }
  std::string name() const override { return name_; }
  nlohmann::json facts() const override;
  std::vector<MemKind> host_kinds() const override {
    return {MemKind::kPageable, MemKind::kPinned, MemKind::kMapped, MemKind::kRegistered};
  }
  bool kernel_reaches(MemKind kind) const override { return kernel_kind(kind); }
  std::unique_ptr<Buffer> alloc(MemKind kind, std::size_t bytes) override {
    return std::make_unique<ClBuffer>(context_, setup_->get(), kind, bytes);
  }
  std::unique_ptr<Queue> queue() override { return std::make_unique<ClQueue>(context_, device_, transform_); }
  std::unique_ptr<Gate> gate() override { return std::make_unique<ClGate>(context_); }
  double elapsed(Event& from, Event& to) override {
    const auto a = static_cast<ClEvent&>(from).end_ns(), b = static_cast<ClEvent&>(to).end_ns();
    return (static_cast<double>(b) - static_cast<double>(a)) * 1e-9;
  }
  Timed probe(Probe what, Buffer& buf, std::size_t n, std::uint32_t value) override;
  bool has_persistent() const override { return device_value<cl_bool>(device_, CL_DEVICE_HOST_UNIFIED_MEMORY); }
  cl_context context() const override { return context_; }
  cl_device_id id() const override { return device_; }
  std::shared_ptr<Event> launch_persistent(const PersistentJob& job) override;
  UnitPlacement unit_placement() const override;
  std::vector<std::uint32_t> chase_units() override;
  std::optional<Timed> chase_on(std::uint32_t group, Buffer& ring, std::size_t n) override;

 private:
  // The probe kernel in `groups` work-groups of one work-item, only group
  // `target` running it; timed by the kernel's own profiling start and end.
  Timed probe_in(cl_uint mode, Buffer& buf, std::size_t n, std::uint32_t value, std::size_t groups,
                 std::uint32_t target);

  void build() {
    program_ = build_program(context_, device_, kSource, "-cl-std=CL1.2");
    transform_ = make_kernel(program_, "transform");
    probe_ = make_kernel(program_, "probe");
    serve_ = make_kernel(program_, "serve");
  }

  cl_platform_id platform_;
  cl_device_id device_;
  std::string name_;
  cl_context context_ = nullptr;
  cl_program program_ = nullptr;
  cl_kernel transform_ = nullptr, probe_ = nullptr, serve_ = nullptr;
  std::unique_ptr<ClQueue> setup_;
  std::unique_ptr<ClQueue> persistent_queue_;
  std::unique_ptr<Buffer> probe_out_;
};

nlohmann::json ClDevice::facts() const {
  nlohmann::json j = {
      {"backend", "opencl"},
      {"platform", platform_text(platform_, CL_PLATFORM_NAME)},
      {"platform_version", platform_text(platform_, CL_PLATFORM_VERSION)},
      {"device_version", device_text(device_, CL_DEVICE_VERSION)},
      {"driver_version", device_text(device_, CL_DRIVER_VERSION)},
      {"opencl_c_version", device_text(device_, CL_DEVICE_OPENCL_C_VERSION)},
      {"compute_units", device_value<cl_uint>(device_, CL_DEVICE_MAX_COMPUTE_UNITS)},
      {"host_unified_memory", device_value<cl_bool>(device_, CL_DEVICE_HOST_UNIFIED_MEMORY) != 0},
      {"device_type",
       (device_value<cl_device_type>(device_, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) ? "cpu" : "accelerator"},
      {"clock", "opencl event profiling"}};
  // The device's caches, for mem seq sweeps in its memory and the report's
  // marks. A CPU device (PoCL) is this CPU: its caches are the host's. Any
  // other gives its global memory cache, which OpenCL names by no level; on
  // GPUs it is the L2 all compute units share, and is recorded as level 2.
  // Local memory (a work-group's scratchpad: CUDA's shared memory) is
  // recorded but names no step: it is not a cache of global memory, and
  // OpenCL gives no size of the L1 beside it.
  const auto global_cache = device_value<cl_ulong>(device_, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
  j["global_mem_cache_bytes"] = global_cache;
  j["local_mem_bytes"] = device_value<cl_ulong>(device_, CL_DEVICE_LOCAL_MEM_SIZE);
  if (j["device_type"] == "cpu") {
    j["caches"] = cache_facts(data_caches());
  } else {
    j["caches"] =
        cache_facts(global_cache > 0 ? std::vector<CacheLevel>{{2, global_cache, 1}} : std::vector<CacheLevel>{});
  }
  const std::string bus = pci_bus_id(device_);
  if (!bus.empty()) j["bus_id"] = bus;
  return j;
}

// The kernel's own start-to-end time on the profiling clock; the caller
// subtracts an empty probe, which removes the launch.
Timed ClDevice::probe_in(cl_uint mode, Buffer& buf, std::size_t n, std::uint32_t value, std::size_t groups,
                         std::uint32_t target) {
  if (!probe_out_) probe_out_ = alloc(MemKind::kMapped, 4);
  cl_mem b = mem_of(buf), o = mem_of(*probe_out_);
  set_args(probe_, b, cl_ulong{n}, mode, cl_uint{value}, o, cl_uint{target});
  const std::size_t one = 1;
  cl_event e = nullptr;
  check(clEnqueueNDRangeKernel(setup_->get(), probe_, 1, nullptr, &groups, &one, 0, nullptr, &e), "probe");
  ClEvent event(e, setup_->get());
  event.wait(60);
  return {static_cast<double>(event.end_ns() - event.start_ns()) * 1e-9, "opencl event profiling",
          *probe_out_->as<std::uint32_t>()};
}

Timed ClDevice::probe(Probe what, Buffer& buf, std::size_t n, std::uint32_t value) {
  const cl_uint mode = what == Probe::kChase ? 0u : what == Probe::kWrite ? 1u : 2u;
  return probe_in(mode, buf, n, value, 1, 0);
}

// nvbandwidth's placement (ptrChasingKernel: as many one-thread blocks as
// SMs, only block `target` chasing), which is all OpenCL allows: it has no
// way to ask for a compute unit, nor to learn which one ran a work-group.
UnitPlacement ClDevice::unit_placement() const {
  return {"work-group",
          "as many one-work-item work-groups as compute units, only group i chasing (nvbandwidth's placement); "
          "OpenCL neither says which compute unit runs a work-group nor promises that the groups go to different "
          "units",
          static_cast<int>(device_value<cl_uint>(device_, CL_DEVICE_MAX_COMPUTE_UNITS))};
}

std::vector<std::uint32_t> ClDevice::chase_units() {
  std::vector<std::uint32_t> groups(static_cast<std::size_t>(std::max(1, unit_placement().reported)));
  std::iota(groups.begin(), groups.end(), 0u);
  return groups;
}

std::optional<Timed> ClDevice::chase_on(std::uint32_t group, Buffer& ring, std::size_t n) {
  return probe_in(0u, ring, n, 0, chase_units().size(), group);
}

std::shared_ptr<Event> ClDevice::launch_persistent(const PersistentJob& job) {
  persistent_queue_ = std::make_unique<ClQueue>(context_, device_, transform_);
  cl_mem in = mem_of(*job.in), out = mem_of(*job.out), flags = mem_of(*job.flags);
  const auto spin_limit = static_cast<cl_ulong>(job.timeout_s * 1e8);  // about timeout_s at ~10 ns a poll
  set_args(serve_, in, out, flags, cl_ulong{job.chunk_words}, cl_ulong{job.chunks}, spin_limit);
  const std::size_t one = 1;
  check(clEnqueueNDRangeKernel(persistent_queue_->get(), serve_, 1, nullptr, &one, &one, 0, nullptr, nullptr),
        "persistent kernel");
  auto done = persistent_queue_->mark();
  clFlush(persistent_queue_->get());  // start it now, before the first flag
  return done;
}

}  // namespace

cl_command_queue queue_of(Queue& queue) { return static_cast<ClQueue&>(queue).get(); }

}  // namespace opencl

namespace opencl {
namespace {

std::string type_name(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_CPU) return "cpu";
  return (type & CL_DEVICE_TYPE_GPU) ? "gpu" : "accelerator";
}

// OpenCL tells a device's memory size but not its clock or bus width (no
// Khronos query has them), so its peak stays unknown.
facts::AcceleratorInfo describe(cl_device_id id, int index) {
  facts::AcceleratorInfo info;
  info.backend = "opencl";
  info.index = index;
  info.name = device_text(id, CL_DEVICE_NAME);
  info.type = type_name(device_value<cl_device_type>(id, CL_DEVICE_TYPE));
  info.memory_bytes = static_cast<double>(device_value<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_SIZE));
  info.peak_why = "OpenCL does not report the memory's clock or bus width";
  info.bus_id = pci_bus_id(id);
  info.bus_why = "the platform has no cl_khr_pci_bus_info";
  return info;
}

}  // namespace
}  // namespace opencl

// Indexed as --device counts them without --platform: every platform's
// devices in order.
nlohmann::json list_opencl_accelerators() {
  const auto plats = opencl::platforms();
  if (plats.empty()) throw std::runtime_error("no OpenCL platform found");
  nlohmann::json out = {{"devices", nlohmann::json::array()}, {"cpu_devices", nlohmann::json::array()}};
  int index = 0;
  for (auto p : plats) {
    for (const auto& c : opencl::devices_of(p, false)) {
      const auto info = opencl::describe(c.device, index++);
      out[info.type == "cpu" ? "cpu_devices" : "devices"].push_back(facts::accelerator_entry(info));
    }
  }
  return out;
}

std::unique_ptr<Device> open_opencl_device(const DeviceChoice& choice, bool accelerators_only) {
  using opencl::choose;
  using opencl::ClDevice;
  return std::make_unique<ClDevice>(choose(choice, accelerators_only));
}

}  // namespace movebench::device
