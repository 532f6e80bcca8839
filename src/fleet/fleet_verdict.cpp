#include "fleet/fleet_verdict.hpp"

#include <algorithm>
#include <functional>
#include <set>

#include "fleet/fleet_failures.hpp"
#include "fleet/fleet_suspects.hpp"
#include "judge/siblings.hpp"
#include "fleet/fleet_node.hpp"

namespace movebench::fleet {
namespace {

struct PairFigure {
  const char* name;
  const char* unit;
  bool higher_is_better;
  std::function<double(const PairFigures&)> get;
};

const std::vector<PairFigure>& pair_figures() {
  static const std::vector<PairFigure> figures{
      {"p2p.latency", "us", false, [](const PairFigures& p) { return p.latency_us; }},
      {"p2p.bw", "MB/s", true, [](const PairFigures& p) { return p.bw_mbs; }},
      // --percentiles: a pair whose tail is slow while its mean is typical is a finding too.
      {"p2p.latency_p99", "us", false, [](const PairFigures& p) { return p.latency_p99_us; }},
  };
  return figures;
}

void judge_units(const FleetOptions& opt, const std::vector<MemoryFigures>& units, const std::vector<bool>& no_memory,
                 Verdict& v) {
  std::vector<bool> counted(units.size(), true);
  for (std::size_t u = 0; u < units.size() && u < no_memory.size(); ++u) counted[u] = !no_memory[u];
  for (const auto& f : unit_figures()) {
    std::vector<double> values;
    for (const auto& u : units) values.push_back(f.get(u));
    for (const auto& o : find_outliers_among(values, counted, f.higher_is_better, opt.rule)) {
      v.outliers.push_back({f.name, f.unit, static_cast<int>(o.index), {}, o.value, o.median, o.worse_by});
    }
  }
}

// A unit blamed for its pairs: the median of its own pairs' values.
double median_of_unit(int unit, const std::vector<PairFigures>& pairs, const PairFigure& f) {
  std::vector<double> mine;
  for (const auto& p : pairs) {
    if (p.pair.a == unit || p.pair.b == unit) mine.push_back(f.get(p));
  }
  return judge::robust_spread(mine).median;
}

void judge_pairs(const FleetOptions& opt, const Layout& layout, const std::vector<PairFigures>& pairs, Verdict& v) {
  if (pairs.empty()) return;
  std::vector<PairValue> measured;
  for (const auto& p : pairs) measured.push_back({p.pair, 0});
  for (const auto& f : pair_figures()) {
    std::vector<double> values;
    for (const auto& p : pairs) values.push_back(f.get(p));
    if (std::all_of(values.begin(), values.end(), [](double x) { return x <= 0; })) continue;  // not measured
    std::vector<bool> slow(pairs.size(), false);
    const auto found = judge::find_outliers(values, f.higher_is_better, opt.rule);
    for (const auto& o : found) slow[o.index] = true;
    const Blame blame = blame_pairs(layout.units, measured, slow);
    const double median = judge::robust_spread(values).median;
    // A unit named already (by its own memory figures, or by another pair
    // figure) explains its slow pairs too: with few units its pairs are a
    // large share of all, so not all of them stand out from the median.
    std::set<int> nodes(blame.slow_units.begin(), blame.slow_units.end());
    for (const auto& o : v.outliers) {
      if (o.unit >= 0) nodes.insert(o.unit);
    }
    std::vector<int> blamed = blame.slow_units;
    std::vector<std::size_t> links;
    for (std::size_t i : blame.slow_links) {
      const auto& p = pairs[i].pair;
      for (int u : {p.a, p.b}) {
        if (nodes.contains(u) && std::find(blamed.begin(), blamed.end(), u) == blamed.end()) blamed.push_back(u);
      }
      if (!nodes.contains(p.a) && !nodes.contains(p.b)) links.push_back(i);
    }
    for (int u : blamed) {
      const double value = median_of_unit(u, pairs, f);
      const double worse = f.higher_is_better ? median - value : value - median;
      if (worse <= 0) continue;  // named for another figure; its pairs are typical on this one
      v.outliers.push_back({f.name, f.unit, u, {}, value, median, median != 0 ? worse / median : 0});
    }
    for (std::size_t i : links) {
      const auto o = *std::find_if(found.begin(), found.end(), [&](const judge::Outlier& x) { return x.index == i; });
      v.outliers.push_back({f.name, f.unit, -1, pairs[i].pair, o.value, o.median, o.worse_by});
    }
  }
}

nlohmann::json to_json(const Layout& layout, const FleetOutlier& o) {
  nlohmann::json j = {
      {"figure", o.figure}, {"value", o.value}, {"median", o.median}, {"unit", o.unit_name}, {"worse_by", o.worse_by}};
  if (o.unit >= 0) {
    j["kind"] = "node";
    j["host"] = layout.host[static_cast<std::size_t>(o.unit)];
    j["rank"] = layout.leader[static_cast<std::size_t>(o.unit)];
  } else {
    j["kind"] = "link";
    j["pair"] = {
        {"hosts", {layout.host[static_cast<std::size_t>(o.pair.a)], layout.host[static_cast<std::size_t>(o.pair.b)]}},
        {"ranks",
         {layout.leader[static_cast<std::size_t>(o.pair.a)], layout.leader[static_cast<std::size_t>(o.pair.b)]}}};
  }
  return j;
}

}  // namespace

Verdict judge(const FleetOptions& opt, const Layout& layout, const std::vector<MemoryFigures>& units,
              const std::vector<bool>& no_memory, const std::vector<PairFigures>& pairs,
              const std::vector<NodeStepFigures>& node) {
  Verdict v;
  v.json = nlohmann::json::array();
  judge_units(opt, units, no_memory, v);
  judge_pairs(opt, layout, pairs, v);
  // After the pairs: a slow core or NUMA path explains no slow link.
  for (auto& o : node_step_outliers(node, opt.rule)) v.outliers.push_back(std::move(o));
  for (const auto& o : v.outliers) v.json.push_back(to_json(layout, o));
  return v;
}

}  // namespace movebench::fleet
