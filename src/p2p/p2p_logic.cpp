#include "p2p/p2p_logic.hpp"

#include <fmt/format.h>

namespace movebench::net {

std::string osu_row(std::uint64_t bytes, double value) { return fmt::format("{:<10}{:>18.2f}", bytes, value); }

std::string osu_header(std::string_view test) {
  if (test == "latency") return fmt::format("{:<10}{:>18}", "# Size", "Avg Latency(us)");
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
