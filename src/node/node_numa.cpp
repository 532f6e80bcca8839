// The numa part: every initiator NUMA node (its CPUs, one thread per core)
// x every target NUMA node (the arrays bound there before the team's first
// touch, the chase's ring moved there; both checked with move_pages), the
// read-only (sum) and triad bandwidth with src/mem's runner and the idle
// latency with its chase, every cell held open and measured in alternating
// rounds (measure_in_rounds). MLC's matrices, then each figure judged.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <memory>

#include "core/affinity.hpp"
#include "core/clock.hpp"
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

constexpr std::size_t kPagesChecked = 16;     // per array: first, last and evenly between
constexpr double kChaseSampleSeconds = 0.02;  // a round's sample of a cell's chase
constexpr double kLatencyShare = 0.3;         // of the part's time: the chase's rounds
constexpr std::size_t kChaseStride = 64;
constexpr std::array kKernels = {mem::Kernel::kSum, mem::Kernel::kTriad};

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

// A cell's team on its arrays (bound to the target, checked, warmed by one
// untimed call), held through every round: one sum and one triad call a
// round. Held by pointer: the runner keeps a reference to the options.
struct BandwidthCell {
  Where w;
  Cell* cell = nullptr;
  mem::MemOptions m;
  std::unique_ptr<mem::HostRunner<double>> runner;
  std::array<std::vector<double>, kKernels.size()> times;  // seconds per call, one a round
  double sum = 0;           // every sum call's total (each call's replaces the one given)
  std::uint64_t calls = 0;  // calls of the sequence, the warm-up's included
};

std::unique_ptr<BandwidthCell> open_bandwidth(NodeContext& ctx, const Where& w, Cell& cell) {
  auto b = std::make_unique<BandwidthCell>();
  b->w = w;
  b->cell = &cell;
  b->m = kernel_options(ctx, w);
  b->runner = std::make_unique<mem::HostRunner<double>>(b->m, static_cast<int>(w.cpus.size()), true, b->m.elements);
  if (auto why = place_arrays(*b->runner, b->m.elements, w.target); !why.empty()) {
    placement_error(ctx, w, "arrays", why);
    return nullptr;
  }
  b->runner->prepare(kKernels);
  if (b->runner->time_sequence(kKernels, 1, 1, 0, b->sum).front().empty()) return nullptr;  // interrupted
  b->calls = 1;
  return b;
}

// One round of the cell: false when a signal stopped it.
bool bandwidth_round(BandwidthCell& b) {
  double sum = 0;
  const auto times = b.runner->time_sequence(kKernels, 1, 1, b.calls, sum);
  if (times.front().empty()) return false;
  for (std::size_t i = 0; i < kKernels.size(); ++i) b.times[i].push_back(times[i].front());
  b.sum += sum;
  ++b.calls;
  return !interrupted();
}

// Every call replayed and checked, then a record per kernel: the best round
// (mem's figure) and its spread over the rounds.
void close_bandwidth(NodeContext& ctx, BandwidthCell& b) {
  const Where& w = b.w;
  const auto check = b.runner->check(kKernels, b.calls, b.sum);
  ctx.report.validation(check.passed, fmt::format("node numa {} -> {}: {}", w.initiator, w.target, check.message));
  if (!check.passed)
    ctx.out.problem(fmt::format("node numa: node {} -> node {}: {}", w.initiator, w.target, check.message));
  for (std::size_t i = 0; i < kKernels.size(); ++i) {
    if (b.times[i].empty()) continue;
    (i == 0 ? b.cell->sum_spread : b.cell->triad_spread) = judge::relative_spread(b.times[i]);
    Record r = mem::kernel_record(b.m, kKernels[i], b.runner->total_elements(), b.runner->params(kKernels[i]),
                                  b.runner->nontemporal(kKernels[i]), std::move(b.times[i]));
    as_node_record(r, w, mem::info(kKernels[i]).name);
    // Each round's call as the figure: the best's rate scaled by its time (the record's samples).
    const double best = r.figures.front().value();
    const double fastest = *std::min_element(r.samples.begin(), r.samples.end());
    (i == 0 ? b.cell->sum : b.cell->triad) = best;
    for (double t : r.samples) (i == 0 ? b.cell->sum_rounds : b.cell->triad_rounds).push_back(best * fastest / t);
    ctx.report.add(std::move(r));
  }
}

// A cell's chase ring, built on the initiator's first CPU, moved to the
// target and checked, held through every round: one sample a round.
struct ChaseCell {
  Where w;
  Cell* cell = nullptr;
  std::unique_ptr<mem::ChaseRing> ring;
  void* cursor = nullptr;        // where the last round's chase stopped: the next goes on from there
  std::vector<double> per_load;  // seconds per load, one sample a round
  int disturbed = 0;
};

std::unique_ptr<ChaseCell> open_chase(NodeContext& ctx, const Where& w, Cell& cell) {
  pin_current_thread(w.cpus.front());
  auto c = std::make_unique<ChaseCell>();
  c->w = w;
  c->cell = &cell;
  c->ring = std::make_unique<mem::ChaseRing>(w.bytes, kChaseStride, ctx.opt.seed, false);
  const std::size_t bytes = c->ring->nodes() * kChaseStride;
  auto why = bind_to_node(c->ring->head(), bytes, w.target);
  if (why.empty()) why = placement_problem(check_placement(c->ring->head(), bytes, w.target, kPagesChecked), w.target);
  if (!why.empty()) {
    placement_error(ctx, w, "chase ring", why);
    return nullptr;
  }
  const bool cycle = c->ring->is_single_cycle();  // also warms the TLB as far as it reaches
  ctx.report.validation(cycle, fmt::format("node numa {} -> {}: the chase ring is broken", w.initiator, w.target));
  return c;
}

bool chase_round(ChaseCell& c) {
  pin_current_thread(c.w.cpus.front());
  int disturbed = 0;
  const auto sample = mem::time_chase(*c.ring, 1, kChaseSampleSeconds, disturbed, nullptr, &c.cursor);
  c.disturbed += disturbed;
  c.per_load.insert(c.per_load.end(), sample.begin(), sample.end());
  return !sample.empty() && !interrupted();
}

// A record of the chase: the fastest round (mem latency's figure), the
// median, and the spread over the rounds.
void close_chase(NodeContext& ctx, ChaseCell& c) {
  if (c.per_load.empty()) return;  // interrupted
  const Summary st = summarize(c.per_load);
  c.cell->latency_spread = judge::relative_spread(c.per_load);
  Record r;
  r.bytes = c.ring->nodes() * kChaseStride;
  r.params = {{"stride", kChaseStride},
              {"seed", ctx.opt.seed},
              {"cpu", c.w.cpus.front()},
              {"disturbed_samples_retaken", c.disturbed}};
  as_node_record(r, c.w, "chase");
  r.samples = std::move(c.per_load);
  r.figures = {Figure::latency("latency", st.min, Stat::kMin),
               Figure::latency("latency_median", st.median, Stat::kMedian)};
  const double best = r.figures.front().value();
  c.cell->latency = best;
  for (double t : r.samples) c.cell->latency_rounds.push_back(best * t / st.min);
  ctx.report.add(std::move(r));
}

}  // namespace

namespace {

// Enough available memory on the target for every cell's arrays at once
// (they are held through the rounds; the rings after them, smaller), with
// room to spare: a strict binding that runs out of memory would bring the
// kernel's OOM killer, not an error.
std::optional<std::string> too_big_for(int target, std::uint64_t bytes, std::size_t cells) {
  const auto free = node_available_bytes(target);
  const std::uint64_t wanted = 4 * bytes * cells;
  if (!free || *free / 2 >= wanted) return std::nullopt;
  return fmt::format(
      "node {} has {} available (free and reclaimable), under twice the {} its {} cells hold at once (4 arrays of "
      "--array-bytes each)",
      target, format_bytes(static_cast<double>(*free)), format_bytes(static_cast<double>(wanted)), cells);
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

// Every cell to measure, row by row, with where its figures go: those of a
// target that cannot hold all its cells at once are skipped, each with
// the reason on a `#` line.
std::vector<std::pair<Where, Cell*>> cells_to_measure(NodeContext& ctx, NumaGrid& g, std::uint64_t bytes) {
  std::vector<std::optional<std::string>> too_big;
  for (int t : g.targets) too_big.push_back(too_big_for(t, bytes, g.initiators.size()));
  std::vector<std::pair<Where, Cell*>> cells;
  for (std::size_t r = 0; r < g.initiators.size(); ++r) {
    const Where base{g.initiators[r], 0, one_cpu_per_core(ctx.topology.find(g.initiators[r])->cpus), bytes};
    for (std::size_t c = 0; c < g.targets.size(); ++c) {
      Where w = base;
      w.target = g.targets[c];
      if (too_big[c]) {
        ctx.out.text(fmt::format("# numa: node {} -> node {}: skipped, {}\n", w.initiator, w.target, *too_big[c]));
      } else {
        cells.emplace_back(std::move(w), &g.cells[r][c]);
      }
    }
  }
  return cells;
}

// Opens every cell (`open(ctx, where, cell)`: null when it cannot be
// measured, its error already said), measures the open ones in rounds
// within `seconds` from `start`, closes them; returns the rounds.
template <class Held, class Open, class Round, class Close>
int in_rounds(NodeContext& ctx, const std::vector<std::pair<Where, Cell*>>& cells, double start, double seconds,
              std::string_view what, Open open, Round round, Close close) {
  std::vector<std::unique_ptr<Held>> held;
  for (const auto& [w, cell] : cells) {
    if (interrupted()) break;
    ctx.report.progress().step(fmt::format("node {} -> node {}: {}", w.initiator, w.target, what));
    if (auto h = open(ctx, w, *cell)) held.push_back(std::move(h));
  }
  ctx.report.progress().step(fmt::format("{} rounds", what));
  const double left = std::max(0.0, start + seconds - now_seconds());
  const int rounds =
      interrupted() ? 0 : measure_in_rounds(held.size(), left, [&](std::size_t i) { return round(*held[i]); });
  for (auto& h : held) close(ctx, *h);
  return rounds;
}

void run_numa(NodeContext& ctx) {
  NumaGrid g = empty_grid(ctx.topology);
  const std::uint64_t bytes = array_bytes(ctx, g);
  send_now(ctx.out, fmt::format("# numa: {} initiator x {} target NUMA nodes; {} per array (4 arrays) and chase; "
                                "one thread per core; sum (read-only), triad, chase; every cell once a round\n",
                                g.initiators.size(), g.targets.size(), format_bytes(static_cast<double>(bytes))));
  auto& settings = ctx.report.settings("node");
  settings["numa_array_bytes"] = bytes;
  const auto cells = cells_to_measure(ctx, g, bytes);
  ctx.report.progress().begin("node numa", 2 * cells.size() + 2);
  const double start = now_seconds();
  {
    const ScopedAffinity restore;  // the teams and the chase pin the main thread
    const int bandwidth = in_rounds<BandwidthCell>(ctx, cells, start, ctx.part_seconds * (1 - kLatencyShare),
                                                   "bandwidth", open_bandwidth, bandwidth_round, close_bandwidth);
    const int latency =
        in_rounds<ChaseCell>(ctx, cells, start, ctx.part_seconds, "latency", open_chase, chase_round, close_chase);
    settings["numa_rounds"] = {{"bandwidth", bandwidth}, {"latency", latency}};
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

int measure_in_rounds(std::size_t cells, double seconds, const std::function<bool(std::size_t)>& measure) {
  if (cells == 0) return 0;
  const double start = now_seconds();
  std::uint64_t rounds = kLeastRounds;
  for (std::uint64_t r = 0; r < rounds; ++r) {
    for (std::size_t i = 0; i < cells; ++i) {
      if (!measure((r + i) % cells)) return static_cast<int>(r);
    }
    const double took = now_seconds() - start;
    if (r == 0) rounds = calls_to_fill(seconds, took, 1, kLeastRounds, kMostRounds, Fill::kWithin);
    // Rounds that slow down (a loaded machine) end the loop early: past the
    // least, a round begins only when one more, at the pace so far, fits.
    if (r + 1 >= kLeastRounds && took * static_cast<double>(r + 2) / static_cast<double>(r + 1) > seconds) {
      return static_cast<int>(r + 1);
    }
  }
  return static_cast<int>(rounds);
}

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
