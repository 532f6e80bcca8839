#include "fleet/fleet_memory.hpp"

#include <algorithm>
#include <cmath>

#include "core/cpu_clock.hpp"
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
  // The fastest of a few untimed calls sizes a round, each on the CPU time
  // its threads ran where that is under its wall time: a call held back by
  // a CPU quota or another process would make every round short enough to
  // fit between two of the quota's stops and not show it.
  double fastest = 0;
  for (int probe = 0; probe < kProbeCalls; ++probe) {
    double sum = 0;
    const double cpu = process_cpu_seconds();
    const auto first = runner_->time_sequence(kernels_, 1, 1, calls_, sum);
    if (first.front().empty()) break;  // interrupted
    sum_ += sum;
    calls_ += 1;
    const double call = std::min(first[0][0] + first[1][0], (process_cpu_seconds() - cpu) / out_.threads);
    fastest = probe == 0 ? call : std::min(fastest, call);
  }
  iters_ = static_cast<std::size_t>(std::ceil(kMemRoundSeconds / std::max(1e-6, fastest)));
  ring_ = std::make_unique<mem::ChaseRing>(std::max<std::uint64_t>(opt.chase_bytes, 4096), 64, opt.seed, false);
}

// Call by call: the check replays call j as copy then triad (team.hpp),
// so the kernels alternate as it does.
// At least the calls sized, and until each thread has run kMemRoundSeconds
// of CPU time: calls faster than the probes' still make a round that long.
void UnitMemory::time_round() {
  const ScopedAffinity restore;
  double copy = 0, triad = 0;
  const double cpu = process_cpu_seconds();
  std::uint64_t made = 0;
  while (made < iters_ || (process_cpu_seconds() - cpu) / out_.threads < kMemRoundSeconds) {
    double sum = 0;
    const auto times = runner_->time_sequence(kernels_, 1, 1, calls_, sum);
    if (times.front().empty()) return;  // interrupted
    sum_ += sum;
    ++calls_;
    ++made;
    copy += times[0][0];
    triad += times[1][0];
  }
  out_.copy_seconds.push_back(copy / static_cast<double>(made));
  out_.triad_seconds.push_back(triad / static_cast<double>(made));
  out_.calls_per_round = out_.calls_per_round == 0 ? made : std::min(out_.calls_per_round, made);
}

// A lap of the whole ring first: the other units' turns since this unit's
// last sample evicted it, and a probe on a cold ring would size the sample
// for memory it then no longer reaches (a sample several times too short).
void UnitMemory::chase_sample() {
  const ScopedAffinity restore;
  void* volatile warm = mem::ChaseRing::chase(ring_->head(), (ring_->nodes() + 15) / 16 * 16);
  (void)warm;
  const auto s = mem::time_chase(*ring_, 1, kChaseSampleSeconds, mem::SampleSize::kThreadCpuTime);
  out_.chase_seconds.insert(out_.chase_seconds.end(), s.per_load.begin(), s.per_load.end());
  if (!s.per_load.empty()) {
    out_.loads_per_sample = out_.loads_per_sample == 0 ? s.loads : std::min(out_.loads_per_sample, s.loads);
  }
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
