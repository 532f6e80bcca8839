// What p2p's measurement hands its writer, and the writer: OSU's table per
// test (heading, one row per size), as functions of those results (the
// measuring code in p2p_command.cpp prints nothing). Rank 0 calls it.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/distribution.hpp"
#include "core/output.hpp"

namespace movebench::net {

// "\n# movebench p2p: OSU MPI Latency Test style, ranks 0 and 1\n# Datatype:
// MPI_CHAR.\n# Size       Avg Latency(us)\n": the table's heading.
// With `tails` (--percentiles), latency's tail columns (osu_header).
std::string osu_heading(std::string_view title, int rank_a, int rank_b, bool latency, bool tails = false);

// Each piece leaves at once (send_now, core/output.hpp).
class P2pWriter {
 public:
  explicit P2pWriter(Output& out) : out_(out) {}
  void heading(std::string_view title, int rank_a, int rank_b, bool latency, bool tails = false);
  // One size: microseconds for latency, MB/s for the bandwidths; with
  // `iterations`, its P50, P90, P99, P99.9 and max columns (n/a where the
  // iteration count cannot support one: core/distribution).
  void row(std::uint64_t bytes, double value, const Distribution* iterations = nullptr);
  // Under a latency table with tails: what a sample is and the clock's cost.
  // (How many samples the rows rested on: the rows' counts since the last note.)
  void tails_note(std::string_view event);

 private:
  Output& out_;
  SampleCounts counts_;
};

}  // namespace movebench::net
