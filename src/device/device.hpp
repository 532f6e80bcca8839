// The device interface of `link`, `stream` and `mem --backend` (BabelStream
// style): one small abstract device with in-order queues, buffers,
// timestamps and a gate, and one folder per backend (host/, opencl/, cuda/;
// registry.hpp opens them). The benchmarks above it are written once against
// this interface. What only some backends have (persistent.hpp) is an
// optional interface their device also implements, found with capability().
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace movebench::device {

// Where a buffer lives. Host kinds are what the backend can allocate:
//   pageable        ordinary malloc'd memory (copies stage through the driver)
//   pinned          page-locked host memory (the copy engine reads it directly)
//   mapped          page-locked and mapped into the device's address space,
//                   so device kernels can read and write it (zero copy)
//   write_combined  mapped and write-combined (CUDA only)
//   registered      the program's own page-aligned memory, registered with
//                   the driver after allocation (cudaHostRegister, an OpenCL
//                   USE_HOST_PTR buffer), as MPI libraries do with user
//                   buffers; kernels reach it where the backend maps it
enum class MemKind { kDevice, kPageable, kPinned, kMapped, kWriteCombined, kRegistered };
std::string_view kind_name(MemKind kind);
MemKind parse_host_kind(std::string_view name);  // throws UsageError
// Every host kind, in the order help and error text list them.
const std::vector<MemKind>& all_host_kinds();
// "pageable, pinned, ...": the names of `kinds` for help and error text.
std::string kind_names(const std::vector<MemKind>& kinds);

class Buffer {
 public:
  Buffer(MemKind kind, std::size_t bytes) : kind_(kind), bytes_(bytes) {}
  virtual ~Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  MemKind kind() const { return kind_; }
  std::size_t bytes() const { return bytes_; }
  // The host address of host kinds; nullptr for device memory.
  virtual void* host() const = 0;
  template <class T>
  T* as() const {
    return static_cast<T*>(host());
  }

 private:
  MemKind kind_;
  std::size_t bytes_;
};

// A point in a queue; its timestamp is taken on the device's own clock when
// the queue reaches it (CUDA events, OpenCL profiling, the host worker's
// steady clock).
class Event {
 public:
  virtual ~Event() = default;
  virtual bool done() = 0;
  // Waits until done; throws std::runtime_error after timeout_s (never hangs).
  virtual void wait(double timeout_s) = 0;
};

// A device-side blocker: work queued behind hold() does not start until
// open(), so a whole batch is queued first and only the transfers are timed
// (nvbandwidth's method). Destruction opens it: a forgotten gate never hangs.
class Gate {
 public:
  virtual ~Gate() = default;
  virtual void open() = 0;
};

// An in-order queue (CUDA stream, OpenCL command queue, host worker thread).
class Queue {
 public:
  virtual ~Queue() = default;
  // Copy-engine transfer; either side may be host or device memory.
  virtual void copy(Buffer& dst, std::size_t dst_off, Buffer& src, std::size_t src_off, std::size_t bytes) = 0;
  // Device kernel over 32-bit words: dst[i] = src[i] * mul + add. Offsets
  // and counts are in words. Either buffer may be device memory or mapped
  // host memory (see Device::kernel_reaches).
  virtual void transform(Buffer& dst, std::size_t dst_off, Buffer& src, std::size_t src_off, std::size_t words,
                         std::uint32_t mul, std::uint32_t add) = 0;
  virtual void hold(Gate& gate) = 0;
  virtual std::shared_ptr<Event> mark() = 0;
  // Later work in this queue waits for `event` (from any queue). Shared:
  // the queue may hold the event until its wait is over (the host worker
  // does), after the caller and the producing queue have let it go.
  virtual void after(const std::shared_ptr<Event>& event) = 0;
  virtual void finish(double timeout_s) = 0;
};

enum class Probe { kChase, kWrite, kCachedChase };

// A latency figure measured on the device side, and which clock measured it.
struct Timed {
  double seconds = 0;
  std::string clock;      // "gpu clock64 at N MHz", "opencl event profiling", "host steady_clock"
  std::uint32_t end = 0;  // the word index the chase ended on (checked by the caller)
};

class Device {
 public:
  virtual ~Device() = default;
  virtual std::string backend() const = 0;  // "host", "opencl", "cuda"
  virtual std::string name() const = 0;
  // Driver and runtime versions, bus id, PCIe and NUMA facts.
  virtual nlohmann::json facts() const = 0;
  virtual std::vector<MemKind> host_kinds() const = 0;
  // True when the kernel path runs on this kind: device kernels read and
  // write it directly. False also where they could but the kind stands for
  // copies only (OpenCL pinned is its mapped allocation, see docs/link.md).
  virtual bool kernel_reaches(MemKind kind) const = 0;
  virtual std::unique_ptr<Buffer> alloc(MemKind kind, std::size_t bytes) = 0;
  virtual std::unique_ptr<Queue> queue() = 0;
  virtual std::unique_ptr<Gate> gate() = 0;
  // False where a gated queue would block the caller (CUDA copies from
  // pageable memory stage through the driver on the calling thread).
  virtual bool gate_works_with(MemKind) const { return true; }
  // Seconds between two completed events on the device clock.
  virtual double elapsed(Event& from, Event& to) = 0;

  // Latency from the device side through host memory `buf`, one device
  // thread, timed on the device's clock (the whole probe):
  //   kChase  n dependent loads from word 0 (word i holds the next index);
  //           Timed::end is the index the chase ended on
  //   kWrite  stores of value + i to words 0..n-1, then a wait until they
  //           are performed system-wide (hdl_single_engine's write response)
  //   kCachedChase  n dependent loads from word `value`, through every cache
  //           of the device (mem latency --backend: a chase in its own
  //           memory, `buf` of any kind the kernels reach)
  virtual Timed probe(Probe what, Buffer& buf, std::size_t n, std::uint32_t value) = 0;
};

// How the user picks a device (shared by link, stream and mem --backend).
struct DeviceChoice {
  std::string backend;   // empty: the first accelerator built and present, else host
  std::string platform;  // OpenCL: index or name substring
  std::string device;    // index or name substring; empty: rank mod devices
                         // (host backend: the worker's CPU; empty: another core)
};

// An optional interface of `device` (persistent.hpp, ...), or nullptr when
// its backend does not have it.
template <class Capability>
Capability* capability(Device& device) {
  return dynamic_cast<Capability*>(&device);
}

// Picks index `rank mod count` when `wanted` is empty and a launcher set a
// local rank, else index 0; `wanted` is an index or a name substring.
// Throws UsageError naming `what` when nothing matches.
int pick_index(const std::string& wanted, const std::vector<std::string>& names, const char* what);

}  // namespace movebench::device
