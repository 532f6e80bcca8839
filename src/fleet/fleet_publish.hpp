// What rank 0 writes of a fleet run: a record per unit and per pair, the
// headline results, `fleet`, `outliers` and the baseline's sections (result
// document), and the same results handed to the writer (fleet_output: the
// text).
#pragma once
#include <vector>

#include "core/report.hpp"
#include "fleet/fleet_output.hpp"
#include "fleet/fleet_verdict.hpp"

namespace movebench::fleet {

// `facts`: per unit, its rank's facts::collect (src/facts). With
// --baseline, the comparison too; returns the number of regressions.
int publish(const FleetOptions& opt, const Layout& layout, const std::vector<MemoryFigures>& units,
            const std::vector<nlohmann::json>& facts, const std::vector<PairFigures>& pairs, const Bisection& bisection,
            const Verdict& verdict, Report& report, FleetWriter& out);

}  // namespace movebench::fleet
