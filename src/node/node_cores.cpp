#include "node/node_cores.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "core/affinity.hpp"
#include "core/figure.hpp"
#include "core/interrupt.hpp"
#include "core/stats.hpp"
#include "node/core_matrix_output.hpp"
#include "node/core_topology.hpp"
#include "node/node_parts.hpp"

namespace movebench::node {
namespace {

// The share of the budget the timed blocks get: the rest is each pair's
// probe (at most about two blocks) and its thread's start.
constexpr double kTimedShare = 0.7;

Record record_of(const PairLatency& p, const PairTiming& t) {
  std::vector<double> one_way;
  for (double s : t.round_trip_seconds) one_way.push_back(s / 2);
  const Summary s = summarize(one_way);
  Record r;
  r.benchmark = "node";
  r.operation = "cores";
  r.params = {{"cpu_a", p.pair.a},
              {"cpu_b", p.pair.b},
              {"relation", relation_name(p.pair.relation)},
              {"round_trips_per_block", t.round_trips},
              {"blocks", t.round_trip_seconds.size()}};
  r.samples = std::move(one_way);
  r.figures = {Figure::latency("latency", s.median, Stat::kMedian), Figure::latency("latency_min", s.min, Stat::kMin),
               Figure::latency("round_trip", 2 * s.median, Stat::kMedian)};
  return r;
}

PairLatency measure_pair(const CpuPair& pair, const PingPong& how, Report& report) {
  const PairTiming t = time_pair(pair.a, pair.b, how);
  PairLatency p;
  p.pair = pair;
  if (!t.failure.empty()) {
    p.failure = t.failure;
    report.add_error(fmt::format("node.cores.{}-{}", pair.a, pair.b), t.failure);
    return p;
  }
  const Summary s = summarize(t.round_trip_seconds);
  p.one_way_ns = s.median / 2 * 1e9;
  p.one_way_min_ns = s.min / 2 * 1e9;
  report.add(record_of(p, t));
  return p;
}

void add_results(const std::vector<RelationSummary>& relations, Report& report) {
  for (const auto& r : relations) {
    const auto name = fmt::format("node.cores.{}", relation_name(r.relation));
    report.set_result(Figure::latency(name, r.median_ns * 1e-9, Stat::kMedian));
  }
}

nlohmann::json settings_of(const CoresRequest& request, const PairPlan& plan, const PingPong& how) {
  return {{"cpus", format_cpu_list(request.cpus)},
          {"pairs", plan.pairs.size()},
          {"every_pair", plan.every_pair},
          {"every_pair_bound", request.every_pair_bound},
          {"sampled_pairs", plan.every_pair ? 0 : request.sampled},
          {"seed", request.seed},
          {"blocks", how.blocks},
          {"block_seconds", how.block_seconds},
          {"budget_seconds", request.budget_seconds},
          {"latency", "one way: half the round trip; a pair's figure is the median of its blocks"}};
}

}  // namespace

PingPong ping_pong_for(double budget_seconds, std::size_t pairs) {
  PingPong how;
  const double per_pair = kTimedShare * budget_seconds / static_cast<double>(std::max<std::size_t>(pairs, 1));
  how.block_seconds = std::min(kBlockMostSeconds, per_pair / kLeastBlocks);
  const double blocks = std::floor(per_pair / std::max(how.block_seconds, 1e-9));
  how.blocks = static_cast<int>(std::clamp<double>(blocks, kLeastBlocks, kMostBlocks));
  how.pair_seconds = per_pair;
  return how;
}

CoresRun run_core_matrix(const CoresRequest& request, Report& report, Output& out) {
  CoresRun run;
  run.matrix.cpus = cpu_places(request.cpus);
  const PairPlan plan = plan_pairs(run.matrix.cpus, request.every_pair_bound, request.sampled, request.seed);
  run.matrix.every_pair = plan.every_pair;
  run.how = ping_pong_for(request.budget_seconds, plan.pairs.size());
  report.settings("node")["cores"] = settings_of(request, plan, run.how);
  report.progress().begin("node cores", plan.pairs.size());
  for (const CpuPair& pair : plan.pairs) {
    if (interrupted()) break;
    report.progress().step(fmt::format("cpu {} - cpu {}", pair.a, pair.b));
    run.matrix.pairs.push_back(measure_pair(pair, run.how, report));
  }
  report.progress().clear();
  run.relations = summarize_relations(run.matrix);
  run.siblings = sibling_sets(run.matrix);
  add_results(run.relations, report);
  write_core_matrix(out, run.matrix);
  write_relations(out, run.relations);
  return run;
}

namespace {

// --cpus, else every CPU this process may run on; each once, in order.
std::vector<int> endpoints(const NodeOptions& opt) {
  const std::vector<int> given = opt.cpus ? *opt.cpus : allowed_cpus();
  const std::set<int> distinct(given.begin(), given.end());
  return {distinct.begin(), distinct.end()};
}

std::optional<std::string> cores_not_here(const NodeTopology&, const NodeOptions& opt) {
  const auto cpus = endpoints(opt);
  if (cpus.size() >= 2) return std::nullopt;
  return fmt::format("the core matrix needs two CPUs, {} given ({})", cpus.size(), format_cpu_list(cpus));
}

void run_cores(NodeContext& ctx) {
  CoresRequest request{endpoints(ctx.opt), ctx.part_seconds, ctx.opt.seed};
  if (ctx.opt.core_sample) {
    request.every_pair_bound = 0;
    request.sampled = *ctx.opt.core_sample;
  }
  const CoresRun run = run_core_matrix(request, ctx.report, ctx.out);
  judge_cores(ctx, run.siblings);
  ctx.out.flush();
}

}  // namespace

void judge_cores(NodeContext& ctx, const std::vector<Siblings>& sets) {
  for (const Siblings& s : sets) {
    std::vector<Endpoint> siblings;
    for (std::size_t i = 0; i < s.names.size(); ++i) siblings.push_back({s.names[i], s.values_ns[i]});
    const auto figure = fmt::format("{} latency ({} median)", relation_name(s.relation), s.kind);
    judge_siblings(ctx, "cores", figure, "ns", siblings, false);
  }
}

NodePart cores_part() {
  return {"cores",
          "the cache-line round trip between CPUs: every pair up to 64 CPUs, beyond it each cache domain's pair and "
          "a sample; per relation (SMT sibling, same L2, same L3, same socket, other socket)",
          cores_not_here, run_cores};
}

}  // namespace movebench::node
