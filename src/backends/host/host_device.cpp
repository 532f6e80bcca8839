// The host backend: the "device" is a pinned worker thread on another core
// that shares memory with the caller. Copies are memcpy, kernels are loops,
// timestamps are the worker's steady clock. It runs everywhere and measures
// core-to-core hand-off and memory bandwidth as seen through a queue.
#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "backends/host/worker.hpp"
#include "core/affinity.hpp"
#include "core/buffer.hpp"
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/host_info.hpp"
#include "core/vocabulary.hpp"
#include "device/persistent.hpp"
#include "device/registry.hpp"
#include "device/wait.hpp"

namespace movebench::device {
namespace {

using host::Worker;

class HostMemory : public Buffer {
 public:
  HostMemory(MemKind kind, std::size_t bytes) : Buffer(kind, bytes), memory_(bytes ? bytes : 1, 4096) {
    std::memset(memory_.data(), 0, bytes);
    // "pinned" on the host: page-locked, so no page can be swapped or moved.
    if (kind == MemKind::kPinned && mlock(memory_.data(), bytes) != 0) {
      throw std::runtime_error(fmt::format("mlock of {} bytes refused (ulimit -l)", bytes));
    }
    locked_ = kind == MemKind::kPinned;
  }
  ~HostMemory() override {
    if (locked_) munlock(memory_.data(), bytes());
  }
  void* host() const override { return memory_.data(); }

 private:
  HostBuffer memory_;
  bool locked_ = false;
};

class HostEvent : public Event {
 public:
  bool done() override { return done_.load(std::memory_order_acquire); }
  void wait(double timeout_s) override {
    if (!wait_until([this] { return done(); }, timeout_s)) {
      throw std::runtime_error("host worker did not answer in time");
    }
  }
  void fire() {
    time_ = now_seconds();
    done_.store(true, std::memory_order_release);
  }
  double time() const { return time_; }

 private:
  std::atomic<bool> done_{false};
  double time_ = 0;
};

class HostGate : public Gate {
 public:
  ~HostGate() override { open(); }
  void open() override { open_.store(true, std::memory_order_release); }
  // Runs on the worker: spin until opened, at most kGateSeconds.
  void pass() const {
    wait_until([this] { return open_.load(std::memory_order_acquire); }, kGateSeconds);
  }
  static constexpr double kGateSeconds = 10;

 private:
  std::atomic<bool> open_{false};
};

class HostQueue : public Queue {
 public:
  explicit HostQueue(int cpu) : worker_(cpu) {}
  ~HostQueue() override {
    try {
      finish(30);
    } catch (...) {
    }
  }
  void copy(Buffer& dst, std::size_t dst_off, Buffer& src, std::size_t src_off, std::size_t bytes) override {
    auto* d = dst.as<char>() + dst_off;
    const auto* s = src.as<char>() + src_off;
    worker_.push([=] { std::memcpy(d, s, bytes); });
  }
  void transform(Buffer& dst, std::size_t dst_off, Buffer& src, std::size_t src_off, std::size_t words,
                 std::uint32_t mul, std::uint32_t add) override {
    auto* d = dst.as<std::uint32_t>() + dst_off;
    const auto* s = src.as<std::uint32_t>() + src_off;
    worker_.push([=] {
      for (std::size_t i = 0; i < words; ++i) d[i] = s[i] * mul + add;
    });
  }
  void hold(Gate& gate) override {
    const auto* g = static_cast<HostGate*>(&gate);
    worker_.push([g] { g->pass(); });
  }
  std::shared_ptr<Event> mark() override {
    auto event = std::make_shared<HostEvent>();
    worker_.push([event] { event->fire(); });
    return event;
  }
  void after(const std::shared_ptr<Event>& event) override {
    // The command owns the event: the producer's worker may drop its copy
    // (and the caller its own) before this worker is done waiting.
    auto e = std::static_pointer_cast<HostEvent>(event);
    worker_.push([e] {
      try {
        e->wait(HostGate::kGateSeconds);
      } catch (...) {  // the caller's own wait reports the time-out
      }
    });
  }
  void finish(double timeout_s) override { mark()->wait(timeout_s); }
  Worker& worker() { return worker_; }

 private:
  Worker worker_;
};

// Chases `steps` links through ring (word i holds the next index) from word `at`.
std::uint32_t follow(const volatile std::uint32_t* ring, std::size_t steps, std::uint32_t at) {
  for (std::size_t i = 0; i < steps; ++i) at = ring[at];
  return at;
}

// Stores value + i to words 0..n-1 and fences them (the host's "performed
// system-wide": visible to every other core). Returns the last value stored.
std::uint32_t store(volatile std::uint32_t* words, std::size_t n, std::uint32_t value) {
  for (std::size_t i = 0; i < n; ++i) words[i] = value + static_cast<std::uint32_t>(i);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return n ? value + static_cast<std::uint32_t>(n - 1) : 0;
}

class HostDevice : public Device, public PersistentKernel {
 public:
  explicit HostDevice(const DeviceChoice& choice) {
    const auto cpus = allowed_cpus();
    caller_cpu_ = current_cpu();
    // Workers go on the other allowed CPUs in turn, then the caller's own
    // (it only waits), so duplex overlaps even on two CPUs.
    for (int c : cpus) {
      if (c != caller_cpu_) worker_cpus_.push_back(c);
    }
    worker_cpus_.push_back(caller_cpu_);
    if (!choice.device.empty()) {
      const auto parsed = parse_cpu_list(choice.device);
      if (parsed.size() != 1 || std::find(cpus.begin(), cpus.end(), parsed.front()) == cpus.end()) {
        throw UsageError(fmt::format("host backend: --device is the worker's CPU, one of {}", format_cpu_list(cpus)));
      }
      worker_cpus_ = parsed;
    }
  }
  std::string backend() const override { return std::string(vocabulary::kHostBackend); }
  std::string name() const override {
    return fmt::format("host worker thread on CPU {} ({})", worker_cpus_.front(), cpu_model_name());
  }
  nlohmann::json facts() const override {
    return {{"backend", backend()},
            {"caller_cpu", caller_cpu_},
            {"worker_cpus", worker_cpus_},
            {"clock", "host steady_clock"}};
  }
  // No "registered": registering user memory with this "device" would be
  // mlock of a page-aligned buffer, which is what pinned already is here; the
  // same measurement under two names would only double the run.
  std::vector<MemKind> host_kinds() const override { return {MemKind::kPageable, MemKind::kPinned}; }
  bool kernel_reaches(MemKind) const override { return true; }
  std::unique_ptr<Buffer> alloc(MemKind kind, std::size_t bytes) override {
    return std::make_unique<HostMemory>(kind, bytes);
  }
  std::unique_ptr<Queue> queue() override {
    const int cpu = worker_cpus_[next_++ % worker_cpus_.size()];
    return std::make_unique<HostQueue>(cpu);
  }
  std::unique_ptr<Gate> gate() override { return std::make_unique<HostGate>(); }
  double elapsed(Event& from, Event& to) override {
    return static_cast<HostEvent&>(to).time() - static_cast<HostEvent&>(from).time();
  }
  Timed probe(Probe what, Buffer& buf, std::size_t n, std::uint32_t value) override {
    HostQueue q(worker_cpus_.front());
    double seconds = 0;
    std::atomic<std::uint32_t> sink{0};
    auto* words = buf.as<std::uint32_t>();
    q.worker().push([&] {
      const double t0 = now_seconds();
      const std::uint32_t end = what == Probe::kWrite         ? store(words, n, value)
                                : what == Probe::kCachedChase ? follow(words, n, value)
                                                              : follow(words, n, 0);
      seconds = now_seconds() - t0;
      sink.store(end);
    });
    q.finish(60);
    return {seconds, "host steady_clock", sink.load()};
  }
  bool has_persistent() const override { return true; }
  std::shared_ptr<Event> launch_persistent(const PersistentJob& job) override;

 private:
  int caller_cpu_ = -1;
  std::vector<int> worker_cpus_;
  std::size_t next_ = 0;
  std::vector<std::unique_ptr<HostQueue>> persistent_;
};

// The persistent kernel on the worker: wait for each chunk's flag, process
// it, raise its done counter; give up after the job's time-out.
void serve(const PersistentJob& job) {
  auto* flags = job.flags->as<std::uint32_t>();
  const auto* in = job.in->as<std::uint32_t>();
  auto* out = job.out->as<std::uint32_t>();
  std::atomic_ref<std::uint32_t>(flags[job.chunks * 2]).store(1, std::memory_order_release);  // running
  for (std::size_t c = 0; c < job.chunks; ++c) {
    std::atomic_ref<std::uint32_t> go(flags[c]);
    if (!wait_until([&] { return go.load(std::memory_order_acquire) != 0; }, job.timeout_s)) return;
    const std::size_t first = c * job.chunk_words;
    for (std::size_t i = first; i < first + job.chunk_words; ++i) out[i] = in[i] * 3 + 1;
    std::atomic_ref<std::uint32_t>(flags[job.chunks + c]).store(1, std::memory_order_release);
  }
}

std::shared_ptr<Event> HostDevice::launch_persistent(const PersistentJob& job) {
  // One worker serves every launch (as a GPU's SMs do): no thread start
  // lies between a launch and its first chunk.
  if (persistent_.empty()) persistent_.push_back(std::make_unique<HostQueue>(worker_cpus_.front()));
  auto& q = *persistent_.back();
  q.worker().push([job] { serve(job); });
  return q.mark();
}

}  // namespace

std::unique_ptr<Device> open_host_device(const DeviceChoice& choice, bool accelerators_only) {
  if (accelerators_only) throw UsageError("the host backend has no accelerator");
  if (!choice.platform.empty()) throw UsageError("--platform applies to the opencl backend only");
  return std::make_unique<HostDevice>(choice);
}

}  // namespace movebench::device
