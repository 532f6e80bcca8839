#include "node/core_latency.hpp"

#include <fmt/format.h>

#include <atomic>
#include <functional>
#include <limits>
#include <memory>
#include <thread>

#include "core/affinity.hpp"
#include "core/clock.hpp"

namespace movebench::node {
namespace {

using Value = std::uint64_t;
constexpr Value kStop = std::numeric_limits<Value>::max();
constexpr std::uint64_t kMostTrips = std::uint64_t{1} << 30;

// Two lines 128 bytes apart: no adjacent-line prefetch couples them.
struct alignas(128) Line {
  std::atomic<Value> value{0};
};
struct Lines {
  Line ping, pong;
};

// Spins until `line` holds something other than `last` and returns it, or
// returns `last` once it has waited `timeout` seconds. The clock is read
// once per 2^16 spins, from the first such read on: a reply that comes
// sooner never pays for it.
Value next_value(const std::atomic<Value>& line, Value last, double timeout) {
  double since = -1;
  for (std::uint32_t spins = 1;; ++spins) {
    const Value v = line.load(std::memory_order_acquire);
    if (v != last) return v;
    if ((spins & 0xFFFFu) == 0) {
      const double now = now_seconds();
      if (since < 0) {
        since = now;
      } else if (now - since > timeout) {
        return last;
      }
    }
  }
}

// The second CPU's side: every number it sees on ping goes back on pong.
void respond(Lines& lines, int cpu, double timeout, std::atomic<int>& pinned) {
  const bool ok = pin_current_thread(cpu);
  pinned.store(ok ? 1 : -1, std::memory_order_release);
  if (!ok) return;
  for (Value last = 0;;) {
    const Value v = next_value(lines.ping.value, last, timeout);
    if (v == last || v == kStop) return;
    lines.pong.value.store(v, std::memory_order_release);
    last = v;
  }
}

// The first CPU's side: `trips` round trips from number `seq` on; false
// when a reply did not come within the timeout.
bool round_trips(Lines& lines, Value& seq, std::uint64_t trips, double timeout) {
  for (std::uint64_t i = 0; i < trips; ++i) {
    lines.ping.value.store(++seq, std::memory_order_release);
    if (next_value(lines.pong.value, seq - 1, timeout) != seq) return false;
  }
  return true;
}

// Sizes a block (doubling from 16 round trips; the probe is the warm-up,
// no figure), then times blocks: `how.blocks` of them, fewer when the
// pair's time is up (at least `how.least_blocks`).
std::string time_blocks(Lines& lines, const PingPong& how, PairTiming& out) {
  Value seq = 0;
  std::uint64_t trips = 16;
  for (;; trips *= 2) {
    const double t0 = now_seconds();
    if (!round_trips(lines, seq, trips, how.reply_timeout_seconds)) return "no reply";
    const double seconds = now_seconds() - t0;
    if (seconds >= how.block_seconds || trips >= kMostTrips) {
      trips = calls_to_fill(how.block_seconds, seconds, trips, how.least_trips, kMostTrips);
      break;
    }
  }
  out.round_trips = trips;
  const double end = now_seconds() + how.pair_seconds;
  for (int b = 0; b < how.blocks; ++b) {
    const double t0 = now_seconds();
    if (b >= how.least_blocks && t0 > end) break;
    const bool replied = round_trips(lines, seq, trips, how.reply_timeout_seconds);
    const double seconds = now_seconds() - t0;
    if (!replied) return "no reply";
    out.round_trip_seconds.push_back(seconds / static_cast<double>(trips));
  }
  return "";
}

// Waits (bounded) for the responder to say whether it is pinned.
bool responder_pinned(const std::atomic<int>& pinned, double deadline) {
  while (pinned.load(std::memory_order_acquire) == 0) {
    if (now_seconds() > deadline) return false;
    std::this_thread::yield();
  }
  return pinned.load(std::memory_order_acquire) > 0;
}

}  // namespace

PairTiming time_pair(int cpu_a, int cpu_b, const PingPong& how) {
  PairTiming out;
  const ScopedAffinity restore;
  if (!pin_current_thread(cpu_a)) {
    out.failure = fmt::format("CPU {} refused the pinning", cpu_a);
    return out;
  }
  const double deadline = now_seconds() + how.reply_timeout_seconds;
  auto lines = std::make_unique<Lines>();
  std::atomic<int> pinned{0};
  std::thread responder(respond, std::ref(*lines), cpu_b, how.reply_timeout_seconds, std::ref(pinned));
  if (!responder_pinned(pinned, deadline)) {
    out.failure = fmt::format("CPU {} refused the pinning", cpu_b);
  } else if (const std::string why = time_blocks(*lines, how, out); !why.empty()) {
    out.failure = fmt::format("CPU {} did not answer CPU {} within {} s", cpu_b, cpu_a, how.reply_timeout_seconds);
  }
  lines->ping.value.store(kStop, std::memory_order_release);
  responder.join();  // it stops at kStop, or after the timeout on its own
  if (!out.failure.empty()) out.round_trip_seconds.clear();
  return out;
}

}  // namespace movebench::node
