#include "fleet/fleet_memory.hpp"

#include <algorithm>
#include <cmath>

#include "core/cpu_time.hpp"
#include "mem/measure.hpp"

namespace movebench::fleet {
namespace {

constexpr int kProbeCalls = 3;

// The same loop shape on every unit: a calibration could pick different
// shapes on different nodes, and the fleet compares nodes, not shapes.
mem::MemOptions memory_options(const FleetOptions& opt) {
  mem::MemOptions m;
  m.elements = std::max<std::uint64_t>(opt.mem_bytes / sizeof(double), 1024);
  m.shape = mem::Shape::kPlain;
  m.kernels = {mem::Kernel::kCopy, mem::Kernel::kTriad};
  m.repetitions = opt.repetitions;
  m.seed = opt.seed;
  return m;
}

}  // namespace

UnitMemory::UnitMemory(const FleetOptions& opt) : mem_(memory_options(opt)) {
  const ScopedAffinity restore;
  out_.threads = std::max<int>(1, static_cast<int>(allowed_cpus().size()));
  runner_ = std::make_unique<mem::HostRunner<double>>(mem_, out_.threads, true, mem_.elements);
  kernels_ = mem::selected_kernels(mem_);  // copy, then triad
  runner_->reset(mem_.elements);
  runner_->prepare(kernels_);
  // The fastest of a few untimed calls sizes a round, each call by its
  // running time: its CPU time over its threads (at most its wall time). A
  // call stopped by a CPU quota, or preempted, lasts longer on the clock
  // but uses no more CPU: sized on the clock, a throttled unit's rounds
  // came out one call long, short enough to fit between two of the quota's
  // stops and look as fast as its peers (16 MiB arrays under a 5 ms per
  // 100 ms quota here: 47 GB/s against 44 GB/s).
  double fastest = 0;
  for (int probe = 0; probe < kProbeCalls; ++probe) {
    double sum = 0;
    const double cpu = process_cpu_seconds();
    const auto first = runner_->time_sequence(kernels_, 1, 1, calls_, sum);
    if (first.front().empty()) break;  // interrupted
    const double running = (process_cpu_seconds() - cpu) / out_.threads;
    sum_ += sum;
    calls_ += 1;
    const double wall = first[0][0] + first[1][0];
    const double call = running > 0 ? std::min(wall, running) : wall;
    fastest = probe == 0 ? call : std::min(fastest, call);
  }
  iters_ = static_cast<std::size_t>(std::ceil(kMemRoundSeconds / std::max(1e-6, fastest)));
  ring_ = std::make_unique<mem::ChaseRing>(std::max<std::uint64_t>(opt.chase_bytes, 4096), 64, opt.seed, false);
}

// Call by call: the check replays call j as copy then triad (team.hpp),
// so the kernels alternate as it does.
void UnitMemory::time_round() {
  const ScopedAffinity restore;
  double copy = 0, triad = 0;
  for (std::size_t i = 0; i < iters_; ++i) {
    double sum = 0;
    const auto times = runner_->time_sequence(kernels_, 1, 1, calls_, sum);
    if (times.front().empty()) return;  // interrupted
    sum_ += sum;
    ++calls_;
    copy += times[0][0];
    triad += times[1][0];
  }
  out_.copy_seconds.push_back(copy / static_cast<double>(iters_));
  out_.triad_seconds.push_back(triad / static_cast<double>(iters_));
}

void UnitMemory::chase_sample() {
  const ScopedAffinity restore;
  int disturbed = 0;
  // Going on from where the last sample stopped, as node's numa cells do: a
  // sample shorter than the ring would otherwise chase the same first part
  // of it each time, which the caches then hold.
  const auto s = mem::time_chase(*ring_, 1, kChaseSampleSeconds, disturbed, nullptr, &cursor_);
  out_.chase_seconds.insert(out_.chase_seconds.end(), s.begin(), s.end());
}

MemoryFigures UnitMemory::finish() {
  const ScopedAffinity restore;
  const auto check = runner_->check(kernels_, calls_, sum_);
  if (!check.passed) out_.error = "memory: " + check.message;
  // The best round and the fastest sample, as mem and lmbench report them:
  // a slow node is slow in every round (each outlasts a CPU quota's period),
  // a passing burst of other work on the machine in some only.
  const auto rates = [&](mem::Kernel k, const std::vector<double>& seconds) {
    return seconds.empty()
               ? 0
               : mem::best_rate(mem_, k, runner_->total_elements(), *std::min_element(seconds.begin(), seconds.end()));
  };
  out_.copy_mbs = rates(kernels_[0], out_.copy_seconds);
  out_.triad_mbs = rates(kernels_[1], out_.triad_seconds);
  out_.latency_ns =
      out_.chase_seconds.empty() ? 0 : *std::min_element(out_.chase_seconds.begin(), out_.chase_seconds.end()) * 1e9;
  return out_;
}

}  // namespace movebench::fleet
