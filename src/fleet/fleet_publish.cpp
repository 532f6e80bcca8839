#include "fleet/fleet_publish.hpp"

#include <fmt/format.h>

#include <string_view>

namespace movebench::fleet {
namespace {

constexpr double kMega = 1e6;

Figure mbs(const std::string& name, double value, Stat stat, Of of, int directions = 1) {
  return Figure::bandwidth(name, value * kMega, stat, of, application_bytes(directions));
}

nlohmann::json unit_json(const Layout& layout, std::size_t u, const MemoryFigures& m, const nlohmann::json& facts) {
  return {{"unit", u},
          {"host", layout.host[u]},
          {"rank", layout.leader[u]},
          {"ranks", layout.ranks[u]},
          {"threads", m.threads},
          {"figures", {{"mem.copy", m.copy_mbs}, {"mem.triad", m.triad_mbs}, {"mem.latency", m.latency_ns}}},
          // The unit's machine as its rank read it: facts::collect(Sources{}).
          {"facts", facts}};
}

void add_unit_records(const FleetOptions& opt, const Layout& layout, const std::vector<MemoryFigures>& units,
                      Report& report) {
  for (std::size_t u = 0; u < units.size(); ++u) {
    const auto& m = units[u];
    const nlohmann::json params = {{"unit", u}, {"host", layout.host[u]}, {"rank", layout.leader[u]}, {"threads", m.threads}};
    report.add({"fleet", "copy", opt.mem_bytes, params, m.copy_seconds, {mbs("bandwidth", m.copy_mbs, Stat::kMin, Of::kTime)}});
    report.add({"fleet", "triad", opt.mem_bytes, params, m.triad_seconds, {mbs("bandwidth", m.triad_mbs, Stat::kMin, Of::kTime)}});
    report.add({"fleet", "latency", opt.chase_bytes, params, m.chase_seconds,
                {Figure::latency("latency", m.latency_ns * 1e-9, Stat::kMin)}});
  }
}

nlohmann::json pair_json(const Layout& layout, const PairFigures& p) {
  const auto a = static_cast<std::size_t>(p.pair.a), b = static_cast<std::size_t>(p.pair.b);
  return {{"units", {p.pair.a, p.pair.b}},
          {"hosts", {layout.host[a], layout.host[b]}},
          {"ranks", {layout.leader[a], layout.leader[b]}},
          {"round", p.round}};
}

void add_pair_records(const FleetOptions& opt, const Layout& layout, const std::vector<PairFigures>& pairs,
                      const Bisection& bisection, Report& report) {
  for (const auto& p : pairs) {
    const auto params = pair_json(layout, p);
    report.add({"fleet", "pair_latency", 8, params, {p.latency_seconds},
                {Figure::latency("latency", p.latency_us * 1e-6, Stat::kMean)}});
    report.add({"fleet", "pair_bw", opt.message_bytes, params, {p.bw_seconds},
                {mbs("bandwidth", p.bw_mbs, Stat::kMean, Of::kTime)}});
  }
  for (const auto& p : bisection.pairs) {
    report.add({"fleet", "bisection_pair", opt.message_bytes, pair_json(layout, p), {p.bw_seconds},
                {mbs("bandwidth", p.bw_mbs, Stat::kMean, Of::kTime, 2)}});
  }
}

// The whole: the sum of the units' bandwidth and its spread per unit.
// Returns triad's, which the text shows.
Whole add_whole(const std::vector<MemoryFigures>& units, const Bisection& bisection, Report& report,
                nlohmann::json& whole) {
  using Get = double (*)(const MemoryFigures&);
  Whole triad;
  for (const auto& [key, get] : {std::pair<std::string_view, Get>{"copy", [](const MemoryFigures& m) { return m.copy_mbs; }},
                                 {"triad", [](const MemoryFigures& m) { return m.triad_mbs; }}}) {
    std::vector<double> v;
    for (const auto& m : units) v.push_back(get(m));
    const Whole w = whole_of(v);
    if (key == "triad") triad = w;
    const double sum = w.sum;
    const Spread& s = w.spread;
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
  const auto now = subjects_of(report.document(), opt.per_rank);
  const BaselineVerdict v = compare_with(*opt.baseline, now, opt.baseline_threshold);
  report.extra("baseline") = v.json;
  report.extra("regressions") = v.regressions_json;
  out.baseline(*opt.baseline, v, opt.baseline_threshold);
  return static_cast<int>(v.regressions.size());
}

}  // namespace

int publish(const FleetOptions& opt, const Layout& layout, const std::vector<MemoryFigures>& units,
            const std::vector<nlohmann::json>& facts, const std::vector<PairFigures>& pairs, const Bisection& bisection,
            const Verdict& verdict, Report& report, FleetWriter& out) {
  add_unit_records(opt, layout, units, report);
  add_pair_records(opt, layout, pairs, bisection, report);
  nlohmann::json fleet = {{"per", opt.per_rank ? "rank" : "host"}, {"units", nlohmann::json::array()},
                          {"pairs", nlohmann::json::array()}, {"whole", nlohmann::json::object()}};
  for (std::size_t u = 0; u < units.size(); ++u) fleet["units"].push_back(unit_json(layout, u, units[u], u < facts.size() ? facts[u] : nlohmann::json()));
  for (const auto& p : pairs) {
    auto j = pair_json(layout, p);
    j["figures"] = {{"p2p.latency", p.latency_us}, {"p2p.bw", p.bw_mbs}};
    fleet["pairs"].push_back(std::move(j));
  }
  const Whole triad = add_whole(units, bisection, report, fleet["whole"]);
  report.extra("fleet") = std::move(fleet);
  report.extra("outliers") = verdict.json;
  out.results({layout, units, pairs, triad, bisection, verdict.outliers});
  const int regressions = opt.baseline ? compare_with_baseline(opt, report, out) : 0;
  out.end();
  return regressions;
}

}  // namespace movebench::fleet
