// The pairs of a fleet run: every round of the schedule measured at once
// (each unit's rank with its partner's, OSU's ping-pong and window loops
// from src/net/p2p), and the bisection: the first half of the units
// against the second, every pair both ways at the same time.
#pragma once
#include <string>
#include <vector>

#include "fleet/fleet_logic.hpp"
#include "fleet/fleet_options.hpp"
#include "fleet/fleet_units.hpp"
#include "net/mpi_env.hpp"

namespace movebench::fleet {

struct PairFigures {
  UnitPair pair;
  int round = 0;
  double latency_us = 0;  // one way, 8 bytes
  double bw_mbs = 0;      // opt.message_bytes, one way
  double latency_seconds = 0, bw_seconds = 0;  // the timed loops
};

struct Bisection {
  std::vector<PairFigures> pairs;  // unit u with u + units/2; bw_mbs both ways
  double total_mbs = 0;            // the sum: what crosses the cut at once
};

// Collective; rank 0 gets the figures (others empty). `error` is this
// rank's failed check, if any.
std::vector<PairFigures> measure_pairs(const FleetOptions& opt, const Layout& layout, const std::vector<Round>& schedule,
                                       net::Watchdog& dog, double step_timeout, std::string& error);
Bisection measure_bisection(const FleetOptions& opt, const Layout& layout, net::Watchdog& dog, double step_timeout,
                            std::string& error);

}  // namespace movebench::fleet
