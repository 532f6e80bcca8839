// Rank 0's verdict on a fleet run: every figure across units and pairs, the
// outliers by the judge's sibling rule (judge/siblings.hpp), the slow pairs
// blamed on a node or named as a link, and what goes into the result
// document (`outliers`); fleet_output writes their lines.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fleet/fleet_figures.hpp"
#include "fleet/fleet_options.hpp"
#include "fleet/fleet_units.hpp"

namespace movebench::fleet {

struct Verdict {
  std::vector<FleetOutlier> outliers;
  nlohmann::json json;  // the `outliers` array of the document
};

// `no_memory`: per unit, true when it failed before its memory figures
// were checked: it is left out of their median and MAD, and not named.
// `node`: per unit, its node step's headlines (--node), each judged among
// the units that have it.
Verdict judge(const FleetOptions& opt, const Layout& layout, const std::vector<MemoryFigures>& units,
              const std::vector<bool>& no_memory, const std::vector<PairFigures>& pairs,
              const std::vector<NodeStepFigures>& node = {});

}  // namespace movebench::fleet
