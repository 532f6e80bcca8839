// coll's records and settings (coll_measure.hpp); the text is CollWriter's.
#include <fmt/format.h>

#include "coll/coll_measure.hpp"
#include "core/stats.hpp"

namespace movebench::net {

namespace {

// --percentiles: OSU -z's p50 ... p99_9 (each iteration's mean over the
// ranks; not its max: that name is mpiBench's) and the slowest rank's
// slowest_p50 ... slowest_max, the record's distribution the slowest's.
nlohmann::json add_tails(Record& r, const CollTails& tails) {
  for (auto& f : tails.mean.figures("")) {
    if (f.stat() != Stat::kMax) r.figures.push_back(std::move(f));
  }
  for (auto& f : tails.slowest.figures("slowest")) r.figures.push_back(std::move(f));
  return coll_tails_json(tails);
}

}  // namespace

void record_coll_step(Report& report, CollWriter& out, const CollOptions& o, const CommEntry& comm, const CollInfo& op,
                      const CollCase& c, const StepTiming& t) {
  const auto per_rank = gather_to_root(t.seconds_per_call);
  const auto iterations = o.percentiles ? vectors_to_root(t.per_iteration) : std::vector<std::vector<double>>{};
  if (world_rank() != 0) return;
  const auto s = summarize(per_rank);
  out.step({op.name, c.bytes, t.iters, s, comm.name, c.nranks});
  const CollTails tails = coll_tails(iterations);
  if (o.percentiles) out.tails(tails);
  Record r{"coll", coll_key(op), c.bytes, {}, per_rank, {}};
  r.params = {{"iters", t.iters},
              {"comm", comm.name},
              {"ranks", c.nranks},
              {"barrier", !o.no_barrier},
              {"timing", o.per_call ? "per-call" : "loop"},
              {"datatype", op.reduction ? "MPI_DOUBLE" : "MPI_BYTE"},
              {"count", c.count}};
  // mpiBench's avg, min and max over the ranks' times per call.
  r.figures = {Figure::latency("avg", s.mean, Stat::kMean), Figure::latency("min", s.min, Stat::kMin),
               Figure::latency("max", s.max, Stat::kMax)};
  const bool headline = comm.comm == MPI_COMM_WORLD;
  if (headline) report.set_result(r.figures.front().named(fmt::format("coll.{}.avg", coll_key(op))));
  if (op.sized && s.max > 0) {
    // The call is done when the slowest rank is: bandwidths use the max.
    const double algbw = op.moved_bytes(c.bytes, c.nranks) / s.max;
    const double factor = op.bus_factor(c.nranks);
    const Figure busbw =
        Figure::bandwidth("busbw", algbw * factor, Stat::kMax, Of::kTime, bus_bytes(factor), Scale::kGiga);
    r.figures.push_back(Figure::bandwidth("algbw", algbw, Stat::kMax, Of::kTime, algorithm_bytes(), Scale::kGiga));
    r.figures.push_back(busbw);
    if (headline) report.set_result(busbw.named(fmt::format("coll.{}.busbw", coll_key(op))));
  }
  nlohmann::json distribution = o.percentiles ? add_tails(r, tails) : nlohmann::json();
  report.add(std::move(r), std::move(distribution));
}

void record_coll_settings(Report& report, const CollOptions& o, std::uint64_t end_bytes_fit, double step_timeout_s) {
  auto& s = report.settings("coll");
  nlohmann::json names = nlohmann::json::array();
  for (const auto& op : o.ops) names.push_back(std::string(op.name));
  s["operations"] = names;
  s["begin_bytes"] = o.begin_bytes;
  s["end_bytes"] = o.end_bytes;
  s["end_bytes_after_memory_limit"] = end_bytes_fit;
  kMaxRepetitions.record(s, o.max_repetitions);
  s["memory_limit_bytes"] = o.memory_limit_bytes;
  s["time_limit_us"] = o.time_limit_s * 1e6;
  s["cartesian_dims"] = o.cartesian_dims;
  s["partition_size"] = o.partition_size;
  s["barrier"] = !o.no_barrier;
  s["timing"] = o.per_call ? "per-call" : "loop";
  s["percentiles"] = o.percentiles;
  s["check"] = !o.checking()   ? "none"
               : o.check_every ? "every iteration (untimed pass)"
                               : "once per test (untimed call)";
  s["estimate_iterations"] = kEstimateIters;
  s["step_timeout_s"] = step_timeout_s;
  s["bus_bandwidth"] = "nccl-tests convention, docs/coll.md";
}

}  // namespace movebench::net
