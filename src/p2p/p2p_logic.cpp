#include "p2p/p2p_logic.hpp"

#include <fmt/format.h>

namespace movebench::net {

std::string osu_row(std::uint64_t bytes, double value) { return fmt::format("{:<10}{:>18.2f}", bytes, value); }

namespace {
// P50, P90, P99 as OSU -z prints them; P99.9 and the max ours.
constexpr const char* kTailTitles[] = {"P50 Tail Lat(us)", "P90 Tail Lat(us)", "P99 Tail Lat(us)", "P99.9 Tail Lat(us)",
                                       "Max Lat(us)"};
constexpr int kTailWidths[] = {18, 18, 18, 20, 18};
}  // namespace

std::string osu_tail_cells(const std::vector<TailCell>& cells) {
  std::string out;
  for (std::size_t i = 0; i < cells.size() && i < std::size(kTailWidths); ++i) {
    out += cells[i].shown ? fmt::format("{:>{}.2f}", cells[i].us, kTailWidths[i])
                          : fmt::format("{:>{}}", "n/a", kTailWidths[i]);
  }
  return out;
}

std::string osu_header(std::string_view test, bool tails) {
  if (test == "latency") {
    std::string out = fmt::format("{:<10}{:>18}", "# Size", "Avg Latency(us)");
    for (std::size_t i = 0; tails && i < std::size(kTailTitles); ++i) {
      out += fmt::format("{:>{}}", kTailTitles[i], kTailWidths[i]);
    }
    return out;
  }
  return fmt::format("{:<10}{:>18}", "# Size", "Bandwidth (MB/s)");
}

int osu_iterations(std::string_view test, std::uint64_t bytes) {
  const bool large = bytes > kOsuLargeMessage;
  if (test == "latency") return large ? 1000 : 10000;
  return large ? 20 : 100;
}

int osu_warmup(std::string_view test, std::uint64_t bytes) {
  const bool large = bytes > kOsuLargeMessage;
  if (test == "latency") return large ? 10 : 100;
  return large ? 2 : 10;
}

double pingpong_latency_us(double seconds, int iterations) { return seconds * 1e6 / (2.0 * iterations); }

double window_bandwidth_mbs(std::uint64_t bytes, int iterations, int window, int directions, double seconds) {
  return static_cast<double>(bytes) / 1e6 * iterations * window * directions / seconds;
}

}  // namespace movebench::net
