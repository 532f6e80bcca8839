// Point-to-point loops between two ranks, as OSU Micro-Benchmarks time
// them (osu_latency, osu_bw, osu_bibw); used by `p2p` and beside b_eff.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace movebench::net {

enum class P2pTest { kLatency, kBw, kBibw };

struct P2pPair {
  int a = 0, b = 1;  // ranks in MPI_COMM_WORLD; a times, as OSU's rank 0
};

// Seconds of the timed part of one test on rank a (0 elsewhere): `warmup`
// untimed rounds, then `iters` timed ones. Ranks outside the pair return
// at once. Buffers hold at least bytes (bw: one message; all messages of
// a window share the buffer, as in OSU). With `per_iteration` (OSU's -z),
// rank a also reads the clock after every iteration and keeps each one's
// seconds there (a ping-pong's: half its round trip, as OSU's tail columns).
double p2p_seconds(P2pTest test, const P2pPair& pair, std::byte* send, std::byte* recv, std::uint64_t bytes, int iters,
                   int warmup, int window, std::vector<double>* per_iteration = nullptr);

// Untimed: `passes` rounds of the test's own kind (one message in flight),
// each with data of its own (net/message_pattern.hpp) into a cleared
// buffer, checked by the receiving rank: a ping-pong for latency, a
// message and its 4-byte acknowledgement for bw, both ways for bibw.
// Empty when right, else what was wrong. Buffers hold max(bytes, 4).
std::string p2p_check(P2pTest test, const P2pPair& pair, std::byte* send, std::byte* recv, std::uint64_t bytes,
                      int passes, bool corrupt);

}  // namespace movebench::net
