#include "coll/coll_ops.hpp"

#include "coll/coll_rows.hpp"
#include "net/message_pattern.hpp"

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <tuple>

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
  static_cast<CollShape&>(c) = coll_shape(info, rank, nranks, bytes);
  c.comm = comm;
  c.type = info.reduction ? MPI_DOUBLE : MPI_BYTE;
  c.send = send;
  c.recv = recv;
  return c;
}

namespace {

// The MPI C API's blocking collectives, bound once for the rows' calls
// (coll_rows.hpp writes `Mpi::Allreduce(...)`): the whole set the standard
// has, so that a new row needs no line here.
struct MpiApi {
  static constexpr auto& Barrier = MPI_Barrier;
  static constexpr auto& Bcast = MPI_Bcast;
  static constexpr auto& Gather = MPI_Gather;
  static constexpr auto& Gatherv = MPI_Gatherv;
  static constexpr auto& Scatter = MPI_Scatter;
  static constexpr auto& Scatterv = MPI_Scatterv;
  static constexpr auto& Allgather = MPI_Allgather;
  static constexpr auto& Allgatherv = MPI_Allgatherv;
  static constexpr auto& Alltoall = MPI_Alltoall;
  static constexpr auto& Alltoallv = MPI_Alltoallv;
  static constexpr auto& Alltoallw = MPI_Alltoallw;
  static constexpr auto& Reduce = MPI_Reduce;
  static constexpr auto& Allreduce = MPI_Allreduce;
  static constexpr auto& Reduce_scatter = MPI_Reduce_scatter;
  static constexpr auto& Reduce_scatter_block = MPI_Reduce_scatter_block;
  static constexpr auto& Scan = MPI_Scan;
  static constexpr auto& Exscan = MPI_Exscan;
  static MPI_Op sum() { return MPI_SUM; }
};

using Call = void (*)(const CollCase&);

// Row i's call is entry i, made from the same list as coll_table(); a
// constant, so the timed loop's call_collective is one load and one
// indirect call, as the switch it replaces was one jump.
template <class... Rows>
constexpr std::array<Call, sizeof...(Rows)> calls_of(std::tuple<Rows...>*) {
  return {&Rows::template call<MpiApi, CollCase>...};
}
constexpr auto kCalls = calls_of(static_cast<rows::CollRows*>(nullptr));

}  // namespace

void call_collective(const CollCase& c) { kCalls[c.op](c); }

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
  for (const auto& s : coll_table()[c.op].expected(c)) {
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
