// `fleet --baseline FILE`: every unit and pair of this run against an
// earlier fleet result (the same unit by host, or host and rank, the same
// pair by its two units) or against reference figures ({figure: value},
// every unit or pair against the one value), by the noise-aware rule of
// movebench-report compare (judge/compare_rule.hpp). What got slower is
// named. No MPI here: rank 0 judges, the parts are unit-tested.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "fleet/fleet_units.hpp"

namespace movebench::fleet {

// The figures a fleet run has per unit and per pair, with their units and
// which way is better: the names of `fleet.units[].figures` and
// `fleet.pairs[].figures` in the result, and of a reference file's keys.
struct FigureInfo {
  const char* name;
  const char* unit;
  bool higher_is_better;
  bool of_pair;  // p2p.*: a pair's; else a unit's
};
const std::vector<FigureInfo>& fleet_figures();

struct Measured {
  double value = 0;
  double noise = 0;  // compare's noise band (a fraction); 0 when unknown
};

// One unit or pair: what it is called ("host vm rank 2", or two of those
// joined by " <-> "), for matching and for the lines, and its figures.
struct Subject {
  std::string name;
  bool pair = false;
  std::vector<std::string> hosts;  // one for a unit, two for a pair
  std::vector<int> ranks;          // the unit's (first) rank, or the pair's two
  std::map<std::string, Measured> figures;
};

// The units and pairs of a fleet result document (`fleet` and its records'
// samples, for the noise as compare reads it). Throws nlohmann's errors on
// another shape.
std::vector<Subject> subjects_of(const nlohmann::json& doc, UnitKind per);

struct Baseline {
  std::string path;
  std::string kind;                         // "fleet" (an earlier result) or "reference"
  std::map<std::string, double> reference;  // kind reference: figure -> value
  std::map<std::string, Subject> subjects;  // kind fleet: by name
};

// The name of a unit: its host, or its host and rank (--per rank), so that
// an earlier run's unit is found again whatever order the ranks came in.
std::string unit_name(const std::string& host, int rank, UnitKind per);

// A baseline from a file's text. Throws UsageError (one line naming
// `path`) when it is neither a fleet result of the same --per nor a
// reference of known figures with positive values.
Baseline parse_baseline(std::string_view text, const std::string& path, UnitKind per);

struct Regression {
  const Subject* subject = nullptr;  // of this run
  const FigureInfo* figure = nullptr;
  Measured before, now;
  double ratio = 0;  // now / before
};

struct BaselineVerdict {
  std::vector<Regression> regressions;
  int compared = 0;                  // figures compared
  std::vector<std::string> missing;  // units and pairs of this run the baseline lacks
  nlohmann::json json;               // `baseline` of the document: file, kind, threshold, compared, missing
  nlohmann::json regressions_json;   // `regressions` of the document, one per regression
};

// `threshold`: a fraction, as compare's --threshold. The verdict points
// into `now`, which must outlive it.
BaselineVerdict compare_with(const Baseline& baseline, const std::vector<Subject>& now, double threshold);
// The verdict points into `now`: a temporary would leave it dangling.
BaselineVerdict compare_with(const Baseline& baseline, std::vector<Subject>&& now, double threshold) = delete;

}  // namespace movebench::fleet
