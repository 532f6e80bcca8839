#include "p2p/p2p_output.hpp"

#include <fmt/format.h>

#include "core/output.hpp"
#include "p2p/p2p_logic.hpp"

namespace movebench::net {

std::string osu_heading(std::string_view title, int rank_a, int rank_b, bool latency) {
  return fmt::format("\n# movebench p2p: OSU MPI {} style, ranks {} and {}\n# Datatype: MPI_CHAR.\n{}\n", title, rank_a,
                     rank_b, osu_header(latency ? "latency" : "bw"));
}

void P2pWriter::heading(std::string_view title, int rank_a, int rank_b, bool latency) {
  send_now(out_, osu_heading(title, rank_a, rank_b, latency));
}

void P2pWriter::row(std::uint64_t bytes, double value) { send_now(out_, osu_row(bytes, value) + "\n"); }

}  // namespace movebench::net
