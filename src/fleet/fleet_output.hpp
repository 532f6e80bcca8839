// What rank 0 writes of a fleet run as text, as functions of its results
// (fleet_figures.hpp, the verdicts): the heading, a line per unit, the
// pairs' and the whole's figures, the outliers with the scontrol lines that
// drain their hosts, and the comparison with --baseline. The measuring and
// judging code prints nothing; fleet_publish calls the writer.
#pragma once
#include <string>
#include <vector>

#include "core/output.hpp"
#include "fleet/fleet_baseline.hpp"
#include "fleet/fleet_failures.hpp"
#include "fleet/fleet_figures.hpp"
#include "fleet/fleet_options.hpp"
#include "fleet/fleet_units.hpp"
#include "judge/siblings.hpp"

namespace movebench::fleet {

// "# movebench fleet: ..." and "# pairs: ...": what is measured and the rule.
std::string fleet_heading(const FleetOptions& opt, const Layout& layout, const std::vector<Round>& schedule);
// The header and a line per unit; `no_memory[u]`: unit u failed before its
// memory figures were checked, its line has `-` for them.
std::string unit_table(const Layout& layout, const std::vector<MemoryFigures>& units,
                       const std::vector<bool>& no_memory = {});
// The pairs' spread in one line; nothing when no pair was measured.
std::string pairs_line(const std::vector<PairFigures>& pairs);
// How many of the pairs and the bisection's ran fewer than `asked`
// (--time-budget cut them), the fewest each; nothing when none did.
std::string cut_line(const std::vector<PairFigures>& pairs, const Bisection& bisection, PairCounts asked);
// `measured` of the `units` have memory figures ("over 3 of 4 units");
// none: "no unit measured".
std::string triad_line(const judge::Whole& triad, int measured, int units);
// Nothing when no bisection was measured.
std::string bisection_line(const Bisection& bisection);
// With --node: "node step:", a line per unit with its headlines (`-` for a
// unit without them), then each unit's own findings; nothing without.
std::string node_lines(const Layout& layout, const std::vector<NodeStepFigures>& node);
// "outliers: N", a line per outlier, then one scontrol line per host named
// (its first outlier the reason).
std::string outlier_lines(const Layout& layout, const std::vector<FleetOutlier>& outliers);
// One line per unit that failed a step, as the text ends.
std::string failed_lines(const Layout& layout, const std::vector<UnitFailure>& failures);
// The failures in one line: how many, and the first ten with host, rank,
// step and reason (`errors.failed_units`, and the run error's line).
std::string failures_line(const Layout& layout, const std::vector<UnitFailure>& failures);
// The comparison's summary line, then one per regression.
std::string baseline_lines(const Baseline& baseline, const BaselineVerdict& v, double threshold);

// What a finished run hands the writer (references into the caller's results).
struct FleetResults {
  const Layout& layout;
  const std::vector<MemoryFigures>& units;
  const std::vector<bool>& no_memory;  // per unit (fleet_publish's Gathered)
  const std::vector<PairFigures>& pairs;
  const judge::Whole& triad;
  const Bisection& bisection;
  const std::vector<FleetOutlier>& outliers;
  const std::vector<NodeStepFigures>* node = nullptr;  // per unit with --node; else none
  PairCounts asked{};                                  // --latency-iterations, --bandwidth-iterations
};

// The heading leaves at once, the rest when the run is written (end()):
// both reach the user through the launcher (send_now, core/output.hpp).
class FleetWriter {
 public:
  explicit FleetWriter(Output& out) : out_(out) {}
  void heading(const FleetOptions& opt, const Layout& layout, const std::vector<Round>& schedule);
  // The units, pairs, whole and outliers, in that order.
  void results(const FleetResults& r);
  void baseline(const Baseline& baseline, const BaselineVerdict& v, double threshold);
  // Last: a line per failed unit, and the run error's line (stderr).
  void failed(const Layout& layout, const std::vector<UnitFailure>& failures);
  void end();

 private:
  Output& out_;
};

}  // namespace movebench::fleet
