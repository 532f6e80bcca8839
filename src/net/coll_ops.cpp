#include "net/coll_ops.hpp"

#include "net/message_pattern.hpp"

#include <fmt/format.h>

#include <array>
#include <cstring>

namespace movebench::net {
namespace {

using S = std::size_t;

std::uint64_t key_of(const CollCase& c, int rank, std::uint64_t iteration) {
  return message_key(rank, static_cast<std::uint64_t>(c.op), iteration);
}

double sum_of_ranks(const CollCase& c, S k, std::uint64_t iteration) {
  double sum = 0;
  for (int r = 0; r < c.nranks; ++r) sum += message_value(key_of(c, r, iteration), k);
  return sum;
}

}  // namespace

CollCase make_case(const CollInfo& info, MPI_Comm comm, std::uint64_t bytes, std::byte* send, std::byte* recv) {
  int rank = 0, nranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &nranks);
  CollCase c;
  static_cast<CollShape&>(c) = coll_shape(info.op, rank, nranks, bytes);
  c.comm = comm;
  c.type = info.reduction ? MPI_DOUBLE : MPI_BYTE;
  c.send = send;
  c.recv = recv;
  return c;
}

// The one place a row's MPI call lives: a switch, so a Coll without its
// call is a compiler warning (-Wswitch), not a silent gap.
void call_collective(const CollCase& c) {
  switch (c.op) {
    case Coll::kBarrier: MPI_Barrier(c.comm); return;
    // Bcast: the root sends from its send buffer, the others receive.
    case Coll::kBcast: MPI_Bcast(c.rank == c.root ? c.send : c.recv, c.count, c.type, c.root, c.comm); return;
    case Coll::kAlltoall: MPI_Alltoall(c.send, c.count, c.type, c.recv, c.count, c.type, c.comm); return;
    case Coll::kAlltoallv:
      MPI_Alltoallv(c.send, c.scounts.data(), c.sdispls.data(), c.type, c.recv, c.rcounts.data(), c.rdispls.data(),
                    c.type, c.comm);
      return;
    case Coll::kAllgather: MPI_Allgather(c.send, c.count, c.type, c.recv, c.count, c.type, c.comm); return;
    case Coll::kAllgatherv:
      MPI_Allgatherv(c.send, c.my_count, c.type, c.recv, c.rcounts.data(), c.rdispls.data(), c.type, c.comm);
      return;
    case Coll::kGather: MPI_Gather(c.send, c.count, c.type, c.recv, c.count, c.type, c.root, c.comm); return;
    case Coll::kGatherv:
      MPI_Gatherv(c.send, c.my_count, c.type, c.recv, c.rcounts.data(), c.rdispls.data(), c.type, c.root, c.comm);
      return;
    case Coll::kScatter: MPI_Scatter(c.send, c.count, c.type, c.recv, c.count, c.type, c.root, c.comm); return;
    case Coll::kAllreduce: MPI_Allreduce(c.send, c.recv, c.count, c.type, MPI_SUM, c.comm); return;
    case Coll::kReduce: MPI_Reduce(c.send, c.recv, c.count, c.type, MPI_SUM, c.root, c.comm); return;
    case Coll::kReduceScatter: MPI_Reduce_scatter_block(c.send, c.recv, c.count, c.type, MPI_SUM, c.comm); return;
  }
}

void fill_send(const CollCase& c, S elements, std::uint64_t iteration) {
  const std::uint64_t key = key_of(c, c.rank, iteration);
  if (c.type == MPI_DOUBLE) {
    auto* d = reinterpret_cast<double*>(c.send);
    for (S k = 0; k < elements; ++k) d[k] = message_value(key, k);
  } else {
    fill_message(c.send, elements, key);
  }
}

std::string check_received(const CollCase& c, std::uint64_t iteration) {
  for (const auto& s : coll_info(c.op).expected(c)) {
    for (S i = 0; i < s.length; ++i) {
      const S at = s.recv_offset + i, from = s.source_offset + i;
      if (c.type == MPI_DOUBLE) {
        double got = 0;
        std::memcpy(&got, c.recv + at * sizeof(double), sizeof(double));
        // Whole numbers: every summation order is exact, so compare exactly.
        const double want = s.source == kSumOfRanks ? sum_of_ranks(c, from, iteration)
                                                    : message_value(key_of(c, s.source, iteration), from);
        if (got != want) return fmt::format("element {} is {} instead of {}", at, got, want);
      } else {
        const std::byte want = message_byte(key_of(c, s.source, iteration), from);
        if (c.recv[at] != want) {
          return fmt::format("byte {} (from rank {}) is {} instead of {}", at, s.source, static_cast<int>(c.recv[at]),
                             static_cast<int>(want));
        }
      }
    }
  }
  return {};
}

}  // namespace movebench::net
