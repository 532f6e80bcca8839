#include "fleet/fleet_publish.hpp"

#include <fmt/format.h>

#include <string_view>

#include "core/distribution.hpp"
#include "fleet/fleet_steps.hpp"
#include "judge/siblings.hpp"
#include "node/node_step.hpp"

namespace movebench::fleet {
namespace {

constexpr double kMega = 1e6;

Figure mbs(const std::string& name, double value, Stat stat, Of of, int directions = 1) {
  return Figure::bandwidth(name, value * kMega, stat, of, application_bytes(directions));
}

bool has_memory(const std::vector<bool>& no_memory, std::size_t u) { return u >= no_memory.size() || !no_memory[u]; }

nlohmann::json unit_json(const Layout& layout, std::size_t u, const MemoryFigures& m, bool measured,
                         const nlohmann::json& facts, const NodeStepFigures* node) {
  nlohmann::json j = {
      {"unit", u},
      {"host", layout.host[u]},
      {"rank", layout.leader[u]},
      {"ranks", layout.ranks[u]},
      {"threads", m.threads},
      {"figures",
       measured ? nlohmann::json{{"mem.copy", m.copy_mbs}, {"mem.triad", m.triad_mbs}, {"mem.latency", m.latency_ns}}
                : nlohmann::json::object()},
      // The unit's machine as its rank read it: facts::collect(Sources{}).
      {"facts", facts}};
  if (m.measured_again) j["measured_again"] = true;  // a suspect at first (fleet_suspects.hpp)
  if (node != nullptr) {
    for (const auto& [name, value] : node->figures) j["figures"][name] = value;
    j["node"] = {{"findings", node->findings}};  // node's own, within the unit
  }
  return j;
}

// Each unit's node step headlines, a record each (operation: the figure's
// name), so that report compare matches a unit's figure with the same
// unit's of another run. No samples: a headline is a median over the
// unit's endpoints, each timed in node's own records, which stay on the unit.
void add_node_records(const Layout& layout, const std::vector<NodeStepFigures>& node, Report& report) {
  for (std::size_t u = 0; u < node.size(); ++u) {
    for (const auto& f : node::kStepFigures) {
      const auto it = node[u].figures.find(std::string(f.name));
      if (it == node[u].figures.end()) continue;
      const Figure figure = f.higher_is_better ? mbs("bandwidth", it->second, Stat::kMedian, Of::kRate)
                                               : Figure::latency("latency", it->second * 1e-9, Stat::kMedian);
      report.add({"fleet",
                  std::string(f.name),
                  0,
                  {{"unit", u}, {"host", layout.host[u]}, {"rank", layout.leader[u]}},
                  {},
                  {figure}});
    }
  }
}

void add_unit_records(const FleetOptions& opt, const Layout& layout, const std::vector<MemoryFigures>& units,
                      const std::vector<bool>& no_memory, Report& report) {
  for (std::size_t u = 0; u < units.size(); ++u) {
    if (!has_memory(no_memory, u)) continue;
    const auto& m = units[u];
    const nlohmann::json params = {
        {"unit", u}, {"host", layout.host[u]}, {"rank", layout.leader[u]}, {"threads", m.threads}};
    report.add({"fleet",
                "copy",
                opt.mem_bytes,
                params,
                m.copy_seconds,
                {mbs("bandwidth", m.copy_mbs, Stat::kMin, Of::kTime)}});
    report.add({"fleet",
                "triad",
                opt.mem_bytes,
                params,
                m.triad_seconds,
                {mbs("bandwidth", m.triad_mbs, Stat::kMin, Of::kTime)}});
    report.add({"fleet",
                "latency",
                opt.chase_bytes,
                params,
                m.chase_seconds,
                {Figure::latency("latency", m.latency_ns * 1e-9, Stat::kMin)}});
  }
}

nlohmann::json pair_params(const Layout& layout, const PairFigures& p) {
  const auto a = static_cast<std::size_t>(p.pair.a), b = static_cast<std::size_t>(p.pair.b);
  return {{"units", {p.pair.a, p.pair.b}},
          {"hosts", {layout.host[a], layout.host[b]}},
          {"ranks", {layout.leader[a], layout.leader[b]}},
          {"round", p.round}};
}

void add_pair_records(const FleetOptions& opt, const Layout& layout, const std::vector<PairFigures>& pairs,
                      const Bisection& bisection, Report& report) {
  for (const auto& p : pairs) {
    // The counts each record's seconds are of, as p2p's records (`iters`).
    auto params = pair_params(layout, p);
    params["iters"] = p.ran.round_trips;
    Record latency{"fleet", "pair_latency",      8,
                   params,  {p.latency_seconds}, {Figure::latency("latency", p.latency_us * 1e-6, Stat::kMean)}};
    params["iters"] = p.ran.windows;
    params["window"] = kPairWindow;
    if (p.latency_iterations.empty()) {
      report.add(std::move(latency));
    } else {  // --percentiles: as p2p's -z, over the pair's three repeats
      Distribution iterations(kPairIterationEvent);
      iterations.add(p.latency_iterations);
      for (auto& f : iterations.figures("latency")) latency.figures.push_back(std::move(f));
      report.add(std::move(latency), iterations);
    }
    report.add({"fleet",
                "pair_bw",
                opt.message_bytes,
                params,
                {p.bw_seconds},
                {mbs("bandwidth", p.bw_mbs, Stat::kMean, Of::kTime)}});
  }
  for (const auto& p : bisection.pairs) {
    auto params = pair_params(layout, p);
    params["iters"] = p.ran.windows;
    params["window"] = kPairWindow;
    report.add({"fleet",
                "bisection_pair",
                opt.message_bytes,
                params,
                {p.bw_seconds},
                {mbs("bandwidth", p.bw_mbs, Stat::kMean, Of::kTime, 2)}});
  }
}

// The whole: the sum of the units' bandwidth and its spread per unit, over
// the units that have memory figures (none: no memory figures in the
// whole). Returns triad's, which the text shows.
judge::Whole add_whole(const std::vector<MemoryFigures>& units, const std::vector<bool>& no_memory,
                       const Bisection& bisection, Report& report, nlohmann::json& whole) {
  using Get = double (*)(const MemoryFigures&);
  judge::Whole triad;
  for (const auto& [key, get] :
       {std::pair<std::string_view, Get>{"copy", [](const MemoryFigures& m) { return m.copy_mbs; }},
        {"triad", [](const MemoryFigures& m) { return m.triad_mbs; }}}) {
    std::vector<double> v;
    for (std::size_t u = 0; u < units.size(); ++u) {
      if (has_memory(no_memory, u)) v.push_back(get(units[u]));
    }
    if (v.empty()) break;
    const judge::Whole w = judge::whole_of(v);
    if (key == "triad") triad = w;
    const double sum = w.sum;
    const judge::Spread& s = w.spread;
    const std::string base = fmt::format("fleet.mem.{}", key);
    report.set_result(mbs(base + ".sum", sum, Stat::kMedian, Of::kRate));
    report.set_result(mbs(base + ".min", s.min, Stat::kMedian, Of::kRate));
    report.set_result(mbs(base + ".median", s.median, Stat::kMedian, Of::kRate));
    report.set_result(mbs(base + ".max", s.max, Stat::kMedian, Of::kRate));
    whole["mem." + std::string(key)] = {
        {"sum", sum}, {"min", s.min}, {"median", s.median}, {"max", s.max}, {"unit", "MB/s"}};
  }
  if (!bisection.pairs.empty()) {
    report.set_result(mbs("fleet.bisection", bisection.total_mbs, Stat::kMean, Of::kTime, 2));
    whole["bisection"] = {{"total", bisection.total_mbs}, {"pairs", bisection.pairs.size()}, {"unit", "MB/s"}};
  }
  return triad;
}

// This run's units and pairs as its document has them (the same reading
// as the baseline's, so both sides' noise comes from the same records)
// against --baseline: `baseline` and `regressions`, and the lines last.
int compare_with_baseline(const FleetOptions& opt, Report& report, FleetWriter& out) {
  const auto now = subjects_of(report.document(), opt.per);
  const BaselineVerdict v = compare_with(*opt.baseline, now, opt.baseline_threshold);
  report.extra("baseline") = v.json;
  report.extra("regressions") = v.regressions_json;
  out.baseline(*opt.baseline, v, opt.baseline_threshold);
  return static_cast<int>(v.regressions.size());
}

}  // namespace

nlohmann::json units_json(const Layout& layout, const std::vector<MemoryFigures>& units,
                          const std::vector<bool>& no_memory, const std::vector<nlohmann::json>& facts,
                          const std::vector<NodeStepFigures>& node) {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t u = 0; u < units.size(); ++u) {
    out.push_back(unit_json(layout, u, units[u], has_memory(no_memory, u),
                            u < facts.size() ? facts[u] : nlohmann::json(), u < node.size() ? &node[u] : nullptr));
  }
  return out;
}

double pair_latency_p99_us(const std::vector<double>& iterations) {
  Distribution d(kPairIterationEvent);
  d.add(iterations);
  return d.supported(kPercentiles[2]) ? d.percentile_seconds(kPercentiles[2].percent) * 1e6 : 0;
}

nlohmann::json pairs_json(const Layout& layout, const std::vector<PairFigures>& pairs) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : pairs) {
    auto j = pair_params(layout, p);
    j["figures"] = {{"p2p.latency", p.latency_us}, {"p2p.bw", p.bw_mbs}};
    // What the figures are of: the counts asked, or fewer (--time-budget).
    j["latency_iterations"] = p.ran.round_trips;
    j["bandwidth_iterations"] = p.ran.windows;
    if (p.latency_p99_us > 0) j["figures"]["p2p.latency_p99"] = p.latency_p99_us;
    out.push_back(std::move(j));
  }
  return out;
}

int publish(const FleetOptions& opt, const Layout& layout, const Gathered& got, const Verdict& verdict, Report& report,
            FleetWriter& out) {
  add_unit_records(opt, layout, got.units, got.no_memory, report);
  add_pair_records(opt, layout, got.pairs, got.bisection, report);
  add_node_records(layout, got.node, report);
  nlohmann::json fleet = {{"per", unit_kind_name(opt.per)},
                          {"units", units_json(layout, got.units, got.no_memory, got.facts, got.node)},
                          {"pairs", pairs_json(layout, got.pairs)},
                          {"whole", nlohmann::json::object()}};
  const judge::Whole triad = add_whole(got.units, got.no_memory, got.bisection, report, fleet["whole"]);
  report.extra("fleet") = std::move(fleet);  // whole: no `in_progress` any more
  report.extra("outliers") = verdict.json;
  report.extra("failed_units") = failures_json(layout, got.failures);
  out.results({layout,
               got.units,
               got.no_memory,
               got.pairs,
               triad,
               got.bisection,
               verdict.outliers,
               &got.node,
               {opt.latency_iterations, opt.bandwidth_iterations}});
  const int regressions = opt.baseline ? compare_with_baseline(opt, report, out) : 0;
  out.failed(layout, got.failures);
  out.end();
  return regressions;
}

}  // namespace movebench::fleet
