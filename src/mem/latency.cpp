#include "mem/latency.hpp"

#include <algorithm>
#include <numeric>
#include <random>

namespace movebench::mem {

ChaseRing::ChaseRing(std::size_t bytes, std::size_t stride, std::uint64_t seed, bool huge_pages, std::size_t window)
    : buffer_(bytes, 4096, huge_pages), stride_(stride), nodes_(bytes / stride) {
  const std::size_t per_window = window == 0 ? nodes_ : std::max<std::size_t>(1, window / stride);
  const std::vector<std::size_t> order = visit_order(nodes_, per_window, seed);
  auto* base = buffer_.as<char>();
  for (std::size_t i = 0; i < nodes_; ++i) {
    const std::size_t next = order[i + 1 < nodes_ ? i + 1 : 0];
    *reinterpret_cast<void**>(base + order[i] * stride_) = base + next * stride_;
  }
}

std::vector<std::size_t> ChaseRing::visit_order(std::size_t nodes, std::size_t per_window, std::uint64_t seed) {
  per_window = std::clamp<std::size_t>(per_window, 1, std::max<std::size_t>(nodes, 1));
  const std::size_t windows = (nodes + per_window - 1) / per_window;
  std::mt19937_64 rng(seed);
  // Fisher-Yates over [first, last) of v, leaving v[first] in place when
  // keep_first (node 0 stays the head of the cycle).
  const auto shuffle = [&rng](std::vector<std::size_t>& v, std::size_t first, std::size_t last, bool keep_first) {
    const std::size_t from = first + (keep_first ? 1 : 0);
    for (std::size_t i = last; i > from + 1; --i) {
      std::uniform_int_distribution<std::size_t> pick(from, i - 1);
      std::swap(v[i - 1], v[pick(rng)]);
    }
  };
  std::vector<std::size_t> window_order(windows);
  std::iota(window_order.begin(), window_order.end(), 0);
  shuffle(window_order, 0, windows, true);
  std::vector<std::size_t> order;
  order.reserve(nodes);
  for (std::size_t w : window_order) {
    const std::size_t first = order.size();
    for (std::size_t n = w * per_window; n < std::min(nodes, (w + 1) * per_window); ++n) order.push_back(n);
    shuffle(order, first, order.size(), w == 0);
  }
  return order;
}

// Never inlined: a caller that drops the result must not drop the loads.
__attribute__((noinline)) void* ChaseRing::chase(void* from, std::size_t loads) {
  void* p = from;
  for (std::size_t i = 0; i < loads; i += 16) {
#define MOVEBENCH_HOP p = *static_cast<void**>(p);
    MOVEBENCH_HOP MOVEBENCH_HOP MOVEBENCH_HOP MOVEBENCH_HOP MOVEBENCH_HOP MOVEBENCH_HOP MOVEBENCH_HOP MOVEBENCH_HOP
        MOVEBENCH_HOP MOVEBENCH_HOP MOVEBENCH_HOP MOVEBENCH_HOP MOVEBENCH_HOP MOVEBENCH_HOP MOVEBENCH_HOP MOVEBENCH_HOP
#undef MOVEBENCH_HOP
  }
  return p;
}

bool ChaseRing::is_single_cycle() const {
  void* start = buffer_.data();
  void* p = start;
  std::size_t steps = 0;
  do {
    p = *static_cast<void**>(p);
    ++steps;
  } while (p != start && steps <= nodes_);
  return steps == nodes_;
}

std::vector<std::size_t> ChaseRing::walk() const {
  const auto* base = buffer_.as<char>();
  std::vector<std::size_t> seen;
  void* p = buffer_.data();
  do {
    seen.push_back(static_cast<std::size_t>(static_cast<const char*>(p) - base) / stride_);
    p = *static_cast<void**>(p);
  } while (p != buffer_.data() && seen.size() < nodes_);
  return seen;
}

}  // namespace movebench::mem

// ---- the latency mode of `movebench mem` ----
#include <fmt/format.h>

#include <sys/resource.h>

#include "core/clock.hpp"
#include "core/distribution.hpp"
#include "core/interrupt.hpp"
#include "core/sizes.hpp"
#include "core/stats.hpp"
#include "mem/measure.hpp"
#include "mem/mem_output.hpp"
#include "mem/modes.hpp"

namespace movebench::mem {
namespace {

// Loads per sample so that a sample lasts about `target` seconds (core/clock's
// probe, growing by four until a probe lasts a tenth of it), in whole
// rounds of the chase's 16-load unroll. Capped: a sample is bounded in time
// whatever the clock said.
std::size_t loads_for(double target, void*& cursor) {
  const auto timed = [&](std::uint64_t loads) {
    const double t0 = now_seconds();
    cursor = ChaseRing::chase(cursor, loads);
    return now_seconds() - t0;
  };
  const auto loads = calls_for_budget(
      timed, target, Probe{.first = 1 << 12, .growth = 4, .share = 0.1, .most = std::uint64_t{1} << 34}, 16,
      10'000'000'000ull, Fill::kWithin);
  return loads / 16 * 16;
}

long context_switches() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_nvcsw + usage.ru_nivcsw;
}

}  // namespace

// Seconds per load of `samples` samples. Each sample follows an untimed lap
// (up to one sample long) that brings back whatever another process evicted
// while this thread was switched out. A sample whose lap or timing saw a
// context switch measures the scheduler, not the memory: it is taken again
// (up to four tries per wanted sample) and only used when too few clean
// ones came; `disturbed` counts those retaken.
std::vector<double> time_chase(const ChaseRing& ring, int samples, double target, int& disturbed,
                               std::size_t* loads_per_sample, void** resume) {
  void* cursor = resume != nullptr && *resume != nullptr ? *resume : ring.head();
  const std::size_t loads = loads_for(target, cursor);
  if (loads_per_sample != nullptr) *loads_per_sample = loads;
  const std::size_t lap = std::min(loads, (ring.nodes() + 15) / 16 * 16);
  std::vector<double> clean, noisy;
  for (int tries = 0; static_cast<int>(clean.size()) < samples && tries < 4 * samples; ++tries) {
    if (interrupted()) break;
    const long switches = context_switches();
    cursor = ChaseRing::chase(cursor, lap);
    const double t0 = now_seconds();
    cursor = ChaseRing::chase(cursor, loads);
    const double t = (now_seconds() - t0) / static_cast<double>(loads);
    (context_switches() == switches ? clean : noisy).push_back(t);
  }
  disturbed = static_cast<int>(noisy.size());
  std::sort(noisy.begin(), noisy.end());
  for (std::size_t i = 0; clean.size() < static_cast<std::size_t>(samples) && i < noisy.size(); ++i) {
    clean.push_back(noisy[i]);
  }
  if (resume != nullptr) *resume = cursor;
  void* volatile sink = cursor;
  (void)sink;
  return clean;
}

Distribution block_distribution(std::size_t loads, const std::vector<double>& per_load) {
  Distribution blocks(fmt::format("{} of {} loads (its time per load)", kBlockEvent, loads));
  blocks.add(per_load);
  return blocks;
}

void run_latency(const MemOptions& opt, Report& report, Output& out) {
  const ScopedAffinity restore;  // teams pin the main thread
  const Team team = make_team(opt, 1);
  if (!team.cpus.empty()) pin_current_thread(team.cpus.front());
  write_latency_heading(out, opt.stride, opt.tlb_window, latency_chaser(team.cpus.empty() ? -1 : team.cpus.front()),
                        opt.percentiles);
  bool all_cycles = true;
  const double target = opt.point_time / opt.samples;
  report.progress().begin("mem latency", opt.latency_sizes.size());
  SampleCounts counts;
  for (std::uint64_t bytes : opt.latency_sizes) {
    if (interrupted()) break;
    report.progress().step(format_bytes(static_cast<double>(bytes)));
    const ChaseRing ring(bytes, opt.stride, opt.seed, opt.huge_pages, opt.tlb_window);
    // Validation: the ring must be one cycle through every node (this walk
    // also warms the caches and TLB as far as they reach).
    const bool cycle = ring.is_single_cycle();
    all_cycles = all_cycles && cycle;
    int disturbed = 0;
    std::size_t loads = 0;
    const auto per_load = time_chase(ring, opt.samples, target, disturbed, &loads);
    if (per_load.empty()) break;  // interrupted before a sample
    const Summary st = summarize(per_load);
    const Distribution blocks = block_distribution(loads, per_load);
    Record r;
    r.benchmark = "mem";
    r.operation = "latency";
    r.bytes = bytes;
    r.params = {{"mode", "latency"},
                {"stride", opt.stride},
                {"seed", opt.seed},
                {"tlb_window", opt.tlb_window},
                {"disturbed_samples_retaken", disturbed},
                {"huge_pages", opt.huge_pages},
                {"cpu", team.cpus.empty() ? -1 : team.cpus.front()}};
    r.samples = per_load;
    r.figures = {Figure::latency("latency", st.min, Stat::kMin),
                 Figure::latency("latency_median", st.median, Stat::kMedian)};
    for (auto& f : blocks.figures("latency")) r.figures.push_back(std::move(f));
    write_latency_row(out, bytes, st, cycle, opt.percentiles ? &blocks : nullptr);
    counts.add(blocks);
    report.set_result(r.figures.front().named(fmt::format("mem.latency.{}", bytes)));
    report.add(std::move(r), blocks);
  }
  if (opt.percentiles) write_latency_note(out, kBlockEvent, counts);
  write_validation(out, all_cycles, "a chase ring is broken");
  report.validation(all_cycles, "mem latency: a chase ring is not a single cycle");
}

}  // namespace movebench::mem
