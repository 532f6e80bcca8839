// Units that fail a step of a fleet run (an exception in their measurement,
// a failed check): what rank 0 gathers of them and how the verdict leaves
// them out. No MPI here (unit-tested everywhere); src/fleet/fleet_steps
// does the gathering.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "fleet/fleet_logic.hpp"
#include "judge/siblings.hpp"

namespace movebench::fleet {

struct UnitFailure {
  int unit = -1;
  std::string step;    // "memory set-up", "pairs, round 2 of 6" ...
  std::string reason;  // one line
  bool operator==(const UnitFailure&) const = default;
};

// One rank's status as it travels in a gather: "" when its unit is well,
// else the step and the reason on one line each (newlines in the reason
// become spaces: a status is one line of reason).
std::string status_text(const std::string& step, const std::string& reason);

// Rank 0 after a step: `texts` holds every rank's status (status_text),
// `leaders` the rank that measures each unit. A unit not yet in `failed`
// whose leader's status is not "" is added (in unit order); a unit keeps
// the first step it failed in. Returns the units added.
std::vector<int> note_failures(std::span<const std::string> texts, std::span<const int> leaders,
                               std::vector<UnitFailure>& failed);

// Per unit: true when it is in `failed`.
std::vector<bool> failed_mask(int units, std::span<const UnitFailure> failed);

// The round without the pairs of a unit that is out: those are not measured.
Round live_pairs(const Round& round, const std::vector<bool>& out);

// judge::find_outliers over the values whose `counted` is true only: the others
// (units that failed before they had this figure) are neither in the
// median and MAD nor named. Indices are into `values`.
std::vector<judge::Outlier> find_outliers_among(std::span<const double> values, const std::vector<bool>& counted,
                                                bool higher_is_better, const judge::OutlierRule& rule);

}  // namespace movebench::fleet
