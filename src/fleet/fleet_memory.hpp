// One unit's memory figures, measured by the unit's rank with src/mem's
// own code: copy and triad on all of the rank's allowed CPUs (one thread
// each, placed as mem places them), and the pointer-chase latency on one.
// Measured in turns (a round of copy and triad, or one chase sample, at a
// time) so that units sharing a host can take turns round by round: a load
// that comes and goes on the machine then falls on all of them alike.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/affinity.hpp"
#include "fleet/fleet_figures.hpp"
#include "fleet/fleet_options.hpp"
#include "mem/latency.hpp"
#include "mem/mem_options.hpp"
#include "mem/runner.hpp"

namespace movebench::fleet {

// Each call gives the main thread its mask back when it returns (the team
// pins it): between turns a waiting rank must not sit on the CPU the next
// unit measures on.
class UnitMemory {
 public:
  // Allocates and first-touches the arrays and the ring, and times one
  // untimed call of each kernel to size a round (kMemRoundSeconds).
  explicit UnitMemory(const FleetOptions& opt);
  void time_round();    // one timed round of copy and triad
  void chase_sample();  // one latency sample
  // Checks the arrays (every call replayed) and takes the medians.
  MemoryFigures finish();

 private:
  mem::MemOptions mem_;
  std::unique_ptr<mem::HostRunner<double>> runner_;
  std::unique_ptr<mem::ChaseRing> ring_;
  void* cursor_ = nullptr;  // where the last sample's chase stopped: the next goes on from there
  std::vector<mem::Kernel> kernels_;
  std::size_t iters_ = 1;
  std::uint64_t calls_ = 0;  // kernel calls so far (their numbering)
  double sum_ = 0;
  MemoryFigures out_;
};

}  // namespace movebench::fleet
