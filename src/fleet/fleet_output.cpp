#include "fleet/fleet_output.hpp"

#include <fmt/format.h>
#include <fmt/printf.h>

#include <algorithm>
#include <set>
#include <string_view>

#include "core/figure.hpp"
#include "core/sizes.hpp"
#include "core/output.hpp"
#include "judge/siblings.hpp"
#include "node/node_step.hpp"

namespace movebench::fleet {
namespace {

std::string who(const Layout& layout, int unit) {
  const auto u = static_cast<std::size_t>(unit);
  return fmt::format("host {} rank {}", layout.host[u], layout.leader[u]);
}

// "16480 MB/s": the figure as every text line shows it (core/figure's significant_text: no exponent).
std::string value_text(double v, std::string_view unit) { return significant_text(v) + " " + std::string(unit); }

std::string describe(const FleetOutlier& o) {
  return fmt::format("{} {} vs median {}", o.figure, value_text(o.value, o.unit_name),
                     value_text(o.median, o.unit_name));
}

std::string regression_line(const Regression& r) {
  return fmt::format("SLOWER {} {}: {} {}, before {} (now/before {:.3g}; noise {:.1f}% / {:.1f}%)",
                     r.subject->pair ? "link" : "node", r.subject->name, r.figure->name,
                     value_text(r.now.value, r.figure->unit), value_text(r.before.value, r.figure->unit), r.ratio,
                     100 * r.before.noise, 100 * r.now.noise);
}

}  // namespace

// printf's formats, kept (fmt::sprintf): the tests read these columns.

std::string fleet_heading(const FleetOptions& opt, const Layout& layout, const std::vector<Round>& schedule) {
  std::size_t pairs = 0;
  for (const auto& r : schedule) pairs += r.size();
  const std::size_t hosts = std::set<std::string>(layout.host.begin(), layout.host.end()).size();
  return fmt::sprintf("# movebench fleet: %d units (per %s), %zu hosts, %d turn%s per host; arrays %s, chase %s\n",
                      layout.units, unit_kind_name(opt.per), hosts, layout.slots, layout.slots == 1 ? "" : "s",
                      format_bytes(static_cast<double>(opt.mem_bytes)),
                      format_bytes(static_cast<double>(opt.chase_bytes))) +
         fmt::sprintf(
             "# pairs: %zu rounds (ring, then %d random from seed %llu), %zu pairs; outlier: worse than the "
             "median by more than max(%g x MAD, %g%%)\n",
             schedule.size(), opt.random_rounds, static_cast<unsigned long long>(opt.seed), pairs, opt.rule.k,
             100 * opt.rule.floor);
}

std::string unit_table(const Layout& layout, const std::vector<MemoryFigures>& units,
                       const std::vector<bool>& no_memory) {
  std::string text = fmt::sprintf("%-6s %-24s %6s %8s %14s %14s %12s\n", "# unit", "host", "rank", "threads",
                                  "copy MB/s", "triad MB/s", "latency ns");
  for (std::size_t u = 0; u < units.size(); ++u) {
    const auto& m = units[u];
    if (u < no_memory.size() && no_memory[u]) {  // failed: its line at the end says where
      text +=
          fmt::sprintf("%-6zu %-24s %6d %8s %14s %14s %12s\n", u, layout.host[u], layout.leader[u], "-", "-", "-", "-");
      continue;
    }
    text += fmt::sprintf("%-6zu %-24s %6d %8d %14.0f %14.0f %12.1f\n", u, layout.host[u], layout.leader[u], m.threads,
                         m.copy_mbs, m.triad_mbs, m.latency_ns);
  }
  std::string again;
  for (std::size_t u = 0; u < units.size(); ++u) {
    if (units[u].measured_again) again += fmt::format(" {}", u);
  }
  if (!again.empty())
    text += "# measured again after the pairs, the best of both kept (suspect at first): unit" + again + "\n";
  return text;
}

std::string pairs_line(const std::vector<PairFigures>& pairs) {
  if (pairs.empty()) return {};
  std::vector<double> lat, bw;
  for (const auto& p : pairs) {
    lat.push_back(p.latency_us);
    bw.push_back(p.bw_mbs);
  }
  const judge::Spread l = judge::robust_spread(lat), b = judge::robust_spread(bw);
  return fmt::sprintf(
      "pairs: %zu, latency us min/median/max %.2f / %.2f / %.2f, bandwidth MB/s min/median/max %.0f / %.0f / %.0f\n",
      pairs.size(), l.min, l.median, l.max, b.min, b.median, b.max);
}

std::string cut_line(const std::vector<PairFigures>& pairs, const Bisection& bisection, PairCounts asked) {
  int trips_cut = 0, windows_cut = 0, least_trips = asked.round_trips, least_windows = asked.windows;
  const auto windows = [&](const PairFigures& p) {
    if (p.ran.windows >= asked.windows) return;
    ++windows_cut;
    least_windows = std::min(least_windows, p.ran.windows);
  };
  for (const auto& p : pairs) {
    windows(p);
    if (p.ran.round_trips >= asked.round_trips) continue;
    ++trips_cut;
    least_trips = std::min(least_trips, p.ran.round_trips);
  }
  for (const auto& p : bisection.pairs) windows(p);
  if (trips_cut == 0 && windows_cut == 0) return {};
  return fmt::sprintf(
      "# cut to fit --time-budget: %d of %zu pairs ran fewer ping-pongs than the %d asked (fewest %d); %d of %zu "
      "pairs and bisection pairs fewer windows than the %d asked (fewest %d)\n",
      trips_cut, pairs.size(), asked.round_trips, least_trips, windows_cut, pairs.size() + bisection.pairs.size(),
      asked.windows, least_windows);
}

std::string triad_line(const judge::Whole& triad, int measured, int units) {
  if (measured == 0) return "memory triad: no unit measured\n";
  const std::string over =
      measured == units ? fmt::format("{} units", units) : fmt::format("{} of {} units", measured, units);
  return fmt::sprintf("memory triad: sum %.0f MB/s over %s (per unit min %.0f, median %.0f, max %.0f)\n", triad.sum,
                      over, triad.spread.min, triad.spread.median, triad.spread.max);
}

std::string bisection_line(const Bisection& bisection) {
  if (bisection.pairs.empty()) return {};
  return fmt::sprintf("bisection: %.0f MB/s (%zu pairs across the cut, both ways at once)\n", bisection.total_mbs,
                      bisection.pairs.size());
}

std::string node_lines(const Layout& layout, const std::vector<NodeStepFigures>& node) {
  if (node.empty()) return "";
  std::string text = "node step (movebench node's numa matrix and a sample of its core matrix, per unit):\n";
  std::string findings;
  for (std::size_t u = 0; u < node.size(); ++u) {
    std::string line;
    for (const auto& f : node::kStepFigures) {
      const auto it = node[u].figures.find(std::string(f.name));
      if (it != node[u].figures.end()) line += fmt::format(" {} {};", f.name.substr(5), value_text(it->second, f.unit));
    }
    text += fmt::format("  {}:{}\n", who(layout, static_cast<int>(u)), line.empty() ? " -" : line);
    for (const auto& finding : node[u].findings)
      findings += fmt::format("  {}: {}\n", who(layout, static_cast<int>(u)), finding.value("text", std::string()));
  }
  return text +
         fmt::format("node step findings within units: {}\n", std::count(findings.begin(), findings.end(), '\n')) +
         findings;
}

std::string outlier_lines(const Layout& layout, const std::vector<FleetOutlier>& outliers) {
  std::string text = fmt::format("outliers: {}\n", outliers.size());
  std::set<std::string> drained;
  std::string drains;
  for (const auto& o : outliers) {
    const std::string worse = fmt::format("{:.0f}% worse", 100 * o.worse_by);
    if (o.unit < 0) {
      text += fmt::format("OUTLIER link {} <-> {}: {} ({})\n", who(layout, o.pair.a), who(layout, o.pair.b),
                          describe(o), worse);
      continue;
    }
    text += fmt::format("OUTLIER node {}: {} ({})\n", who(layout, o.unit), describe(o), worse);
    const auto& host = layout.host[static_cast<std::size_t>(o.unit)];
    if (drained.insert(host).second) {
      drains += fmt::format("scontrol update nodename={} state=drain reason=\"movebench: {}\"\n", host, describe(o));
    }
  }
  return text + drains;
}

std::string failed_lines(const Layout& layout, const std::vector<UnitFailure>& failures) {
  std::string text;
  for (const auto& f : failures)
    text += fmt::format("FAILED unit {} in {}: {}\n", who(layout, f.unit), f.step, f.reason);
  return text;
}

std::string failures_line(const Layout& layout, const std::vector<UnitFailure>& failures) {
  constexpr std::size_t kNamed = 10;  // the rest are in `failed_units`
  std::string line = fmt::format("{} of {} units failed:", failures.size(), layout.units);
  for (std::size_t i = 0; i < failures.size() && i < kNamed; ++i) {
    const auto& f = failures[i];
    line += fmt::format("{} {} in {}: {}", i ? ";" : "", who(layout, f.unit), f.step, f.reason);
  }
  if (failures.size() > kNamed) line += fmt::format("; and {} more (failed_units)", failures.size() - kNamed);
  return line;
}

std::string baseline_lines(const Baseline& baseline, const BaselineVerdict& v, double threshold) {
  std::string text = fmt::format(
      "baseline: {} ({}), {} figures compared, threshold {:g}%: {} slower{}\n", baseline.path,
      baseline.kind == "fleet" ? "an earlier fleet result" : "reference figures", v.compared, 100 * threshold,
      v.regressions.size(), v.missing.empty() ? "" : fmt::format("; not in it: {}", fmt::join(v.missing, ", ")));
  for (const auto& r : v.regressions) text += regression_line(r) + "\n";
  return text;
}

void FleetWriter::heading(const FleetOptions& opt, const Layout& layout, const std::vector<Round>& schedule) {
  send_now(out_, fleet_heading(opt, layout, schedule));
}

void FleetWriter::results(const FleetResults& r) {
  const auto measured =
      r.units.size() - static_cast<std::size_t>(std::count(r.no_memory.begin(), r.no_memory.end(), true));
  out_.text(unit_table(r.layout, r.units, r.no_memory) + pairs_line(r.pairs) + cut_line(r.pairs, r.bisection, r.asked) +
            triad_line(r.triad, static_cast<int>(measured), r.layout.units) + bisection_line(r.bisection) +
            (r.node != nullptr ? node_lines(r.layout, *r.node) : "") + outlier_lines(r.layout, r.outliers));
}

void FleetWriter::baseline(const Baseline& baseline, const BaselineVerdict& v, double threshold) {
  out_.text(baseline_lines(baseline, v, threshold));
}

void FleetWriter::failed(const Layout& layout, const std::vector<UnitFailure>& failures) {
  if (failures.empty()) return;
  out_.text(failed_lines(layout, failures));
  // A run error's one line, as every command's: the text has one per unit.
  out_.problem("movebench fleet: error: " + failures_line(layout, failures));
}

void FleetWriter::end() { send_now(out_, {}); }

}  // namespace movebench::fleet
