#include "fleet/fleet_publish.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <set>

#include "core/sizes.hpp"

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
void add_whole(const std::vector<MemoryFigures>& units, const Bisection& bisection, Report& report, nlohmann::json& whole) {
  for (const auto& [key, get] : {std::pair<const char*, double (*)(const MemoryFigures&)>{"copy", [](const MemoryFigures& m) { return m.copy_mbs; }},
                                 {"triad", [](const MemoryFigures& m) { return m.triad_mbs; }}}) {
    std::vector<double> v;
    double sum = 0;
    for (const auto& m : units) {
      v.push_back(get(m));
      sum += get(m);
    }
    const Spread s = robust_spread(v);
    const std::string base = fmt::format("fleet.mem.{}", key);
    report.set_result(mbs(base + ".sum", sum, Stat::kMedian, Of::kRate));
    report.set_result(mbs(base + ".min", s.min, Stat::kMedian, Of::kRate));
    report.set_result(mbs(base + ".median", s.median, Stat::kMedian, Of::kRate));
    report.set_result(mbs(base + ".max", s.max, Stat::kMedian, Of::kRate));
    whole[std::string("mem.") + key] = {{"sum", sum}, {"min", s.min}, {"median", s.median}, {"max", s.max}, {"unit", "MB/s"}};
  }
  if (!bisection.pairs.empty()) {
    report.set_result(mbs("fleet.bisection", bisection.total_mbs, Stat::kMean, Of::kTime, 2));
    whole["bisection"] = {{"total", bisection.total_mbs}, {"pairs", bisection.pairs.size()}, {"unit", "MB/s"}};
  }
}

void print_units(const Layout& layout, const std::vector<MemoryFigures>& units) {
  std::printf("%-6s %-24s %6s %8s %14s %14s %12s\n", "# unit", "host", "rank", "threads", "copy MB/s", "triad MB/s",
              "latency ns");
  for (std::size_t u = 0; u < units.size(); ++u) {
    const auto& m = units[u];
    std::printf("%-6zu %-24s %6d %8d %14.0f %14.0f %12.1f\n", u, layout.host[u].c_str(), layout.leader[u], m.threads,
                m.copy_mbs, m.triad_mbs, m.latency_ns);
  }
}

void print_pairs(const std::vector<PairFigures>& pairs) {
  if (pairs.empty()) return;
  std::vector<double> lat, bw;
  for (const auto& p : pairs) {
    lat.push_back(p.latency_us);
    bw.push_back(p.bw_mbs);
  }
  const Spread l = robust_spread(lat), b = robust_spread(bw);
  std::printf("pairs: %zu, latency us min/median/max %.2f / %.2f / %.2f, bandwidth MB/s min/median/max %.0f / %.0f / %.0f\n",
              pairs.size(), l.min, l.median, l.max, b.min, b.median, b.max);
}

// This run's units and pairs as its document has them (the same reading
// as the baseline's, so both sides' noise comes from the same records)
// against --baseline: `baseline` and `regressions`, and the lines last.
int compare_with_baseline(const FleetOptions& opt, Report& report) {
  const auto now = subjects_of(report.document(), opt.per_rank);
  const BaselineVerdict v = compare_with(*opt.baseline, now, opt.baseline_threshold);
  report.extra("baseline") = v.json;
  report.extra("regressions") = v.regressions_json;
  for (const auto& line : v.lines) std::printf("%s\n", line.c_str());
  return static_cast<int>(v.regressions.size());
}

}  // namespace

void print_header(const FleetOptions& opt, const Layout& layout, const std::vector<Round>& schedule) {
  std::size_t pairs = 0;
  for (const auto& r : schedule) pairs += r.size();
  std::printf("# movebench fleet: %d units (per %s), %zu hosts, %d turn%s per host; arrays %s, chase %s\n", layout.units,
              opt.per_rank ? "rank" : "host", std::set<std::string>(layout.host.begin(), layout.host.end()).size(),
              layout.slots, layout.slots == 1 ? "" : "s", format_bytes(static_cast<double>(opt.mem_bytes)).c_str(),
              format_bytes(static_cast<double>(opt.chase_bytes)).c_str());
  std::printf("# pairs: %zu rounds (ring, then %d random from seed %llu), %zu pairs; outlier: worse than the median by "
              "more than max(%g x MAD, %g%%)\n",
              schedule.size(), opt.random_rounds, static_cast<unsigned long long>(opt.seed), pairs, opt.rule.k,
              100 * opt.rule.floor);
  std::fflush(stdout);
}

int publish(const FleetOptions& opt, const Layout& layout, const std::vector<MemoryFigures>& units,
             const std::vector<nlohmann::json>& facts, const std::vector<PairFigures>& pairs, const Bisection& bisection, const Verdict& verdict, Report& report) {
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
  add_whole(units, bisection, report, fleet["whole"]);
  report.extra("fleet") = std::move(fleet);
  report.extra("outliers") = verdict.json;
  print_units(layout, units);
  print_pairs(pairs);
  const auto& whole = report.document()["fleet"]["whole"];
  std::printf("memory triad: sum %.0f MB/s over %d units (per unit min %.0f, median %.0f, max %.0f)\n",
              whole["mem.triad"]["sum"].get<double>(), layout.units, whole["mem.triad"]["min"].get<double>(),
              whole["mem.triad"]["median"].get<double>(), whole["mem.triad"]["max"].get<double>());
  if (!bisection.pairs.empty()) {
    std::printf("bisection: %.0f MB/s (%zu pairs across the cut, both ways at once)\n", bisection.total_mbs,
                bisection.pairs.size());
  }
  std::printf("outliers: %zu\n", verdict.outliers.size());
  for (const auto& line : verdict.lines) std::printf("%s\n", line.c_str());
  const int regressions = opt.baseline ? compare_with_baseline(opt, report) : 0;
  std::fflush(stdout);
  return regressions;
}

}  // namespace movebench::fleet
