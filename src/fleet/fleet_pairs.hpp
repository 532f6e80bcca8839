// The pairs of a fleet run: every round of the schedule measured at once
// (each unit's rank with its partner's, OSU's ping-pong and window loops
// from src/p2p), and the bisection: the first half of the units
// against the second, every pair both ways at the same time.
#pragma once
#include <string>
#include <vector>

#include "core/buffer.hpp"
#include "fleet/fleet_figures.hpp"
#include "fleet/fleet_logic.hpp"
#include "fleet/fleet_options.hpp"
#include "fleet/fleet_steps.hpp"
#include "fleet/fleet_units.hpp"
#include "net/mpi_env.hpp"

namespace movebench::fleet {

// A unit's send and receive buffers, allocated once before any pair is
// measured ("pairs set-up"): a unit that cannot have them is out before
// its partners wait for it in an exchange.
class PairBuffers {
 public:
  explicit PairBuffers(const FleetOptions& opt);
  std::byte* send() const { return send_.as<std::byte>(); }
  std::byte* recv() const { return recv_.as<std::byte>(); }

 private:
  HostBuffer send_, recv_;
};

// What one turn of the pairs may take (each pair's counts are cut to fit
// it, fleet_logic's pair_counts): --time-budget over the turns `schedule`
// plans (the warm-up's, each round's, the bisection's), at most a share of
// the watchdog's `step_timeout` (turn_seconds). A suspect measured again
// takes a turn more of the same.
double pair_turn_seconds(const FleetOptions& opt, const Layout& layout, const std::vector<Round>& schedule,
                         double step_timeout);

// Collective; rank 0 gets the figures (others empty). Pairs with a unit
// that is out (steps.out()) are not measured; a unit whose check fails in
// a round is out from then on, and that round's pairs of it are dropped.
// `buffers`: this rank's, null where it measures no unit. Each round ends
// with steps.settle(); an interrupt stops them (steps.stopped()).
// Every pair runs at most `turn_seconds` a turn (pair_turn_seconds).
std::vector<PairFigures> measure_pairs(const FleetOptions& opt, const Layout& layout,
                                       const std::vector<Round>& schedule, net::Watchdog& dog, double step_timeout,
                                       double turn_seconds, const PairBuffers* buffers, Steps& steps);
Bisection measure_bisection(const FleetOptions& opt, const Layout& layout, net::Watchdog& dog, double step_timeout,
                            double turn_seconds, const PairBuffers* buffers, Steps& steps);

}  // namespace movebench::fleet
