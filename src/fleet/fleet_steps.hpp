// The steps of a fleet run as every rank goes through them: a unit whose
// step fails (an exception in its measurement, a failed check) is named
// and left out of the steps after it, and the job goes on; after each step
// rank 0 gathers every unit's status (ok, or failed with the step and one
// line of reason) and every rank learns which units are out. Rank 0 writes
// the result file as each step begins, with what it has gathered and the
// step's name (`fleet.in_progress`): a job that dies or hangs there, which
// the watchdog or the launcher ends, leaves a file that says where.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/report.hpp"
#include "fleet/fleet_failures.hpp"
#include "fleet/fleet_units.hpp"

namespace movebench::fleet {

class Steps {
 public:
  Steps(const Layout& layout, UnitKind per, Report& report);

  // Rank 0: the step now beginning, written to the file with what is
  // gathered so far (keep()) and the failures known.
  void begin(const std::string& step);
  // Rank 0: a part of `fleet` as gathered so far ("units", "pairs").
  void keep(const std::string& key, nlohmann::json value);

  // This rank's unit failed in `step`; its first failure is the one kept.
  void fail(const std::string& step, const std::string& reason);
  // Runs `work` unless this rank's unit failed already; an exception it
  // throws is this unit's failure in `step`.
  void attempt(const std::string& step, const std::function<void()>& work);
  bool failed_here() const { return failed_; }

  // Collective, at the end of a step: rank 0 gathers every rank's status,
  // every rank learns which units are out and whether any rank was
  // interrupted. False: interrupted, stop. Rank 0 records the failures
  // in `errors.failed_units` (so the exit code is 1) and the checks as run.
  bool settle();
  // A settle found an interrupt: every rank stops measuring.
  bool stopped() const { return stopped_; }
  // Per unit, on every rank: failed in a step settled so far.
  const std::vector<bool>& out() const { return out_; }
  // Rank 0: every failure settled so far, in the order found.
  const std::vector<UnitFailure>& failures() const { return failures_; }

 private:
  const Layout& layout_;
  UnitKind per_;
  Report& report_;
  bool failed_ = false, stopped_ = false;
  std::string step_, reason_;  // of this rank's unit's failure
  std::vector<bool> out_;
  std::vector<UnitFailure> failures_;
};

// Rank 0 gets every rank's text (others get none): a gather of lengths,
// then of the bytes.
std::vector<std::string> gather_texts(const std::string& mine);

// `failed_units` of the document: unit, host, rank, step, reason.
nlohmann::json failures_json(const Layout& layout, const std::vector<UnitFailure>& failures);

}  // namespace movebench::fleet
