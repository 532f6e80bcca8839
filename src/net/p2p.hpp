// Point-to-point loops between two ranks, as OSU Micro-Benchmarks time
// them (osu_latency, osu_bw, osu_bibw); used by `p2p` and beside b_eff.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace movebench::net {

enum class P2pTest { kLatency, kBw, kBibw };

struct P2pPair {
  int a = 0, b = 1;  // ranks in MPI_COMM_WORLD; a times, as OSU's rank 0
};

// Seconds of the timed part of one test on rank a (0 elsewhere): `warmup`
// untimed rounds, then `iters` timed ones. Ranks outside the pair return
// at once. Buffers hold at least bytes (bw: one message; all messages of
// a window share the buffer, as in OSU).
double p2p_seconds(P2pTest test, const P2pPair& pair, std::byte* send, std::byte* recv, std::uint64_t bytes,
                   int iters, int warmup, int window);

// Untimed: a sends its pattern to b, b sends its own back; each checks
// what it got. Empty when right, else what was wrong.
std::string p2p_check(const P2pPair& pair, std::byte* send, std::byte* recv, std::uint64_t bytes, bool corrupt);

}  // namespace movebench::net
