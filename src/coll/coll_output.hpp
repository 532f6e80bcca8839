// What coll's measurement hands its writer, and the writer: mpiBench's
// output (START line and the hosts, a line per operation, size and
// communicator, the buffers line and END), as functions of those results
// (the measuring code, coll_measure.hpp, prints nothing). Rank 0 calls it.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/distribution.hpp"
#include "core/output.hpp"
#include "core/stats.hpp"

namespace movebench::net {

// One operation at one size on one communicator: the ranks' seconds per
// call summarized (mpiBench's avg, min and max).
struct CollStep {
  std::string_view operation;  // mpiBench's spelling
  std::uint64_t bytes = 0;
  int iterations = 0;
  Summary seconds;
  std::string_view comm;  // MPI_COMM_WORLD, CartDim-1of2, PartSize-4
  int ranks = 0;
};

// --percentiles: one step's iterations, from each rank's times (one vector
// per rank, in iteration order; ranks with fewer are read to the shortest).
struct CollTails {
  Distribution mean;     // per iteration, the mean over the ranks (OSU -z's: omb_get_stats)
  Distribution slowest;  // per iteration, the slowest rank's time (when the call is done everywhere)
  std::vector<Distribution> ranks;
};
CollTails coll_tails(const std::vector<std::vector<double>>& per_rank);
// The record's distribution: the slowest rank's, with each rank's under `per_rank`.
nlohmann::json coll_tails_json(const CollTails& tails);
// The line under a step's: "# percentiles (us): ranks' mean P50 ... P99.9 n/a;
// slowest rank P50 ... Max ...", each n/a where the count cannot support it.
std::string mpibench_tails(const CollTails& tails);
// Under the last step: what a sample is (--per-call: the call alone; else
// the call and, unless --no-barrier, its barrier) and what a clock read costs.
std::string mpibench_tails_note(bool per_call, bool barrier, const SampleCounts& counts);

// "START mpiBench v1.5\n" and "<rank> : <host>\n" per rank.
std::string mpibench_start(const std::vector<std::string>& hosts);
// mpibench_line (coll_logic.hpp) of a step, in microseconds, and its newline.
std::string mpibench_step(const CollStep& step);
// "Message buffers (KB):\t<KiB>\nEND mpiBench\n": send and receive
// buffers of one rank, in bytes.
std::string mpibench_end(std::uint64_t buffer_bytes);

// Each piece leaves at once (send_now, core/output.hpp).
class CollWriter {
 public:
  explicit CollWriter(Output& out) : out_(out) {}
  void start(const std::vector<std::string>& hosts);
  void step(const CollStep& s);
  void tails(const CollTails& t);
  void tails_note(bool per_call, bool barrier);
  void end(std::uint64_t buffer_bytes);

 private:
  Output& out_;
  SampleCounts counts_;  // of the ranks' mean distributions the tails lines printed
};

}  // namespace movebench::net
