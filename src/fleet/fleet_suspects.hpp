// A unit's memory figures measured again: the figures the outlier rule
// applies to per unit, which units are suspect by it, and how a second
// measurement is kept. No MPI here (unit-tested everywhere); fleet_run
// measures the suspects again after the pairs, and fleet_verdict judges
// with the same figures.
//
// Why again, and later: on a shared machine a burst of other work can
// slow one unit's turns of one pass (a calm run here named a unit's triad
// 10% to 50% below the median; docs/fleet.md, "Open"), where a slow node
// is slow in every pass. Measured again seconds later, after the pairs, a
// burst has passed; a slow node is still slow.
#pragma once
#include <functional>
#include <vector>

#include "fleet/fleet_figures.hpp"
#include "judge/siblings.hpp"

namespace movebench::fleet {

struct UnitFigure {
  const char* name;  // "mem.triad"
  const char* unit;  // "MB/s"
  bool higher_is_better;
  std::function<double(const MemoryFigures&)> get;
};

// mem.copy, mem.triad, mem.latency: what a unit is judged on.
const std::vector<UnitFigure>& unit_figures();

// The units slow by the rule on any of those figures, in unit order; a
// unit with `no_memory` set is neither counted nor suspect.
std::vector<int> memory_suspects(const std::vector<MemoryFigures>& units, const std::vector<bool>& no_memory,
                                 const judge::OutlierRule& rule);

// A suspect's two measurements as one: every round's and sample's
// seconds, the best of each figure (as within one pass), and
// `measured_again` set. A second measurement that failed its check, or
// measured nothing, leaves the first as it was.
void keep_best(MemoryFigures& first, const MemoryFigures& again);

}  // namespace movebench::fleet
