// The steps of one fleet run, in order: the layout of units, memory slot by
// slot, the pairs round by round, the bisection, rank 0's verdict and text.
#pragma once
#include "core/output.hpp"
#include "core/report.hpp"
#include "fleet/fleet_options.hpp"
#include "net/mpi_env.hpp"

namespace movebench::fleet {

// What a run named: every rank gets the counts.
struct Named {
  int outliers = 0;
  int regressions = 0;  // against --baseline
};

// Collective; rank 0 writes the text to `out`.
Named run_fleet(const FleetOptions& opt, Report& report, Output& out, net::Watchdog& dog, double step_timeout,
                net::FailMode fail);

}  // namespace movebench::fleet
