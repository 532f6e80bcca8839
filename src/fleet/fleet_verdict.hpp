// Rank 0's verdict on a fleet run: every figure across units and pairs, the
// outliers by the rule of fleet_logic.hpp, the slow pairs blamed on a node
// or named as a link, what goes into the result document (`fleet`,
// `outliers`) and the lines the text output ends with.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fleet/fleet_memory.hpp"
#include "fleet/fleet_options.hpp"
#include "fleet/fleet_pairs.hpp"
#include "fleet/fleet_units.hpp"

namespace movebench::fleet {

struct FleetOutlier {
  std::string figure, unit_name;  // "mem.triad", "MB/s"
  int unit = -1;                  // the node (or rank) named; -1 for a link
  UnitPair pair;                  // the link named, when unit is -1
  double value = 0, median = 0, worse_by = 0;
};

struct Verdict {
  std::vector<FleetOutlier> outliers;
  nlohmann::json json;  // the `outliers` array of the document
  std::vector<std::string> lines;  // one per outlier, then one scontrol line per slow host
};

Verdict judge(const FleetOptions& opt, const Layout& layout, const std::vector<MemoryFigures>& units,
              const std::vector<PairFigures>& pairs);

}  // namespace movebench::fleet
