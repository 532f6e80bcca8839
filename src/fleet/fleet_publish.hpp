// What rank 0 writes of a fleet run: the header, a line per unit, the
// whole's figures and the outliers (text); a record per unit and per pair,
// the headline results, `fleet` and `outliers` (result document).
#pragma once
#include <vector>

#include "core/report.hpp"
#include "fleet/fleet_verdict.hpp"

namespace movebench::fleet {

void print_header(const FleetOptions& opt, const Layout& layout, const std::vector<Round>& schedule);
// `facts`: per unit, its rank's facts::collect (src/facts). With
// --baseline, the comparison too; returns the number of regressions.
int publish(const FleetOptions& opt, const Layout& layout, const std::vector<MemoryFigures>& units,
             const std::vector<nlohmann::json>& facts, const std::vector<PairFigures>& pairs, const Bisection& bisection, const Verdict& verdict, Report& report);

}  // namespace movebench::fleet
