// mem --backend opencl|cuda: the bandwidth table and the seq sweep in a
// device's own memory, through the device layer. The modes are the host's
// (run_table, run_sweep_on); this is their runner on a device and the
// kernels a backend folder gives (device_kernels.hpp).
//
// Two timing conventions (--timing). device, the default: on the device's
// clock, a marker in the queue before and after each kernel's calls, read
// with Device::elapsed (CUDA events, OpenCL event profiling), and the queue
// kept full, each round queued before the previous one has finished, so the
// device never waits for the host between kernels. host-sync, BabelStream's
// (its src/main.cpp around each call of CUDAStream.cu's kernels, which end
// in cudaStreamSynchronize): the host's clock read before the launch and
// after the queue has finished, so each call also pays a launch and the
// host's wait for its end. Both keep launch overhead small only with arrays
// large enough that one call lasts far longer than a launch (2^25 elements
// by default; docs/performance.md compares at 2^29).
//
// A seq sweep's small arrays are shorter than a launch: there a sample's
// calls go in one launch by default (--passes-per-launch; the backends'
// enqueue_passes), each a pass over the arrays, so that an array in a cache
// is measured and not the launch (gpu-benches' gpu-l2-cache).
#include "mem/device_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <utility>

#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/sizes.hpp"
#include "device/options.hpp"
#include "device/registry.hpp"
#include "mem/device_kernels.hpp"
#include "mem/device_latency.hpp"
#include "mem/measure.hpp"
#include "mem/mem_output.hpp"
#include "mem/modes.hpp"
#include "mem/runner.hpp"

namespace movebench::mem {
namespace {

using device::Buffer;
using device::Event;
using device::MemKind;

// Bound on any wait for the device: far beyond any round (never hang).
constexpr double kTimeoutSeconds = 600;

template <class T>
class DeviceRunner : public Runner {
 public:
  DeviceRunner(const MemOptions& opt, device::Device& device, DeviceKernels& kernels, std::size_t max_n)
      : opt_(opt), device_(device), kernels_(kernels) {
    const std::size_t bytes = max_n * sizeof(T);
    for (std::size_t i = 0; i < 4; ++i) {
      host_[i] = device.alloc(MemKind::kPageable, bytes);
      arrays_[i] = device.alloc(MemKind::kDevice, bytes);
    }
    const std::size_t partial_bytes = kernels.partial_slots() * (kernels.double_partials() ? 8 : 4);
    partial_ = device.alloc(MemKind::kDevice, partial_bytes);
    partial_host_ = device.alloc(MemKind::kPageable, partial_bytes);
    spoil_ = device.alloc(MemKind::kPageable, 2 * sizeof(T));
    queue_ = device.queue();
    x_ = {arrays_[0].get(), arrays_[1].get(), arrays_[2].get(), arrays_[3].get(), partial_.get()};
  }

  // Initial values are made on the host (the hash of each index) and copied
  // in: the same values the host path starts from.
  void reset(std::size_t n) override {
    n_ = n;
    T* h[4] = {host_[0]->template as<T>(), host_[1]->template as<T>(), host_[2]->template as<T>(),
               host_[3]->template as<T>()};
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
      const Element<T> e = initial_element<T>(i);
      h[0][i] = e.a;
      h[1][i] = e.b;
      h[2][i] = e.c;
      h[3][i] = e.d;
    }
    for (std::size_t i = 0; i < 4; ++i) queue_->copy(*arrays_[i], 0, *host_[i], 0, n * sizeof(T));
    queue_->finish(kTimeoutSeconds);
  }

  std::size_t total_elements() const override { return n_; }
  void prepare(std::span<const Kernel>) override {}

  std::vector<std::vector<double>> time_sequence(std::span<const Kernel> sequence, int reps, std::size_t iters,
                                                 std::uint64_t first_call, double& sum) override {
    std::memset(partial_host_->host(), 0, partial_host_->bytes());
    queue_->copy(*partial_, 0, *partial_host_, 0, partial_->bytes());
    auto times = opt_.timing == DeviceTiming::kHostSync ? time_host_sync(sequence, reps, iters, first_call)
                                                        : time_on_device(sequence, reps, iters, first_call);
    queue_->copy(*partial_host_, 0, *partial_, 0, partial_->bytes());
    queue_->finish(kTimeoutSeconds);
    sum = 0;
    for (std::size_t g = 0; g < kernels_.partial_slots(); ++g) {
      sum += kernels_.double_partials() ? partial_host_->template as<double>()[g]
                                        : static_cast<double>(partial_host_->template as<float>()[g]);
    }
    return times;
  }

  // --timing host-sync: BabelStream's loop, each call timed alone on the
  // host's clock from before its launch to after the queue has finished.
  std::vector<std::vector<double>> time_host_sync(std::span<const Kernel> sequence, int reps, std::size_t iters,
                                                  std::uint64_t first_call) {
    queue_->finish(kTimeoutSeconds);
    std::vector<std::vector<double>> times(sequence.size());
    for (int r = 0; r < reps && !interrupted(); ++r) {
      const std::uint64_t call = first_call + static_cast<std::uint64_t>(r) * iters;
      for (std::size_t k = 0; k < sequence.size(); ++k) {
        double round = 0;
        for (std::size_t it = 0; it < iters;) {
          const std::size_t calls = launch_calls(iters - it);
          const double t0 = now_seconds();
          enqueue_launch(sequence[k], call + it, calls);
          queue_->finish(kTimeoutSeconds);
          round += now_seconds() - t0;
          it += calls;
        }
        times[k].push_back(round);
      }
    }
    return times;
  }

  // --timing device: markers on the device's clock, the queue kept full.
  std::vector<std::vector<double>> time_on_device(std::span<const Kernel> sequence, int reps, std::size_t iters,
                                                  std::uint64_t first_call) {
    const std::size_t nk = sequence.size();
    // A round's markers: m[k] .. m[k + 1] is kernel k.
    std::deque<std::vector<std::shared_ptr<Event>>> pending;
    auto enqueue_round = [&](int r) {
      auto& m = pending.emplace_back();
      m.push_back(queue_->mark());
      for (std::size_t k = 0; k < nk; ++k) {
        const std::uint64_t call = first_call + static_cast<std::uint64_t>(r) * iters;
        for (std::size_t it = 0; it < iters;) {
          const std::size_t calls = launch_calls(iters - it);
          enqueue_launch(sequence[k], call + it, calls);
          it += calls;
        }
        m.push_back(queue_->mark());
      }
    };
    // One round always queued ahead of the one waited for; a signal stops
    // the queueing, and what is queued completes (and counts). A round's
    // markers are read and let go as soon as it is done.
    std::vector<std::vector<double>> times(nk);
    int queued = 0;
    enqueue_round(queued++);
    while (!pending.empty()) {
      if (queued < reps && !interrupted()) enqueue_round(queued++);
      const auto& m = pending.front();
      m.back()->wait(kTimeoutSeconds);
      for (std::size_t k = 0; k < nk; ++k) times[k].push_back(device_.elapsed(*m[k], *m[k + 1]));
      pending.pop_front();
    }
    return times;
  }

  // The arrays come back to the host and are replayed there, element by
  // element, exactly as the host path's are. The test-only damage is done
  // to the device's own memory, before the copy back.
  Validation check(std::span<const Kernel> sequence, std::uint64_t calls, double sum) override {
    spoil_device_array();
    for (std::size_t i = 0; i < 4; ++i) {
      std::memset(host_[i]->host(), 0, n_ * sizeof(T));
      queue_->copy(*host_[i], 0, *arrays_[i], 0, n_ * sizeof(T));
    }
    queue_->finish(kTimeoutSeconds);
    Workspace<T> ws;
    ws.views.push_back({host_[0]->template as<T>(), host_[1]->template as<T>(), host_[2]->template as<T>(),
                        host_[3]->template as<T>()});
    ws.lo = {0};
    ws.hi = {n_};
    ws.elements_per_view = n_;
    return validate(ws, sequence, opt_.corrupt_for_test == "skip" ? calls + 1 : calls, sum);
  }

  nlohmann::json params(Kernel) const override {
    nlohmann::json p = {{"backend", device_.backend()}, {"device", device_.name()}, {"timing", opt_.timing_name()}};
    if (opt_.mode == Mode::kSeq) p["passes_per_launch"] = opt_.passes_text();
    return p;
  }
  bool nontemporal(Kernel) const override { return false; }

 private:
  // The calls the next launch makes of the `left` a round still has: in a
  // seq sweep up to --passes-per-launch (all, by default), else one.
  std::size_t launch_calls(std::size_t left) const {
    if (opt_.mode != Mode::kSeq) return 1;
    const std::size_t most = opt_.passes_per_launch == 0 ? kMostPassesPerLaunch : opt_.passes_per_launch;
    return std::min(left, most);
  }

  // Calls first .. first + calls - 1 of kernel k, in one launch.
  void enqueue_launch(Kernel k, std::uint64_t first, std::size_t calls) {
    if (calls == 1) {
      kernels_.enqueue(*queue_, k, x_, n_, static_cast<double>(kernel_scalar<T>(k, first)));
    } else {
      kernels_.enqueue_passes(*queue_, k, x_, n_, first, static_cast<std::uint32_t>(calls));
    }
  }

  // --corrupt-kind value: a[n/2] in device memory overwritten with -1 (every
  // value the kernels produce is positive); swap: a[n/2] and a[n/2 + 1]
  // exchanged there (a misplaced element).
  void spoil_device_array() {
    const std::size_t i = n_ / 2;
    if (opt_.corrupt_for_test == "value") {
      spoil_->template as<T>()[0] = T(-1);
      queue_->copy(*arrays_[0], i * sizeof(T), *spoil_, 0, sizeof(T));
    } else if (opt_.corrupt_for_test == "swap" && i + 1 < n_) {
      queue_->copy(*spoil_, 0, *arrays_[0], i * sizeof(T), 2 * sizeof(T));
      queue_->finish(kTimeoutSeconds);
      T* two = spoil_->template as<T>();
      std::swap(two[0], two[1]);
      queue_->copy(*arrays_[0], i * sizeof(T), *spoil_, 0, 2 * sizeof(T));
    }
    queue_->finish(kTimeoutSeconds);
  }

  const MemOptions& opt_;
  device::Device& device_;
  DeviceKernels& kernels_;
  std::array<std::unique_ptr<Buffer>, 4> host_, arrays_;
  std::unique_ptr<Buffer> partial_, partial_host_, spoil_;
  DeviceArrays x_;
  std::size_t n_ = 0;
  std::unique_ptr<device::Queue> queue_;  // last: drained before the buffers go
};

template <class T>
void run(const MemOptions& opt, device::Device& device, DeviceKernels& kernels, Report& report, Output& out) {
  if (opt.mode == Mode::kSeq) {
    DeviceRunner<T> runner(opt, device, kernels, *std::max_element(opt.sweep_sizes.begin(), opt.sweep_sizes.end()));
    run_sweep_on(
        opt, runner,
        fmt::format("sequential, in the memory of {} [{} backend], {}", device.name(), device.backend(),
                    opt.passes_per_launch == 0 ? std::string("a sample's calls in one launch")
                                               : fmt::format("at most {} calls per launch", opt.passes_per_launch)),
        "mem seq", report, out);
    return;
  }
  const std::uint64_t n = opt.elements;
  DeviceRunner<T> runner(opt, device, kernels, n);
  const DeviceTableSetup setup{device.name(),   device.backend(),    n,         static_cast<int>(sizeof(T)),
                               opt.type_name(), kernels.reduction(), opt.timing};
  auto header = [&](Output& o) { write_setup(o, setup); };
  report.progress().begin("mem bandwidth", 1);
  report.progress().step(device.backend());
  run_table(opt, runner, device.backend(), header, report, out);
}

}  // namespace

void run_on_device(const MemOptions& opt, Report& report, Output& out) {
  auto device = device::open_and_describe(opt.choice, report, out, "mem", "mem_device");
  run_on_device(opt, *device, report, out);
}

void run_on_device(const MemOptions& opt, device::Device& device, Report& report, Output& out) {
  if (opt.mode == Mode::kLatency) {
    run_device_latency(opt, device, report, out);
    return;
  }
  device::MemKernelsMaker* make = nullptr;
  for (const auto& b : device::backends()) {
    if (device.backend() == b.name) make = b.mem_kernels;
  }
  if (!make) throw UsageError(fmt::format("mem has no kernels for the {} backend", device.backend()));
  auto kernels = make(device, opt.type_name());
  kernels->check_fits(checked_product(opt.elements, static_cast<std::uint64_t>(opt.element_bytes()), "an array"));
  report.settings("mem")["reduction"] = kernels->reduction();
  report.settings("mem")["timing"] = opt.timing_name();
  if (opt.mode == Mode::kSeq) report.settings("mem")["passes_per_launch"] = opt.passes_text();
  if (opt.element_type == ElementType::kFloat) {
    run<float>(opt, device, *kernels, report, out);
  } else {
    run<double>(opt, device, *kernels, report, out);
  }
}

}  // namespace movebench::mem
