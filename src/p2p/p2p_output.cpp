#include "p2p/p2p_output.hpp"

#include <fmt/format.h>

#include "core/output.hpp"
#include "p2p/p2p_logic.hpp"

namespace movebench::net {

std::string osu_heading(std::string_view title, int rank_a, int rank_b, bool latency, bool tails) {
  return fmt::format("\n# movebench p2p: OSU MPI {} style, ranks {} and {}\n# Datatype: MPI_CHAR.\n{}\n", title, rank_a,
                     rank_b, osu_header(latency ? "latency" : "bw", tails));
}

void P2pWriter::heading(std::string_view title, int rank_a, int rank_b, bool latency, bool tails) {
  send_now(out_, osu_heading(title, rank_a, rank_b, latency, tails));
}

void P2pWriter::row(std::uint64_t bytes, double value, const Distribution* iterations) {
  std::string line = osu_row(bytes, value);
  if (iterations != nullptr) {
    std::vector<TailCell> cells;
    for (const auto& p : kPercentiles)
      cells.push_back({iterations->supported(p), iterations->percentile_seconds(p.percent) * 1e6});
    cells.push_back({iterations->count() > 0, iterations->max_seconds() * 1e6});
    line += osu_tail_cells(cells);
    counts_.add(*iterations);
  }
  send_now(out_, line + "\n");
}

void P2pWriter::tails_note(std::string_view event) {
  send_now(out_, "# " + distribution_note(event, counts_, 1e6, "us") + "\n");
  counts_ = {};
}

}  // namespace movebench::net
