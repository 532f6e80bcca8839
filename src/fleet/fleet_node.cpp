#include "fleet/fleet_node.hpp"

#include <string>

#include "fleet/fleet_failures.hpp"
#include "node/node_step.hpp"

namespace movebench::fleet {

std::vector<FleetOutlier> node_step_outliers(const std::vector<NodeStepFigures>& node, const judge::OutlierRule& rule) {
  std::vector<FleetOutlier> out;
  for (const auto& f : node::kStepFigures) {
    std::vector<double> values;
    std::vector<bool> counted;
    for (const auto& u : node) {
      const auto it = u.figures.find(std::string(f.name));
      values.push_back(it == u.figures.end() ? 0.0 : it->second);
      counted.push_back(it != u.figures.end());
    }
    for (const auto& o : find_outliers_among(values, counted, f.higher_is_better, rule)) {
      out.push_back(
          {std::string(f.name), std::string(f.unit), static_cast<int>(o.index), {}, o.value, o.median, o.worse_by});
    }
  }
  return out;
}

}  // namespace movebench::fleet
