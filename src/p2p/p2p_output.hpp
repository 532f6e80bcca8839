// What p2p's measurement hands its writer, and the writer: OSU's table per
// test (heading, one row per size), as functions of those results (the
// measuring code in p2p_command.cpp prints nothing). Rank 0 calls it.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/output.hpp"

namespace movebench::net {

// "\n# movebench p2p: OSU MPI Latency Test style, ranks 0 and 1\n# Datatype:
// MPI_CHAR.\n# Size       Avg Latency(us)\n": the table's heading.
std::string osu_heading(std::string_view title, int rank_a, int rank_b, bool latency);

// Each piece leaves at once (send_now, core/output.hpp).
class P2pWriter {
 public:
  explicit P2pWriter(Output& out) : out_(out) {}
  void heading(std::string_view title, int rank_a, int rank_b, bool latency);
  // One size: microseconds for latency, MB/s for the bandwidths.
  void row(std::uint64_t bytes, double value);

 private:
  Output& out_;
};

}  // namespace movebench::net
