// The cache-line round trip between two CPUs, as c2clat and
// core-to-core-latency time it: a thread on each CPU, one cache line each
// way; the first writes a number into its line and spins until the second,
// which spun until it saw it, writes it back into the other. One round trip
// is two cache-line transfers; the one-way latency both tools print is half
// of it. The clock is read only around a block of many round trips, never
// inside one.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace movebench::node {

struct PingPong {
  int blocks = 21;                    // timed blocks per pair at most (each pair's figure: their median)
  int least_blocks = 5;               // at least, even past pair_seconds
  double block_seconds = 100e-6;      // what one block lasts, sized by a probe
  double pair_seconds = 1;            // no block begins after this (once least_blocks are timed)
  std::uint64_t least_trips = 100;    // per block at least (c2clat's block)
  double reply_timeout_seconds = 10;  // the longest wait for a reply (or the pinning): then a failure
};

struct PairTiming {
  std::vector<double> round_trip_seconds;  // per timed block: its time over its round trips
  std::uint64_t round_trips = 0;           // per block
  std::string failure;                     // empty: measured
};

// Times `blocks` blocks of round trips between `cpu_a` (the calling thread,
// pinned there for the call: its mask is given back) and `cpu_b` (a thread
// started for the pair). An untimed probe first warms both cores and sizes
// the blocks. A CPU that refuses the pinning or a reply that does not come
// within the timeout is a failure, with the reason: every wait is bounded.
PairTiming time_pair(int cpu_a, int cpu_b, const PingPong& how);

}  // namespace movebench::node
