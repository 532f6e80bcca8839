#include "p2p/p2p.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/clock.hpp"
#include "net/message_pattern.hpp"

namespace movebench::net {
namespace {

constexpr int kTag = 1, kAckTag = 101;

int me() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int count_of(std::uint64_t bytes) { return static_cast<int>(bytes); }

// osu_latency: blocking send and receive, one message each way.
void pingpong_round(bool first, int peer, std::byte* send, std::byte* recv, int n) {
  if (first) {
    MPI_Send(send, n, MPI_CHAR, peer, kTag, MPI_COMM_WORLD);
    MPI_Recv(recv, n, MPI_CHAR, peer, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(recv, n, MPI_CHAR, peer, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(send, n, MPI_CHAR, peer, kTag, MPI_COMM_WORLD);
  }
}

// osu_bw: a window of sends one way, a 4-byte acknowledgement back.
void window_round(bool sender, int peer, std::byte* send, std::byte* recv, int n, std::vector<MPI_Request>& reqs) {
  const int window = static_cast<int>(reqs.size());
  if (sender) {
    for (int w = 0; w < window; ++w)
      MPI_Isend(send, n, MPI_CHAR, peer, kTag, MPI_COMM_WORLD, &reqs[static_cast<std::size_t>(w)]);
    MPI_Waitall(window, reqs.data(), MPI_STATUSES_IGNORE);
    MPI_Recv(recv, 4, MPI_CHAR, peer, kAckTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    for (int w = 0; w < window; ++w)
      MPI_Irecv(recv, n, MPI_CHAR, peer, kTag, MPI_COMM_WORLD, &reqs[static_cast<std::size_t>(w)]);
    MPI_Waitall(window, reqs.data(), MPI_STATUSES_IGNORE);
    MPI_Send(send, 4, MPI_CHAR, peer, kAckTag, MPI_COMM_WORLD);
  }
}

// osu_bibw: both post a window of receives and of sends, then wait.
void bibw_round(int peer, std::byte* send, std::byte* recv, int n, std::vector<MPI_Request>& reqs) {
  const int window = static_cast<int>(reqs.size() / 2);
  for (int w = 0; w < window; ++w)
    MPI_Irecv(recv, n, MPI_CHAR, peer, kTag, MPI_COMM_WORLD, &reqs[static_cast<std::size_t>(w)]);
  for (int w = 0; w < window; ++w)
    MPI_Isend(send, n, MPI_CHAR, peer, kTag, MPI_COMM_WORLD, &reqs[static_cast<std::size_t>(window + w)]);
  MPI_Waitall(2 * window, reqs.data(), MPI_STATUSES_IGNORE);
}

}  // namespace

double p2p_seconds(P2pTest test, const P2pPair& pair, std::byte* send, std::byte* recv, std::uint64_t bytes, int iters,
                   int warmup, int window, std::vector<double>* per_iteration) {
  const int rank = me();
  if (rank != pair.a && rank != pair.b) return 0;
  const bool first = rank == pair.a;
  const int peer = first ? pair.b : pair.a;
  const int n = count_of(bytes);
  std::vector<MPI_Request> reqs(static_cast<std::size_t>(test == P2pTest::kBibw ? 2 * window : window));
  auto round = [&] {
    switch (test) {
      case P2pTest::kLatency: pingpong_round(first, peer, send, recv, n); break;
      case P2pTest::kBw: window_round(first, peer, send, recv, n, reqs); break;
      case P2pTest::kBibw: bibw_round(peer, send, recv, n, reqs); break;
    }
  };
  for (int i = 0; i < warmup; ++i) round();
  if (per_iteration != nullptr && first)
    return timed_each(round, iters, test == P2pTest::kLatency ? 2 : 1, *per_iteration);
  const double t0 = now_seconds();
  for (int i = 0; i < iters; ++i) round();
  const double elapsed = now_seconds() - t0;
  return first ? elapsed : 0;
}

std::string p2p_check(P2pTest test, const P2pPair& pair, std::byte* send, std::byte* recv, std::uint64_t bytes,
                      int passes, bool corrupt) {
  const int rank = me();
  if (rank != pair.a && rank != pair.b) return {};
  const bool first = rank == pair.a;
  const int peer = first ? pair.b : pair.a;
  const int n = count_of(bytes);
  const std::uint64_t stream = static_cast<std::uint64_t>(test) + 1;
  // What this rank receives each round: bw's sender gets only the acknowledgement.
  const std::size_t expected = test == P2pTest::kBw && first ? std::min<std::size_t>(4, bytes) : bytes;
  const std::size_t filled = std::max<std::uint64_t>(bytes, 4);
  std::vector<MPI_Request> reqs(test == P2pTest::kBibw ? 2 : 1);
  std::string error;
  for (int i = 0; i < passes; ++i) {
    const auto iteration = static_cast<std::uint64_t>(i);
    fill_message(send, filled, message_key(rank, stream, iteration));
    std::memset(recv, 0, filled);
    switch (test) {
      case P2pTest::kLatency: pingpong_round(first, peer, send, recv, n); break;
      case P2pTest::kBw: window_round(first, peer, send, recv, n, reqs); break;
      case P2pTest::kBibw: bibw_round(peer, send, recv, n, reqs); break;
    }
    if (corrupt && i == 0 && expected > 0) recv[expected - 1] ^= std::byte{1};
    const std::size_t wrong = first_wrong_byte(recv, expected, message_key(peer, stream, iteration));
    // The peer goes on with its passes, so this rank must too (else it would wait for ever).
    if (wrong < expected && error.empty())
      error = fmt::format("byte {} of message {} from rank {} is wrong", wrong, i, peer);
  }
  return error;
}

}  // namespace movebench::net
