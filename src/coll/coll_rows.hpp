// movebench coll's collectives, one struct each (nccl-tests' struct
// testColl): its name, its buffers (reduction: doubles, else bytes), the
// bytes it moves and its bus factor, its counts, its check and its MPI call.
// Adding a collective is one struct here (from Row, or Reduction, writing
// only what differs from them) and its name in CollRows; --list,
// the record operations, the result keys, the default set, the call and the
// check follow, and docs/coll.md names it (checked by a test).
//
// No MPI here, so that everything but the call is unit-tested in a build
// without it: `call` is a template over the MPI C API (coll_ops.cpp binds it
// to mpi.h as MpiApi) and over the case it is given (coll_ops.hpp's CollCase:
// a CollShape plus communicator, datatype and buffers).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <vector>

#include "coll/coll_logic.hpp"

namespace movebench::net::rows {

using S = std::size_t;
using Segments = std::vector<Segment>;
inline S u(int v) { return static_cast<S>(v); }
inline S blk(const CollShape& c) { return u(c.count); }
inline bool is_root(const CollShape& c) { return c.rank == c.root; }

// ---- the bytes moved (nccl-tests' S) and the bus factors ----
inline double one_block(std::uint64_t bytes, int) { return static_cast<double>(bytes); }
// nccl-tests count the whole buffer of n blocks for these.
inline double every_block(std::uint64_t bytes, int ranks) { return static_cast<double>(bytes) * ranks; }
inline double factor_one(int) { return 1; }
inline double factor_all_to_all(int n) { return (n - 1.0) / n; }  // the all-to-all, gather and scatter family
inline double factor_allreduce(int n) { return 2 * (n - 1.0) / n; }
inline void block_counts(CollShape&) {}  // blocks of `count` elements

// ---- the counts of the v-variants ----
inline void gatherv_counts(CollShape& c) {
  c.my_count = v_count(c.rank, 0, c.count, c.nranks);
  c.rcounts = v_counts(0, c.count, c.nranks);
  c.rdispls = displacements(c.rcounts);
}

// ---- the checks ----
inline Segments from_every_rank(const CollShape& c, bool mine_at_their_offset) {
  Segments out;
  for (int j = 0; j < c.nranks; ++j) {
    out.push_back({u(j) * blk(c), j, mine_at_their_offset ? u(c.rank) * blk(c) : 0, blk(c)});
  }
  return out;
}
// The gathers' v-variants: rank j's part, from the start of its buffer.
inline Segments v_from_every_rank(const CollShape& c) {
  Segments out;
  for (int j = 0; j < c.nranks; ++j) out.push_back({u(c.rdispls[u(j)]), j, 0, u(c.rcounts[u(j)])});
  return out;
}
inline Segments sum_block(const CollShape& c, S at) { return {{0, kSumOfRanks, at, blk(c)}}; }

// What most rows are, so that a row writes only where it differs: bytes,
// in mpiBench's default set, swept over the sizes, blocks of `count`.
struct Row {
  static constexpr bool reduction = false, by_default = true, sized = true;
  static constexpr auto set_counts = block_counts;
};
// A reduction: vectors of doubles summed.
struct Reduction : Row {
  static constexpr bool reduction = true;
};

struct Barrier : Row {
  static constexpr std::string_view name = "Barrier";
  static constexpr bool sized = false;  // once, at 0 bytes
  static double moved_bytes(std::uint64_t, int) { return 0; }
  static constexpr auto bus_factor = factor_one;
  static Segments expected(const CollShape&) { return {}; }
  template <class Mpi, class C>
  static void call(const C& c) {
    Mpi::Barrier(c.comm);
  }
};

struct Bcast : Row {
  static constexpr std::string_view name = "Bcast";
  static constexpr auto moved_bytes = one_block;
  static constexpr auto bus_factor = factor_one;
  // The root sends from its send buffer, the others receive its block.
  static Segments expected(const CollShape& c) { return is_root(c) ? Segments{} : Segments{{0, c.root, 0, blk(c)}}; }
  template <class Mpi, class C>
  static void call(const C& c) {
    Mpi::Bcast(is_root(c) ? c.send : c.recv, c.count, c.type, c.root, c.comm);
  }
};

struct Alltoall : Row {
  static constexpr std::string_view name = "Alltoall";
  static constexpr auto moved_bytes = every_block;
  static constexpr auto bus_factor = factor_all_to_all;
  static Segments expected(const CollShape& c) { return from_every_rank(c, true); }
  template <class Mpi, class C>
  static void call(const C& c) {
    Mpi::Alltoall(c.send, c.count, c.type, c.recv, c.count, c.type, c.comm);
  }
};

struct Alltoallv : Row {
  static constexpr std::string_view name = "Alltoallv";
  static double moved_bytes(std::uint64_t bytes, int ranks) {
    return v_mean_received_bytes(VReceivers::kAlltoall, static_cast<int>(bytes), ranks, 1);
  }
  static constexpr auto bus_factor = factor_all_to_all;
  static void set_counts(CollShape& c) {
    c.scounts = v_counts(c.rank, c.count, c.nranks);
    c.sdispls = displacements(c.scounts);
    c.rcounts = c.scounts;  // symmetric: rank i sends me what I send it
    c.rdispls = c.sdispls;
  }
  // j sent me its block for me, which starts where its counts for the
  // ranks before me end.
  static Segments expected(const CollShape& c) {
    Segments out;
    for (int j = 0; j < c.nranks; ++j) {
      const S from = u(displacements(v_counts(j, c.count, c.nranks))[u(c.rank)]);
      out.push_back({u(c.rdispls[u(j)]), j, from, u(c.rcounts[u(j)])});
    }
    return out;
  }
  template <class Mpi, class C>
  static void call(const C& c) {
    Mpi::Alltoallv(c.send, c.scounts.data(), c.sdispls.data(), c.type, c.recv, c.rcounts.data(), c.rdispls.data(),
                   c.type, c.comm);
  }
};

struct Allgather : Row {
  static constexpr std::string_view name = "Allgather";
  static constexpr auto moved_bytes = every_block;
  static constexpr auto bus_factor = factor_all_to_all;
  static Segments expected(const CollShape& c) { return from_every_rank(c, false); }
  template <class Mpi, class C>
  static void call(const C& c) {
    Mpi::Allgather(c.send, c.count, c.type, c.recv, c.count, c.type, c.comm);
  }
};

struct Allgatherv : Row {
  static constexpr std::string_view name = "Allgatherv";
  static double moved_bytes(std::uint64_t bytes, int ranks) {
    return v_mean_received_bytes(VReceivers::kEveryRank, static_cast<int>(bytes), ranks, 1);
  }
  static constexpr auto bus_factor = factor_all_to_all;
  static constexpr auto set_counts = gatherv_counts;
  static Segments expected(const CollShape& c) { return v_from_every_rank(c); }
  template <class Mpi, class C>
  static void call(const C& c) {
    Mpi::Allgatherv(c.send, c.my_count, c.type, c.recv, c.rcounts.data(), c.rdispls.data(), c.type, c.comm);
  }
};

struct Gather : Row {
  static constexpr std::string_view name = "Gather";
  static constexpr auto moved_bytes = every_block;
  static constexpr auto bus_factor = factor_all_to_all;
  static Segments expected(const CollShape& c) { return is_root(c) ? from_every_rank(c, false) : Segments{}; }
  template <class Mpi, class C>
  static void call(const C& c) {
    Mpi::Gather(c.send, c.count, c.type, c.recv, c.count, c.type, c.root, c.comm);
  }
};

struct Gatherv : Row {
  static constexpr std::string_view name = "Gatherv";
  static double moved_bytes(std::uint64_t bytes, int ranks) {
    return v_mean_received_bytes(VReceivers::kRoot, static_cast<int>(bytes), ranks, 1);
  }
  static constexpr auto bus_factor = factor_all_to_all;
  static constexpr auto set_counts = gatherv_counts;
  static Segments expected(const CollShape& c) { return is_root(c) ? v_from_every_rank(c) : Segments{}; }
  template <class Mpi, class C>
  static void call(const C& c) {
    Mpi::Gatherv(c.send, c.my_count, c.type, c.recv, c.rcounts.data(), c.rdispls.data(), c.type, c.root, c.comm);
  }
};

struct Scatter : Row {
  static constexpr std::string_view name = "Scatter";
  static constexpr auto moved_bytes = every_block;
  static constexpr auto bus_factor = factor_all_to_all;
  static Segments expected(const CollShape& c) { return {{0, c.root, u(c.rank) * blk(c), blk(c)}}; }
  template <class Mpi, class C>
  static void call(const C& c) {
    Mpi::Scatter(c.send, c.count, c.type, c.recv, c.count, c.type, c.root, c.comm);
  }
};

struct Allreduce : Reduction {
  static constexpr std::string_view name = "Allreduce";
  static constexpr auto moved_bytes = one_block;
  static constexpr auto bus_factor = factor_allreduce;
  static Segments expected(const CollShape& c) { return sum_block(c, 0); }
  template <class Mpi, class C>
  static void call(const C& c) {
    Mpi::Allreduce(c.send, c.recv, c.count, c.type, Mpi::sum(), c.comm);
  }
};

struct Reduce : Reduction {
  static constexpr std::string_view name = "Reduce";
  static constexpr auto moved_bytes = one_block;
  static constexpr auto bus_factor = factor_one;
  static Segments expected(const CollShape& c) { return is_root(c) ? sum_block(c, 0) : Segments{}; }
  template <class Mpi, class C>
  static void call(const C& c) {
    Mpi::Reduce(c.send, c.recv, c.count, c.type, Mpi::sum(), c.root, c.comm);
  }
};

// Unknown to mpiBench: only by name.
struct ReduceScatter : Reduction {
  static constexpr std::string_view name = "Reduce_scatter";
  static constexpr bool by_default = false;
  static constexpr auto moved_bytes = every_block;
  static constexpr auto bus_factor = factor_all_to_all;
  // Every rank gets its block of the sum.
  static Segments expected(const CollShape& c) { return sum_block(c, u(c.rank) * blk(c)); }
  template <class Mpi, class C>
  static void call(const C& c) {
    Mpi::Reduce_scatter_block(c.send, c.recv, c.count, c.type, Mpi::sum(), c.comm);
  }
};

// mpiBench's order (its default run), then Reduce_scatter. A row's place
// is its index (CollInfo::index), which keys its send data too.
using CollRows = std::tuple<Barrier, Bcast, Alltoall, Alltoallv, Allgather, Allgatherv, Gather, Gatherv, Scatter,
                            Allreduce, Reduce, ReduceScatter>;

}  // namespace movebench::net::rows
