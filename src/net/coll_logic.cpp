#include "net/coll_logic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "core/clock.hpp"

namespace movebench::net {

namespace {

using S = std::size_t;
S u(int v) { return static_cast<S>(v); }
S blk(const CollShape& c) { return u(c.count); }
bool is_root(const CollShape& c) { return c.rank == c.root; }
using Segments = std::vector<Segment>;

// ---- the bytes moved (nccl-tests' S) and the bus factors ----
double one_block(std::uint64_t bytes, int) { return static_cast<double>(bytes); }
// nccl-tests count the whole buffer of n blocks for these.
double every_block(std::uint64_t bytes, int ranks) { return static_cast<double>(bytes) * ranks; }
double nothing_moved(std::uint64_t, int) { return 0; }
template <Coll op>
double v_received(std::uint64_t bytes, int ranks) {
  return v_mean_received_bytes(op, static_cast<int>(bytes), ranks, 1);
}
double factor_one(int) { return 1; }
double factor_all_to_all(int n) { return (n - 1.0) / n; }  // the all-to-all, gather and scatter family
double factor_allreduce(int n) { return 2 * (n - 1.0) / n; }

// ---- the counts of the v-variants ----
void alltoallv_counts(CollShape& c) {
  c.scounts = v_counts(c.rank, c.count, c.nranks);
  c.sdispls = displacements(c.scounts);
  c.rcounts = c.scounts;  // symmetric: rank i sends me what I send it
  c.rdispls = c.sdispls;
}
void gatherv_counts(CollShape& c) {
  c.my_count = v_count(c.rank, 0, c.count, c.nranks);
  c.rcounts = v_counts(0, c.count, c.nranks);
  c.rdispls = displacements(c.rcounts);
}

// ---- the checks ----
Segments none(const CollShape&) { return {}; }
Segments from_every_rank(const CollShape& c, bool mine_at_their_offset) {
  Segments out;
  for (int j = 0; j < c.nranks; ++j) {
    out.push_back({u(j) * blk(c), j, mine_at_their_offset ? u(c.rank) * blk(c) : 0, blk(c)});
  }
  return out;
}
Segments v_from_every_rank(const CollShape& c) {
  Segments out;
  for (int j = 0; j < c.nranks; ++j) {
    // Alltoallv: j sent me its block for me, which starts where its counts
    // for ranks before me end; the gathers send from the start.
    const S from = c.op == Coll::kAlltoallv ? u(displacements(v_counts(j, c.count, c.nranks))[u(c.rank)]) : 0;
    out.push_back({u(c.rdispls[u(j)]), j, from, u(c.rcounts[u(j)])});
  }
  return out;
}
// Bcast: the root sends from its send buffer, the others receive.
Segments bcast_expected(const CollShape& c) { return is_root(c) ? Segments{} : Segments{{0, c.root, 0, blk(c)}}; }
Segments alltoall_expected(const CollShape& c) { return from_every_rank(c, true); }
Segments allgather_expected(const CollShape& c) { return from_every_rank(c, false); }
Segments gather_expected(const CollShape& c) { return is_root(c) ? from_every_rank(c, false) : Segments{}; }
Segments gatherv_expected(const CollShape& c) { return is_root(c) ? v_from_every_rank(c) : Segments{}; }
Segments scatter_expected(const CollShape& c) { return {{0, c.root, u(c.rank) * blk(c), blk(c)}}; }
Segments allreduce_expected(const CollShape& c) { return {{0, kSumOfRanks, 0, blk(c)}}; }
Segments reduce_expected(const CollShape& c) { return is_root(c) ? allreduce_expected(c) : Segments{}; }
// Reduce_scatter: every rank gets its block of the sum.
Segments reduce_scatter_expected(const CollShape& c) { return {{0, kSumOfRanks, u(c.rank) * blk(c), blk(c)}}; }

std::string lower(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

const std::vector<CollInfo>& coll_table() {
  static const std::vector<CollInfo> table = {
      {Coll::kBarrier, "Barrier", false, true, nothing_moved, factor_one, nullptr, none},
      {Coll::kBcast, "Bcast", false, true, one_block, factor_one, nullptr, bcast_expected},
      {Coll::kAlltoall, "Alltoall", false, true, every_block, factor_all_to_all, nullptr, alltoall_expected},
      {Coll::kAlltoallv, "Alltoallv", false, true, v_received<Coll::kAlltoallv>, factor_all_to_all,
       alltoallv_counts, v_from_every_rank},
      {Coll::kAllgather, "Allgather", false, true, every_block, factor_all_to_all, nullptr, allgather_expected},
      {Coll::kAllgatherv, "Allgatherv", false, true, v_received<Coll::kAllgatherv>, factor_all_to_all,
       gatherv_counts, v_from_every_rank},
      {Coll::kGather, "Gather", false, true, every_block, factor_all_to_all, nullptr, gather_expected},
      {Coll::kGatherv, "Gatherv", false, true, v_received<Coll::kGatherv>, factor_all_to_all, gatherv_counts,
       gatherv_expected},
      {Coll::kScatter, "Scatter", false, true, every_block, factor_all_to_all, nullptr, scatter_expected},
      {Coll::kAllreduce, "Allreduce", true, true, one_block, factor_allreduce, nullptr, allreduce_expected},
      {Coll::kReduce, "Reduce", true, true, one_block, factor_one, nullptr, reduce_expected},
      {Coll::kReduceScatter, "Reduce_scatter", true, false, every_block, factor_all_to_all, nullptr,
       reduce_scatter_expected},
  };
  return table;
}

const CollInfo& coll_info(Coll op) { return coll_table().at(static_cast<std::size_t>(op)); }

std::string coll_key(const CollInfo& info) { return lower(info.name); }

std::optional<CollInfo> coll_by_name(std::string_view name) {
  const std::string wanted = lower(name);
  for (const auto& info : coll_table()) {
    if (coll_key(info) == wanted) return info;
  }
  return std::nullopt;
}

std::string coll_names() {
  std::string out;
  for (const auto& info : coll_table()) out += (out.empty() ? "" : ", ") + std::string(info.name);
  return out;
}

CollShape coll_shape(Coll op, int rank, int nranks, std::uint64_t bytes) {
  const CollInfo& info = coll_info(op);
  CollShape c;
  c.op = op;
  c.rank = rank;
  c.nranks = nranks;
  c.bytes = bytes;
  c.elem = info.reduction ? sizeof(double) : 1;
  c.count = static_cast<int>(bytes / c.elem);
  if (info.set_counts) info.set_counts(c);
  return c;
}

std::vector<std::uint64_t> coll_sizes(std::uint64_t start, std::uint64_t stop) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t s = start; s <= stop; s = s > 0 ? s * 2 : 1) sizes.push_back(s);
  return sizes;
}

std::uint64_t fit_stop_to_memory(std::uint64_t stop, int ranks, std::uint64_t mem_limit) {
  const auto n = static_cast<std::uint64_t>(ranks);
  while (stop > 0 && stop * n * 2 > mem_limit) stop /= 2;
  return stop;
}

int fit_iterations(double estimate_s, double limit_s, int max_iters, int est_iters) {
  // Whole calls within the limit; a zero estimate (a clock too coarse for
  // the call) means "no limit".
  const auto most = static_cast<std::uint64_t>(std::max(max_iters, 0));
  const auto limit = limit_s > 0 ? calls_to_fill(limit_s, estimate_s, 1, 0, most, Fill::kWithin) : most;
  return std::max(static_cast<int>(limit), est_iters);
}

int v_count(int i, int shift, int count, int ranks) {
  const long chunk = std::max(1, count / ranks);
  return static_cast<int>((static_cast<long>(i + shift) * chunk) % (static_cast<long>(count) + 1));
}

std::vector<int> v_counts(int shift, int count, int ranks) {
  std::vector<int> counts(static_cast<std::size_t>(ranks));
  for (int i = 0; i < ranks; ++i) counts[static_cast<std::size_t>(i)] = v_count(i, shift, count, ranks);
  return counts;
}

std::vector<int> displacements(const std::vector<int>& counts) {
  std::vector<int> displs(counts.size());
  int disp = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    displs[i] = disp;
    disp += counts[i];
  }
  return displs;
}

double v_mean_received_bytes(Coll op, int count, int ranks, std::uint64_t elem_bytes) {
  double total = 0;  // summed over receiving ranks
  for (int r = 0; r < ranks; ++r) {
    for (int i = 0; i < ranks; ++i) {
      // Alltoallv: rank r receives v_count(i, r) from every i; Allgatherv
      // and Gatherv: everybody (Gatherv: only the root) receives i's part.
      if (op == Coll::kAlltoallv) total += v_count(i, r, count, ranks);
      if (op == Coll::kAllgatherv || (op == Coll::kGatherv && r == 0)) total += v_count(i, 0, count, ranks);
    }
  }
  const double receivers = op == Coll::kGatherv ? 1.0 : ranks;
  return total * static_cast<double>(elem_bytes) / receivers;
}

double nccl_size_bytes(Coll op, std::uint64_t bytes, int ranks) { return coll_info(op).moved_bytes(bytes, ranks); }

double bus_factor(Coll op, int ranks) { return coll_info(op).bus_factor(ranks); }

std::string mpibench_line(std::string_view title, std::uint64_t bytes, int iters, double avg_us,
                          double min_us, double max_us, std::string_view comm, int ranks) {
  // printf's %-20.20s: padded and cut at 20 characters.
  const std::string_view cut = title.substr(0, std::min<std::size_t>(title.size(), 20));
  return fmt::format("{:<20}\tBytes:\t{:>8}\tIters:\t{:>7}\tAvg:\t{:>8.4f}\tMin:\t{:>8.4f}\tMax:\t{:>8.4f}\tComm: {}\tRanks: {}",
                     cut, bytes, iters, avg_us, min_us, max_us, comm, ranks);
}

}  // namespace movebench::net
