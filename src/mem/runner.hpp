// Where the kernels of mem's bandwidth and seq modes run: the host's OpenMP
// team on host arrays (HostRunner, below), or a device's own memory through
// the device layer (device_runner.hpp). The modes (bandwidth.cpp, sweep.cpp)
// are written once against this interface.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <vector>

#include "mem/mem_options.hpp"
#include "mem/team.hpp"

namespace movebench::mem {

class Runner {
 public:
  virtual ~Runner() = default;
  // Uses the first n elements of every array (a sweep reuses the largest
  // allocation) and gives them their initial values (initial_element).
  virtual void reset(std::size_t n) = 0;
  // Elements one kernel call touches per array, over all threads.
  virtual std::size_t total_elements() const = 0;
  // Picks the loop shape of each kernel (the host's calibration, after which
  // the arrays hold their initial values again); nothing on a device.
  virtual void prepare(std::span<const Kernel> kernels) = 0;
  // time_sequence's contract (team.hpp): `reps` rounds of `sequence`, each
  // kernel called `iters` times back to back per round, calls numbered from
  // `first_call`; seconds per round per kernel (times[k][r]), only the rounds
  // completed before a signal; `sum` the total of every sum call.
  virtual std::vector<std::vector<double>> time_sequence(std::span<const Kernel> sequence, int reps, std::size_t iters,
                                                         std::uint64_t first_call, double& sum) = 0;
  // The test-only damage of --corrupt-for-test (mem_options.hpp), then
  // validate (team.hpp): calls 0 .. calls-1 of `sequence` replayed on every
  // element and compared, exactly, with what the arrays hold.
  virtual Validation check(std::span<const Kernel> sequence, std::uint64_t calls, double sum) = 0;
  // A record's params beyond mode, elements and type (kernel_record).
  virtual nlohmann::json params(Kernel k) const = 0;
  // True when kernel k's stores went past the caches (no write-allocate traffic).
  virtual bool nontemporal(Kernel k) const = 0;
};

// The host's OpenMP team on host arrays: shared (one set of four arrays,
// each thread a slice) or private (four arrays per thread, tp).
template <class T>
class HostRunner : public Runner {
 public:
  HostRunner(const MemOptions& opt, int threads, bool shared, std::size_t max_n);
  void reset(std::size_t n) override;
  std::size_t total_elements() const override { return ws_.total_elements(); }
  void prepare(std::span<const Kernel> kernels) override;
  std::vector<std::vector<double>> time_sequence(std::span<const Kernel> sequence, int reps, std::size_t iters,
                                                 std::uint64_t first_call, double& sum) override;
  Validation check(std::span<const Kernel> sequence, std::uint64_t calls, double sum) override;
  nlohmann::json params(Kernel k) const override;
  bool nontemporal(Kernel k) const override;

  const Team& team() const { return team_; }
  // The arrays, allocated and not yet touched until reset(): the node
  // command binds their pages to a NUMA node in between (src/node).
  const Workspace<T>& workspace() const { return ws_; }
  // The last calibration, and where each thread ran in the first timed sequence.
  const Calibration& calibration() const { return calibration_; }
  const std::vector<ThreadPlacement>& placement() const { return placement_; }

 private:
  const MemOptions& opt_;
  Team team_;
  Workspace<T> ws_;
  Calibration calibration_;
  std::vector<ThreadPlacement> placement_;
};

}  // namespace movebench::mem
