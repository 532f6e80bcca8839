#include "mem/loaded_latency.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <numeric>
#include <string>
#include <thread>

#include "core/affinity.hpp"
#include "core/buffer.hpp"
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/host_info.hpp"
#include "core/interrupt.hpp"
#include "core/stats.hpp"
#include "mem/kernels.hpp"
#include "mem/latency.hpp"
#include "mem/measure.hpp"
#include "mem/mem_output.hpp"
#include "mem/modes.hpp"

namespace movebench::mem {

std::string delay_text(std::int64_t delay) {
  return delay == kIdleLoad ? std::string(kIdleLoadName) : std::to_string(delay);
}

std::vector<std::int64_t> default_load_delays() {
  // One default chunk (kDefaultLoadChunkBytes) of triad takes some thousand cycles from memory; delays
  // from 100x that down to none sweep the load from a trickle to full.
  return {kIdleLoad, 200000, 100000, 50000, 20000, 10000, 5000, 2000, 1000, 500, 0};
}

LoadedLatencyPlan plan_loaded_latency(int threads, const std::vector<int>& cpus) {
  if (threads < 2) {
    throw UsageError(
        fmt::format("loaded-latency needs at least 2 threads (one chases, the others load), not {}", threads));
  }
  LoadedLatencyPlan plan;
  const auto cpu = [&cpus](int t) { return cpus.empty() ? -1 : cpus[static_cast<std::size_t>(t) % cpus.size()]; };
  plan.chaser_cpu = cpu(0);
  for (int t = 1; t < threads; ++t) plan.loader_cpus.push_back(cpu(t));
  return plan;
}

ElementRange next_chunk(std::size_t from, std::size_t n, std::size_t chunk) {
  if (from >= n) from = 0;
  return {from, std::min(n, from + std::max<std::size_t>(chunk, 1))};
}

std::optional<std::size_t> knee_index(const std::vector<LoadedPoint>& points, double rise) {
  if (points.empty()) return std::nullopt;
  std::vector<std::size_t> by_load(points.size());
  std::iota(by_load.begin(), by_load.end(), 0);
  std::stable_sort(by_load.begin(), by_load.end(),
                   [&](std::size_t a, std::size_t b) { return points[a].bandwidth < points[b].bandwidth; });
  const double base = points[by_load.front()].latency;
  for (std::size_t i = 1; i < by_load.size(); ++i) {
    if (points[by_load[i]].latency > rise * base) return by_load[i - 1];
  }
  return std::nullopt;
}

namespace {

// The delay between chunks: a loop the compiler must keep and that touches
// no memory (portable; on x86 and Arm about one iteration per cycle).
void spin(std::int64_t iterations) {
  for (std::int64_t i = 0; i < iterations; ++i) asm volatile("" ::: "memory");
}

// What the chasing thread tells the loaders, and what each loader reports.
struct LoadControl {
  std::atomic<std::int64_t> delay{kIdleLoad};
  std::atomic<bool> stop{false};
};
struct alignas(64) LoaderState {
  std::atomic<std::uint64_t> elements{0};  // elements processed so far
  std::atomic<bool> ready{false};
  std::atomic<bool> failed{false};
  std::string error;
};

struct LoadSpec {
  Kernel kernel;
  std::size_t elements;  // per array
  std::size_t chunk;     // elements per call
  std::size_t alignment;
  Shape shape;
  bool huge_pages;
};

// The loaders' loop shape: the one --shape forces, else one linear pass,
// with streaming stores when --nt-stores is on, or auto and the loaders'
// arrays together exceed the last-level cache (as docs/mem.md says): a load
// generator, not a figure, so no calibration.
Shape load_shape(const MemOptions& opt, Kernel kernel, int loaders) {
  if (opt.shape) return *opt.shape;
  if (opt.nt_stores == NtStores::kOff || !has_nontemporal_stores()) return Shape::kPlain;
  if (opt.nt_stores == NtStores::kOn) return Shape::kNt;
  const double bytes =
      static_cast<double>(loaders) * info(kernel).arrays * static_cast<double>(opt.elements) * sizeof(double);
  return exceeds_last_level_cache(bytes) ? Shape::kNt : Shape::kPlain;
}

// One loader: its own four arrays, first-touched on its CPU, then chunk
// after chunk of the kernel with the current delay after each.
void load(int cpu, const LoadSpec& spec, const LoadControl& control, LoaderState& state) {
  try {
    if (cpu >= 0) pin_current_thread(cpu);
    set_flush_denormals();
    const std::size_t bytes = spec.elements * sizeof(double);
    HostBuffer a(bytes, spec.alignment, spec.huge_pages), b(bytes, spec.alignment, spec.huge_pages),
        c(bytes, spec.alignment, spec.huge_pages), d(bytes, spec.alignment, spec.huge_pages);
    const Arrays<double> x{a.as<double>(), b.as<double>(), c.as<double>(), d.as<double>()};
    for (std::size_t i = 0; i < spec.elements; ++i) {
      const Element<double> e = initial_element<double>(i);
      x.a[i] = e.a, x.b[i] = e.b, x.c[i] = e.c, x.d[i] = e.d;
    }
    state.ready = true;
    double sink = 0;
    std::size_t from = 0;
    std::uint64_t call = 0;
    while (!control.stop.load(std::memory_order_relaxed)) {
      const std::int64_t delay = control.delay.load(std::memory_order_relaxed);
      if (delay == kIdleLoad) {
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        continue;
      }
      const ElementRange r = next_chunk(from, spec.elements, spec.chunk);
      sink += run_kernel(spec.kernel, x, r.lo, r.hi, spec.shape, call++);
      from = r.hi;
      state.elements.fetch_add(r.hi - r.lo, std::memory_order_relaxed);
      spin(delay);
    }
    volatile double keep = sink;  // sum's result must not be optimised away
    (void)keep;
  } catch (const std::exception& e) {
    state.error = e.what();
    state.failed = true;
  }
}

std::uint64_t elements_done(const std::vector<LoaderState>& states) {
  std::uint64_t total = 0;
  for (const auto& s : states) total += s.elements.load(std::memory_order_relaxed);
  return total;
}

// Stops and joins the loaders however the run ends.
class Loaders {
 public:
  Loaders(const LoadedLatencyPlan& plan, const LoadSpec& spec) : states_(plan.loader_cpus.size()) {
    for (std::size_t i = 0; i < plan.loader_cpus.size(); ++i) {
      threads_.emplace_back(load, plan.loader_cpus[i], std::cref(spec), std::cref(control_), std::ref(states_[i]));
    }
  }
  ~Loaders() {
    control_.stop = true;
    for (auto& t : threads_) t.join();
  }
  Loaders(const Loaders&) = delete;
  Loaders& operator=(const Loaders&) = delete;

  // Waits until every loader has its arrays (bounded); false when one failed.
  bool wait_ready(std::string& error) {
    const double deadline = now_seconds() + 300;
    while (now_seconds() < deadline) {
      bool all = true;
      for (auto& s : states_) {
        if (s.failed) {
          error = s.error;
          return false;
        }
        all = all && s.ready;
      }
      if (all) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    error = "the loaders did not set up their arrays within 300 s";
    return false;
  }
  void set_delay(std::int64_t delay) { control_.delay = delay; }
  std::uint64_t elements() const { return elements_done(states_); }

 private:
  LoadControl control_;
  std::vector<LoaderState> states_;
  std::vector<std::thread> threads_;
};

// The load: its kernel's loads plus stores over the whole window (one
// stretch of time, so the mean), in the unit of --unit.
Figure load_bandwidth(std::string name, double bytes_per_second, const MemOptions& opt) {
  return Figure::bandwidth(std::move(name), bytes_per_second, Stat::kMean, Of::kTime, application_bytes(),
                           scale_of_unit(opt.unit_name()));
}

// One level's measurement: the chase's samples and what the load moved meanwhile.
struct LevelSample {
  std::vector<double> per_load;  // seconds per load, one a sample
  std::size_t block_loads = 0;   // the loads one sample timed
  int disturbed = 0;             // samples retaken after a context switch
  double seconds = 0;            // the window the load is counted over
  double load_bytes = 0;
};

LevelSample measure_level(const ChaseRing& ring, Loaders& team, const MemOptions& opt, double bytes_per_element) {
  LevelSample out;
  const std::uint64_t e0 = team.elements();
  const double t0 = now_seconds();
  out.per_load = time_chase(ring, opt.samples, opt.point_time / opt.samples, out.disturbed, &out.block_loads);
  out.seconds = now_seconds() - t0;
  out.load_bytes = static_cast<double>(team.elements() - e0) * bytes_per_element;
  return out;
}

Record level_record(const MemOptions& opt, const LoadedLatencyPlan& plan, const LoadSpec& spec, std::int64_t delay,
                    const LevelSample& level) {
  const Summary st = summarize(level.per_load);
  const double bandwidth = level.load_bytes / level.seconds;
  Record r;
  r.benchmark = "mem";
  r.operation = "loaded_latency";
  r.bytes = opt.chase_bytes;
  r.params = {{"mode", "loaded-latency"},
              {"delay", delay},
              {"idle", delay == kIdleLoad},
              {"load_kernel", info(spec.kernel).name},
              {"loaders", plan.loader_cpus.size()},
              {"threads", opt.threads.front()},
              {"chaser_cpu", plan.chaser_cpu},
              {"loader_cpus", plan.loader_cpus},
              {"load_elements", opt.elements},
              {"chunk_bytes", spec.chunk * sizeof(double)},
              {"shape", shape_name(spec.shape)},
              {"nontemporal", is_nontemporal(spec.shape)},
              {"stride", opt.stride},
              {"seed", opt.seed},
              {"tlb_window", opt.tlb_window},
              {"huge_pages", opt.huge_pages},
              {"disturbed_samples_retaken", level.disturbed},
              {"load_bytes", level.load_bytes},
              {"load_seconds", level.seconds}};
  r.samples = level.per_load;
  r.figures = {Figure::latency("latency", st.min, Stat::kMin),
               Figure::latency("latency_median", st.median, Stat::kMedian),
               load_bandwidth("load_bandwidth", bandwidth, opt)};
  return r;
}

// The results over all levels: least and most load, and the knee.
void report_knee(const std::vector<LoadedPoint>& points, const MemOptions& opt, Report& report, Output& out) {
  if (points.empty()) return;
  const auto least = std::min_element(points.begin(), points.end(),
                                      [](const auto& a, const auto& b) { return a.bandwidth < b.bandwidth; });
  const auto most = std::max_element(points.begin(), points.end(),
                                     [](const auto& a, const auto& b) { return a.bandwidth < b.bandwidth; });
  report.set_result(Figure::latency("mem.loaded_latency.least_load", least->latency, Stat::kMin));
  report.set_result(Figure::latency("mem.loaded_latency.most_load", most->latency, Stat::kMin));
  report.set_result(load_bandwidth("mem.loaded_latency.most_load_bandwidth", most->bandwidth, opt));
  std::optional<LoadedPoint> knee;
  if (const auto at = knee_index(points, kKneeRise)) knee = points[*at];
  write_knee(out, *least, *most, knee);
  if (knee) {
    report.set_result(load_bandwidth("mem.loaded_latency.knee_bandwidth", knee->bandwidth, opt));
    report.set_result(Figure::latency("mem.loaded_latency.knee", knee->latency, Stat::kMin));
  }
}

// The header's facts: what runs where.
LoadedLatencySetup setup_of(const MemOptions& opt, const LoadedLatencyPlan& plan, const LoadSpec& spec) {
  return {opt.chase_bytes, opt.stride,       opt.tlb_window, plan.chaser_cpu,
          spec.kernel,     plan.loader_cpus, opt.elements,   spec.chunk * sizeof(double),
          spec.shape,      opt.percentiles};
}

}  // namespace

void run_loaded_latency(const MemOptions& opt, Report& report, Output& out) {
  const ScopedAffinity restore;
  const int threads = opt.threads.front();
  const LoadedLatencyPlan plan =
      plan_loaded_latency(threads, place_threads(threads, opt.placement, core_ordered_cpus()));
  if (plan.chaser_cpu >= 0) pin_current_thread(plan.chaser_cpu);
  const Kernel kernel = opt.load_kernel();
  const int loaders = threads - 1;
  const LoadSpec spec{kernel,
                      static_cast<std::size_t>(opt.elements),
                      std::max<std::size_t>(1, opt.load_chunk_bytes / sizeof(double)),
                      static_cast<std::size_t>(opt.alignment),
                      load_shape(opt, kernel, loaders),
                      opt.huge_pages};
  const double bytes_per_element = static_cast<double>(info(kernel).words() * sizeof(double));

  const ChaseRing ring(opt.chase_bytes, opt.stride, opt.seed, opt.huge_pages, opt.tlb_window);
  const bool cycle = ring.is_single_cycle();  // validation, and it warms caches and TLB
  write_loaded_heading(out, setup_of(opt, plan, spec));

  Loaders team(plan, spec);
  std::string error;
  const bool loaders_ok = team.wait_ready(error);
  if (!loaders_ok) throw std::runtime_error(fmt::format("loaded-latency: a loader failed: {}", error));

  std::vector<LoadedPoint> points;
  SampleCounts counts;
  for (std::int64_t delay : opt.load_delays) {
    if (interrupted()) break;
    team.set_delay(delay);
    // Let the load reach its rate (and the idle loaders go to sleep).
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const LevelSample level = measure_level(ring, team, opt, bytes_per_element);
    if (level.per_load.empty()) break;  // interrupted before a sample
    const Summary st = summarize(level.per_load);
    const double bandwidth = level.load_bytes / level.seconds;
    points.push_back({delay, bandwidth, st.min});  // the min: what a context switch did not inflate
    const Distribution blocks = block_distribution(level.block_loads, level.per_load);
    write_loaded_row(out, points.back(), st.median, opt.percentiles ? &blocks : nullptr);
    counts.add(blocks);
    Record r = level_record(opt, plan, spec, delay, level);
    for (auto& f : blocks.figures("latency")) r.figures.push_back(std::move(f));
    // Each level lasts about --time-budget: its row is shown as it comes,
    // stdout being a pipe or a file too.
    out.flush();
    report.add(std::move(r), blocks);
  }
  if (opt.percentiles) write_latency_note(out, kBlockEvent, counts);
  team.set_delay(kIdleLoad);
  report_knee(points, opt, report, out);
  write_validation(out, cycle, "the chase ring is broken");
  report.validation(cycle, "mem loaded-latency: the chase ring is not a single cycle");
}

}  // namespace movebench::mem
