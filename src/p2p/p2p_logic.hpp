// The parts of `movebench p2p` that need no MPI: OSU's table format, its
// iteration defaults and its formulas.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace movebench::net {

// OSU's row: size left-aligned in 10 columns, value right-aligned in 18
// with two decimals ("%-10d%18.2f").
std::string osu_row(std::uint64_t bytes, double value);
// "# Size       Avg Latency(us)" or "# Size      Bandwidth (MB/s)"; with
// `tails`, latency's OSU -z columns after it ("  P50 Tail Lat(us)", P90,
// P99, each 18 wide) and ours: "  P99.9 Tail Lat(us)" (20) and "       Max
// Lat(us)" (18).
std::string osu_header(std::string_view test, bool tails = false);
// The tail cells of one row, as the header's: "%18.2f" (P99.9: 20), or n/a.
struct TailCell {
  bool shown = false;
  double us = 0;
};
std::string osu_tail_cells(const std::vector<TailCell>& cells);

// OSU's defaults (osu_util.h), small messages up to 8 KiB and large above:
// latency 10000 iterations and 100 warm-up (1000 and 10 above), bandwidth
// 100 windows and 10 warm-up (20 and 2 above), 64 messages in flight.
constexpr std::uint64_t kOsuLargeMessage = 8192;
constexpr int kOsuWindow = 64;
int osu_iterations(std::string_view test, std::uint64_t bytes);
int osu_warmup(std::string_view test, std::uint64_t bytes);

// One-way latency in microseconds from a ping-pong loop.
double pingpong_latency_us(double seconds, int iterations);
// Decimal MB/s (1e6 B/s), as OSU: `directions` is 2 for bibw.
double window_bandwidth_mbs(std::uint64_t bytes, int iterations, int window, int directions, double seconds);

}  // namespace movebench::net
