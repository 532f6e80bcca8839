// What rank 0 writes of a fleet run: a record per unit and per pair, the
// headline results, `fleet`, `outliers`, `failed_units` and the baseline's
// sections (result document), and the same results handed to the writer
// (fleet_output: the text).
#pragma once
#include <vector>

#include "core/report.hpp"
#include "fleet/fleet_failures.hpp"
#include "fleet/fleet_output.hpp"
#include "fleet/fleet_verdict.hpp"

namespace movebench::fleet {

// What rank 0 gathered of a run.
struct Gathered {
  std::vector<MemoryFigures> units;
  std::vector<bool> no_memory;        // per unit: failed before its memory figures were checked
  std::vector<nlohmann::json> facts;  // per unit, its rank's facts::collect (src/facts)
  std::vector<PairFigures> pairs;
  Bisection bisection;
  std::vector<UnitFailure> failures;
  std::vector<NodeStepFigures> node;  // per unit with --node (empty for a unit without them); else none
};

// `fleet.units` and `fleet.pairs` of the document. A unit without memory
// figures has none of them in `figures`; `facts` may be shorter than the
// units (not gathered yet: null); `node` too (no node step: no node
// figures, no `node` key).
nlohmann::json units_json(const Layout& layout, const std::vector<MemoryFigures>& units,
                          const std::vector<bool>& no_memory, const std::vector<nlohmann::json>& facts,
                          const std::vector<NodeStepFigures>& node = {});
nlohmann::json pairs_json(const Layout& layout, const std::vector<PairFigures>& pairs);
// --percentiles: what one sample of a pair's latency is, and the P99 of a
// pair's iterations in us (0 where their count cannot support it: core/distribution).
inline constexpr const char* kPairIterationEvent =
    "iteration (half its round trip, as OSU -z), every repeat of the pair";
double pair_latency_p99_us(const std::vector<double>& iterations);
// With --baseline, the comparison too; returns the number of regressions.
int publish(const FleetOptions& opt, const Layout& layout, const Gathered& got, const Verdict& verdict, Report& report,
            FleetWriter& out);

}  // namespace movebench::fleet
