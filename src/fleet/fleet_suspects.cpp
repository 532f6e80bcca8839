#include "fleet/fleet_suspects.hpp"

#include <algorithm>
#include <set>

#include "fleet/fleet_failures.hpp"

namespace movebench::fleet {

const std::vector<UnitFigure>& unit_figures() {
  static const std::vector<UnitFigure> figures{
      {"mem.copy", "MB/s", true, [](const MemoryFigures& m) { return m.copy_mbs; }},
      {"mem.triad", "MB/s", true, [](const MemoryFigures& m) { return m.triad_mbs; }},
      {"mem.latency", "ns", false, [](const MemoryFigures& m) { return m.latency_ns; }},
  };
  return figures;
}

std::vector<int> memory_suspects(const std::vector<MemoryFigures>& units, const std::vector<bool>& no_memory,
                                 const judge::OutlierRule& rule) {
  std::vector<bool> counted(units.size(), true);
  for (std::size_t u = 0; u < units.size() && u < no_memory.size(); ++u) counted[u] = !no_memory[u];
  std::set<int> slow;
  for (const auto& f : unit_figures()) {
    std::vector<double> values;
    for (const auto& u : units) values.push_back(f.get(u));
    for (const auto& o : find_outliers_among(values, counted, f.higher_is_better, rule)) {
      slow.insert(static_cast<int>(o.index));
    }
  }
  return {slow.begin(), slow.end()};
}

void keep_best(MemoryFigures& first, const MemoryFigures& again) {
  if (!again.error.empty() || again.copy_mbs <= 0 || again.triad_mbs <= 0 || again.latency_ns <= 0) return;
  const auto append = [](std::vector<double>& to, const std::vector<double>& from) {
    to.insert(to.end(), from.begin(), from.end());
  };
  append(first.copy_seconds, again.copy_seconds);
  append(first.triad_seconds, again.triad_seconds);
  append(first.chase_seconds, again.chase_seconds);
  first.copy_mbs = std::max(first.copy_mbs, again.copy_mbs);
  first.triad_mbs = std::max(first.triad_mbs, again.triad_mbs);
  first.latency_ns = first.latency_ns > 0 ? std::min(first.latency_ns, again.latency_ns) : again.latency_ns;
  first.measured_again = true;
}

}  // namespace movebench::fleet
