// The pairs of a fleet run: every round of the schedule measured at once
// (each unit's rank with its partner's, OSU's ping-pong and window loops
// from src/net/p2p), and the bisection: the first half of the units
// against the second, every pair both ways at the same time.
#pragma once
#include <string>
#include <vector>

#include "fleet/fleet_figures.hpp"
#include "fleet/fleet_logic.hpp"
#include "fleet/fleet_options.hpp"
#include "fleet/fleet_units.hpp"
#include "net/mpi_env.hpp"

namespace movebench::fleet {

// Collective; rank 0 gets the figures (others empty). `error` is this
// rank's failed check, if any.
std::vector<PairFigures> measure_pairs(const FleetOptions& opt, const Layout& layout, const std::vector<Round>& schedule,
                                       net::Watchdog& dog, double step_timeout, std::string& error);
Bisection measure_bisection(const FleetOptions& opt, const Layout& layout, net::Watchdog& dog, double step_timeout,
                            std::string& error);

}  // namespace movebench::fleet
