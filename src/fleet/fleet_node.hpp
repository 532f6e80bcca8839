// fleet --node: every unit's node step headlines (node/node_step.hpp)
// judged across the units by the sibling rule, each figure among the units
// that have it. No MPI: fleet_verdict calls it, unit tests too.
#pragma once
#include <vector>

#include "fleet/fleet_figures.hpp"
#include "judge/siblings.hpp"

namespace movebench::fleet {

// One outlier per unit and figure worse than the units' median by the rule;
// a unit without the figure (its step failed, its machine has no such
// relation) is neither counted nor named.
std::vector<FleetOutlier> node_step_outliers(const std::vector<NodeStepFigures>& node, const judge::OutlierRule& rule);

}  // namespace movebench::fleet
