#include "net/p2p.hpp"

#include <fmt/format.h>

#include <cstring>
#include <vector>

#include "core/clock.hpp"

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
    for (int w = 0; w < window; ++w) MPI_Isend(send, n, MPI_CHAR, peer, kTag, MPI_COMM_WORLD, &reqs[static_cast<std::size_t>(w)]);
    MPI_Waitall(window, reqs.data(), MPI_STATUSES_IGNORE);
    MPI_Recv(recv, 4, MPI_CHAR, peer, kAckTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    for (int w = 0; w < window; ++w) MPI_Irecv(recv, n, MPI_CHAR, peer, kTag, MPI_COMM_WORLD, &reqs[static_cast<std::size_t>(w)]);
    MPI_Waitall(window, reqs.data(), MPI_STATUSES_IGNORE);
    MPI_Send(send, 4, MPI_CHAR, peer, kAckTag, MPI_COMM_WORLD);
  }
}

// osu_bibw: both post a window of receives and of sends, then wait.
void bibw_round(int peer, std::byte* send, std::byte* recv, int n, std::vector<MPI_Request>& reqs) {
  const int window = static_cast<int>(reqs.size() / 2);
  for (int w = 0; w < window; ++w) MPI_Irecv(recv, n, MPI_CHAR, peer, kTag, MPI_COMM_WORLD, &reqs[static_cast<std::size_t>(w)]);
  for (int w = 0; w < window; ++w) MPI_Isend(send, n, MPI_CHAR, peer, kTag, MPI_COMM_WORLD, &reqs[static_cast<std::size_t>(window + w)]);
  MPI_Waitall(2 * window, reqs.data(), MPI_STATUSES_IGNORE);
}

std::byte pattern(int rank, std::size_t j) { return static_cast<std::byte>((j * 7 + static_cast<std::size_t>(rank) * 13 + 1) & 0xff); }

}  // namespace

double p2p_seconds(P2pTest test, const P2pPair& pair, std::byte* send, std::byte* recv, std::uint64_t bytes,
                   int iters, int warmup, int window) {
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
  const double t0 = now_seconds();
  for (int i = 0; i < iters; ++i) round();
  const double elapsed = now_seconds() - t0;
  return first ? elapsed : 0;
}

std::string p2p_check(const P2pPair& pair, std::byte* send, std::byte* recv, std::uint64_t bytes, bool corrupt) {
  const int rank = me();
  if (rank != pair.a && rank != pair.b) return {};
  const int peer = rank == pair.a ? pair.b : pair.a;
  for (std::size_t j = 0; j < bytes; ++j) send[j] = pattern(rank, j);
  std::memset(recv, 0, bytes);
  pingpong_round(rank == pair.a, peer, send, recv, count_of(bytes));
  if (corrupt && bytes > 0) recv[0] ^= std::byte{1};
  for (std::size_t j = 0; j < bytes; ++j) {
    if (recv[j] != pattern(peer, j)) return fmt::format("byte {} from rank {} is wrong", j, peer);
  }
  return {};
}

}  // namespace movebench::net
