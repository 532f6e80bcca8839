#include "net/coll_ops.hpp"

#include "net/message_pattern.hpp"

#include <fmt/format.h>

#include <array>
#include <cstring>

namespace movebench::net {
namespace {

using Call = void (*)(const CollCase&);
using Expect = std::vector<Segment> (*)(const CollCase&);
struct Piece {
  Call call;
  Expect expect;
};

using S = std::size_t;
S u(int v) { return static_cast<S>(v); }
S blk(const CollCase& c) { return u(c.count); }

std::vector<Segment> from_every_rank(const CollCase& c, bool mine_at_their_offset) {
  std::vector<Segment> out;
  for (int j = 0; j < c.nranks; ++j) {
    out.push_back({u(j) * blk(c), j, mine_at_their_offset ? u(c.rank) * blk(c) : 0, blk(c)});
  }
  return out;
}

std::vector<Segment> v_from_every_rank(const CollCase& c) {
  std::vector<Segment> out;
  for (int j = 0; j < c.nranks; ++j) {
    // Alltoallv: j sent me its block for me, which starts where its counts
    // for ranks before me end; the gathers send from the start.
    const S from = c.op == Coll::kAlltoallv ? u(displacements(v_counts(j, c.count, c.nranks))[u(c.rank)]) : 0;
    out.push_back({u(c.rdispls[u(j)]), j, from, u(c.rcounts[u(j)])});
  }
  return out;
}

bool is_root(const CollCase& c) { return c.rank == c.root; }

const std::array<Piece, 12>& pieces() {
  static const std::array<Piece, 12> table = {{
      // Barrier
      {[](const CollCase& c) { MPI_Barrier(c.comm); }, [](const CollCase&) { return std::vector<Segment>{}; }},
      // Bcast: the root sends from its send buffer, the others receive.
      {[](const CollCase& c) { MPI_Bcast(is_root(c) ? c.send : c.recv, c.count, c.type, c.root, c.comm); },
       [](const CollCase& c) {
         return is_root(c) ? std::vector<Segment>{} : std::vector<Segment>{{0, c.root, 0, blk(c)}};
       }},
      // Alltoall
      {[](const CollCase& c) { MPI_Alltoall(c.send, c.count, c.type, c.recv, c.count, c.type, c.comm); },
       [](const CollCase& c) { return from_every_rank(c, true); }},
      // Alltoallv
      {[](const CollCase& c) {
         MPI_Alltoallv(c.send, c.scounts.data(), c.sdispls.data(), c.type, c.recv, c.rcounts.data(),
                       c.rdispls.data(), c.type, c.comm);
       },
       v_from_every_rank},
      // Allgather
      {[](const CollCase& c) { MPI_Allgather(c.send, c.count, c.type, c.recv, c.count, c.type, c.comm); },
       [](const CollCase& c) { return from_every_rank(c, false); }},
      // Allgatherv
      {[](const CollCase& c) {
         MPI_Allgatherv(c.send, c.my_count, c.type, c.recv, c.rcounts.data(), c.rdispls.data(), c.type, c.comm);
       },
       v_from_every_rank},
      // Gather
      {[](const CollCase& c) { MPI_Gather(c.send, c.count, c.type, c.recv, c.count, c.type, c.root, c.comm); },
       [](const CollCase& c) { return is_root(c) ? from_every_rank(c, false) : std::vector<Segment>{}; }},
      // Gatherv
      {[](const CollCase& c) {
         MPI_Gatherv(c.send, c.my_count, c.type, c.recv, c.rcounts.data(), c.rdispls.data(), c.type, c.root, c.comm);
       },
       [](const CollCase& c) { return is_root(c) ? v_from_every_rank(c) : std::vector<Segment>{}; }},
      // Scatter
      {[](const CollCase& c) { MPI_Scatter(c.send, c.count, c.type, c.recv, c.count, c.type, c.root, c.comm); },
       [](const CollCase& c) { return std::vector<Segment>{{0, c.root, u(c.rank) * blk(c), blk(c)}}; }},
      // Allreduce
      {[](const CollCase& c) { MPI_Allreduce(c.send, c.recv, c.count, c.type, MPI_SUM, c.comm); },
       [](const CollCase& c) { return std::vector<Segment>{{0, kSumOfRanks, 0, blk(c)}}; }},
      // Reduce
      {[](const CollCase& c) { MPI_Reduce(c.send, c.recv, c.count, c.type, MPI_SUM, c.root, c.comm); },
       [](const CollCase& c) {
         return is_root(c) ? std::vector<Segment>{{0, kSumOfRanks, 0, blk(c)}} : std::vector<Segment>{};
       }},
      // Reduce_scatter: every rank gets its block of the sum.
      {[](const CollCase& c) { MPI_Reduce_scatter_block(c.send, c.recv, c.count, c.type, MPI_SUM, c.comm); },
       [](const CollCase& c) { return std::vector<Segment>{{0, kSumOfRanks, u(c.rank) * blk(c), blk(c)}}; }},
  }};
  return table;
}

const Piece& piece(Coll op) { return pieces()[static_cast<std::size_t>(op)]; }

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
  CollCase c;
  c.op = info.op;
  c.comm = comm;
  MPI_Comm_rank(comm, &c.rank);
  MPI_Comm_size(comm, &c.nranks);
  c.bytes = bytes;
  c.type = info.reduction ? MPI_DOUBLE : MPI_BYTE;
  c.elem = info.reduction ? sizeof(double) : 1;
  c.count = static_cast<int>(bytes / c.elem);
  c.send = send;
  c.recv = recv;
  if (info.op == Coll::kAlltoallv) {
    c.scounts = v_counts(c.rank, c.count, c.nranks);
    c.sdispls = displacements(c.scounts);
    c.rcounts = c.scounts;  // symmetric: rank i sends me what I send it
    c.rdispls = c.sdispls;
  }
  if (info.op == Coll::kAllgatherv || info.op == Coll::kGatherv) {
    c.my_count = v_count(c.rank, 0, c.count, c.nranks);
    c.rcounts = v_counts(0, c.count, c.nranks);
    c.rdispls = displacements(c.rcounts);
  }
  return c;
}

void call_collective(const CollCase& c) { piece(c.op).call(c); }

std::vector<Segment> expected_segments(const CollCase& c) { return piece(c.op).expect(c); }

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
  for (const auto& s : expected_segments(c)) {
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
