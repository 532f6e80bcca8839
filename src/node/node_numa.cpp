// The numa part: every initiator NUMA node (its CPUs, one thread per core)
// x every target NUMA node (the arrays bound there before the team's first
// touch, the chase's ring moved there; both checked with move_pages), the
// read-only (sum) and triad bandwidth with src/mem's runner and the idle
// latency with its chase. MLC's matrices, then each figure judged.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>

#include "core/affinity.hpp"
#include "core/host_info.hpp"
#include "core/interrupt.hpp"
#include "core/sizes.hpp"
#include "core/stats.hpp"
#include "judge/siblings.hpp"
#include "mem/latency.hpp"
#include "mem/measure.hpp"
#include "mem/runner.hpp"
#include "node/node_numa.hpp"
#include "node/numa_placement.hpp"

namespace movebench::node {
namespace {

constexpr std::size_t kPagesChecked = 16;  // per array: first, last and evenly between
constexpr int kLeastRounds = 3, kMostRounds = 20;
constexpr int kLeastChaseSamples = 3, kMostChaseSamples = 20;
constexpr double kChaseSampleSeconds = 0.02;
constexpr double kLatencyShare = 0.3;  // of a cell's time
constexpr std::size_t kChaseStride = 64;
constexpr std::array kKernels = {mem::Kernel::kSum, mem::Kernel::kTriad};

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// The first CPU of every core that has one of `cpus`, in mem's core order:
// one thread per core, as mem's team places them.
std::vector<int> one_cpu_per_core(const std::vector<int>& cpus) {
  std::vector<int> out;
  for (const auto& core : core_ordered_cpus()) {
    for (int c : core) {
      if (std::find(cpus.begin(), cpus.end(), c) != cpus.end()) {
        out.push_back(c);
        break;
      }
    }
  }
  return out.empty() ? cpus : out;
}

// An initiator's team on the target's memory: what a cell needs.
struct Where {
  int initiator = 0, target = 0;
  std::vector<int> cpus;  // one per core
  std::uint64_t bytes = 0;
};

void placement_error(NodeContext& ctx, const Where& w, std::string_view what, const std::string& why) {
  const std::string line = fmt::format("node numa: node {} -> node {}: {}: {}", w.initiator, w.target, what, why);
  ctx.out.problem(line);
  ctx.report.add_error(fmt::format("node.numa.{}.{}", w.initiator, w.target), line);
}

void as_node_record(Record& r, const Where& w, std::string_view kernel) {
  r.benchmark = "node";
  r.operation = "numa";
  r.params["initiator"] = w.initiator;
  r.params["target"] = w.target;
  r.params["kernel"] = kernel;
}

mem::MemOptions kernel_options(const NodeContext& ctx, const Where& w) {
  mem::MemOptions m;
  m.elements = std::max<std::uint64_t>(w.bytes / sizeof(double), 1024);
  m.shape = mem::Shape::kPlain;  // the same loop in every cell: nodes compared, not shapes
  m.kernels = {kKernels.begin(), kKernels.end()};
  m.placement = Placement{Placement::Kind::kList, w.cpus};
  m.seed = ctx.opt.seed;
  return m;
}

// Binds every array to the target before the first touch (the team's, on
// the initiator's CPUs), then asks the kernel where a sample of each
// array's pages are. Returns "" or the problem.
std::string place_arrays(mem::HostRunner<double>& runner, std::size_t elements, int target) {
  for (const auto& b : runner.workspace().buffers) {
    if (auto why = bind_to_node(b.data(), b.size(), target); !why.empty()) return why;
  }
  runner.reset(elements);
  for (const auto& b : runner.workspace().buffers) {
    auto why = placement_problem(check_placement(b.data(), b.size(), target, kPagesChecked), target);
    if (!why.empty()) return why;
  }
  return "";
}

// Rounds of sum then triad, as many as `seconds` holds (an untimed call
// sizes them), every call replayed and checked after.
void measure_bandwidth(NodeContext& ctx, const Where& w, double seconds, Cell& cell) {
  const ScopedAffinity restore;  // the team pins the main thread
  const mem::MemOptions m = kernel_options(ctx, w);
  mem::HostRunner<double> runner(m, static_cast<int>(w.cpus.size()), true, m.elements);
  if (auto why = place_arrays(runner, m.elements, w.target); !why.empty()) {
    return placement_error(ctx, w, "arrays", why);
  }
  runner.prepare(kKernels);
  double sum = 0, timed_sum = 0;  // each call's total replaces the one given: added here
  const auto probe = runner.time_sequence(kKernels, 1, 1, 0, sum);
  if (probe.front().empty()) return;  // interrupted
  const double call = probe[0][0] + probe[1][0];
  const int rounds = std::clamp(static_cast<int>(seconds / std::max(call, 1e-9)), kLeastRounds, kMostRounds);
  const auto times = runner.time_sequence(kKernels, rounds, 1, 1, timed_sum);
  const auto check = runner.check(kKernels, 1 + times.back().size(), sum + timed_sum);
  ctx.report.validation(check.passed, fmt::format("node numa {} -> {}: {}", w.initiator, w.target, check.message));
  if (!check.passed)
    ctx.out.problem(fmt::format("node numa: node {} -> node {}: {}", w.initiator, w.target, check.message));
  for (std::size_t i = 0; i < kKernels.size(); ++i) {
    if (times[i].empty()) continue;
    Record r = mem::kernel_record(m, kKernels[i], runner.total_elements(), runner.params(kKernels[i]),
                                  runner.nontemporal(kKernels[i]), times[i]);
    as_node_record(r, w, mem::info(kKernels[i]).name);
    (i == 0 ? cell.sum : cell.triad) = r.figures.front().value();
    (i == 0 ? cell.sum_spread : cell.triad_spread) = judge::relative_spread(times[i]);
    ctx.report.add(std::move(r));
  }
}

// The chase on one CPU of the initiator through a ring moved to the target.
void measure_latency(NodeContext& ctx, const Where& w, double seconds, Cell& cell) {
  const ScopedAffinity restore;
  pin_current_thread(w.cpus.front());
  const mem::ChaseRing ring(w.bytes, kChaseStride, ctx.opt.seed, false);
  const std::size_t bytes = ring.nodes() * kChaseStride;
  auto why = bind_to_node(ring.head(), bytes, w.target);
  if (why.empty()) why = placement_problem(check_placement(ring.head(), bytes, w.target, kPagesChecked), w.target);
  if (!why.empty()) return placement_error(ctx, w, "chase ring", why);
  const bool cycle = ring.is_single_cycle();  // also warms the TLB as far as it reaches
  ctx.report.validation(cycle, fmt::format("node numa {} -> {}: the chase ring is broken", w.initiator, w.target));
  const int samples =
      std::clamp(static_cast<int>(seconds / kChaseSampleSeconds), kLeastChaseSamples, kMostChaseSamples);
  int disturbed = 0;
  std::vector<double> per_load = mem::time_chase(ring, samples, kChaseSampleSeconds, disturbed);
  if (per_load.empty()) return;  // interrupted
  const Summary st = summarize(per_load);
  cell.latency_spread = judge::relative_spread(per_load);
  Record r;
  r.bytes = bytes;
  r.params = {{"stride", kChaseStride},
              {"seed", ctx.opt.seed},
              {"cpu", w.cpus.front()},
              {"disturbed_samples_retaken", disturbed}};
  as_node_record(r, w, "chase");
  r.samples = std::move(per_load);
  r.figures = {Figure::latency("latency", st.min, Stat::kMin),
               Figure::latency("latency_median", st.median, Stat::kMedian)};
  cell.latency = r.figures.front().value();
  ctx.report.add(std::move(r));
}

}  // namespace

namespace {

// Enough available memory on the target for the four arrays (and the ring after
// them), with room to spare: a strict binding that runs out of memory
// would bring the kernel's OOM killer, not an error.
std::optional<std::string> too_big_for(const Where& w) {
  const auto free = node_available_bytes(w.target);
  const std::uint64_t wanted = 4 * w.bytes;
  if (!free || *free / 2 >= wanted) return std::nullopt;
  return fmt::format(
      "node {} has {} available (free and reclaimable), under twice the {} the cell wants (--array-bytes)", w.target,
      format_bytes(static_cast<double>(*free)), format_bytes(static_cast<double>(wanted)));
}

NumaGrid empty_grid(const NodeTopology& topology) {
  NumaGrid g;
  for (const auto& n : topology.numa) {
    g.targets.push_back(n.os_index);
    if (!n.cpus.empty()) g.initiators.push_back(n.os_index);
  }
  g.cells.assign(g.initiators.size(), std::vector<Cell>(g.targets.size()));
  for (int i : g.initiators) {
    g.distance.emplace_back();
    for (int t : g.targets) g.distance.back().push_back(topology.distance(i, t));
  }
  return g;
}

std::uint64_t array_bytes(const NodeContext& ctx, const NumaGrid& g) {
  if (ctx.opt.array_bytes != 0) return ctx.opt.array_bytes;
  return machine_numa_bytes(g.initiators.size());
}

void run_numa(NodeContext& ctx) {
  NumaGrid g = empty_grid(ctx.topology);
  const std::uint64_t bytes = array_bytes(ctx, g);
  const std::size_t cells = g.initiators.size() * g.targets.size();
  send_now(ctx.out, fmt::format("# numa: {} initiator x {} target NUMA nodes; {} per array (4 arrays) and chase; "
                                "one thread per core; sum (read-only), triad, chase\n",
                                g.initiators.size(), g.targets.size(), format_bytes(static_cast<double>(bytes))));
  ctx.report.settings("node")["numa_array_bytes"] = bytes;
  ctx.report.progress().begin("node numa", cells);
  const auto start = std::chrono::steady_clock::now();
  std::size_t done = 0;
  for (std::size_t r = 0; r < g.initiators.size(); ++r) {
    const Where base{g.initiators[r], 0, one_cpu_per_core(ctx.topology.find(g.initiators[r])->cpus), bytes};
    for (std::size_t c = 0; c < g.targets.size() && !interrupted(); ++c, ++done) {
      Where w = base;
      w.target = g.targets[c];
      ctx.report.progress().step(fmt::format("node {} -> node {}", w.initiator, w.target));
      if (auto why = too_big_for(w)) {
        ctx.out.text(fmt::format("# numa: node {} -> node {}: skipped, {}\n", w.initiator, w.target, *why));
        continue;
      }
      const double share = std::max(0.0, ctx.part_seconds - seconds_since(start)) / static_cast<double>(cells - done);
      measure_bandwidth(ctx, w, share * (1 - kLatencyShare), g.cells[r][c]);
      measure_latency(ctx, w, share * kLatencyShare, g.cells[r][c]);
    }
  }
  ctx.report.progress().clear();
  send_now(ctx.out, numa_matrices_text(g));
  for (const Figure& f : numa_headlines(g)) ctx.report.set_result(f);
  judge_numa(ctx, g);
}

std::optional<std::string> numa_not_here(const NodeTopology& t, const NodeOptions&) {
  for (const auto& n : t.numa) {
    if (!n.cpus.empty()) return std::nullopt;
  }
  return "no NUMA node has a CPU this process may use";
}

}  // namespace

std::uint64_t machine_numa_bytes(std::size_t nodes_with_cpus) {
  const auto caches = data_caches();
  const std::uint64_t llc =
      caches.empty() ? 0 : caches.back().bytes * static_cast<std::uint64_t>(std::max(1, caches.back().instances));
  return default_numa_bytes(llc, nodes_with_cpus);
}

NodePart numa_part() {
  return {"numa", "every NUMA node's CPUs x every NUMA node's memory: read and triad bandwidth, idle latency",
          numa_not_here, run_numa};
}

}  // namespace movebench::node
