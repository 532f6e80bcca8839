// The parts of `movebench coll` that need no MPI: the operation names, the
// size sweep, the iteration fit, mpiBench's counts for the v-variants, the
// bus-bandwidth convention of nccl-tests, and mpiBench's output line.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace movebench::net {

// Who holds which elements in one call of a collective: what its check
// needs, with no MPI in it (coll_ops.hpp adds the communicator, the buffers
// and the MPI datatype).
struct CollShape {
  std::size_t op = 0;  // the row's index in coll_table()
  int rank = 0, nranks = 1, root = 0;
  std::uint64_t bytes = 0;  // mpiBench's "Bytes"
  int count = 0;            // elements per block
  std::size_t elem = 1;     // bytes per element
  // The v-variants' counts and displacements (mpiBench's pattern).
  int my_count = 0;
  std::vector<int> scounts, sdispls, rcounts, rdispls;
};

// What lands in the receive buffer, in elements: `length` elements at
// `recv_offset` equal the sender's pattern from `source_offset` on; for a
// reduction (source kSumOfRanks) the sum of every rank's pattern.
constexpr int kSumOfRanks = -1;
struct Segment {
  std::size_t recv_offset;
  int source;
  std::size_t source_offset;
  std::size_t length;
};

// A collective's row as data (coll_rows.hpp has one struct per collective,
// the single place it is written; this is made from it): its name, its
// buffers, the bytes it moves and its bus factor, its counts and its check.
struct CollInfo {
  std::size_t index;      // its place in coll_table(): mpiBench's order; keys its send data
  std::string_view name;  // mpiBench's spelling, also its output label
  bool reduction;         // vectors of doubles summed: sizes below 8 bytes are skipped; else bytes
  bool by_default;        // in mpiBench's default set (Reduce_scatter, unknown to it, only by name)
  bool sized;             // false: run once at 0 bytes, no bandwidth (Barrier)
  // nccl-tests' size S for mpiBench's Bytes (the v-variants: the mean bytes
  // a rank receives) and bus factor (busbw = algbw * factor; docs/coll.md).
  double (*moved_bytes)(std::uint64_t bytes, int ranks);
  double (*bus_factor)(int ranks);
  // The v-variants' counts and displacements (the others: nothing to set).
  void (*set_counts)(CollShape& shape);
  // The check: which data each rank must hold after the call.
  std::vector<Segment> (*expected)(const CollShape& shape);
};

// One row per struct of coll_rows.hpp's CollRows, in that order.
const std::vector<CollInfo>& coll_table();
// Case-insensitive, as mpiBench matches names; nullptr when unknown.
const CollInfo* coll_by_name(std::string_view name);
// "Reduce_scatter" -> "reduce_scatter": the dotted --list name and record operation.
std::string coll_key(const CollInfo& info);
// "Barrier, Bcast, ..., Reduce_scatter": the names, for messages.
std::string coll_names();
// The shape of `info`'s collective at `bytes` for `rank` of `nranks` (root 0).
CollShape coll_shape(const CollInfo& info, int rank, int nranks, std::uint64_t bytes);

// mpiBench's sweep: start, then doubling (0 is followed by 1), up to stop.
std::vector<std::uint64_t> coll_sizes(std::uint64_t start, std::uint64_t stop);
// mpiBench's -m: halve the largest size until send+recv buffers of
// size*ranks each fit in mem_limit.
std::uint64_t fit_stop_to_memory(std::uint64_t stop, int ranks, std::uint64_t mem_limit);

// mpiBench's iteration count: with a time limit, as many calls as the
// estimate says fit (at most max_iters); when that is not more than the
// estimate's own calls, the estimate is the result (returns est_iters).
int fit_iterations(double estimate_s, double limit_s, int max_iters, int est_iters);

// mpiBench's counts for the v-variants: element i of the list is
// ((i + shift) * chunk) % (count + 1), chunk = max(1, count / ranks).
int v_count(int i, int shift, int count, int ranks);
std::vector<int> v_counts(int shift, int count, int ranks);
std::vector<int> displacements(const std::vector<int>& counts);

// Who receives in a v-variant: every rank from every rank (Alltoallv, its
// own counts), every rank the same parts (Allgatherv), the root (Gatherv).
enum class VReceivers { kAlltoall, kEveryRank, kRoot };
// Mean bytes a receiving rank gets in a v-variant with mpiBench's counts:
// nccl-tests' size S for them (docs/coll.md).
double v_mean_received_bytes(VReceivers who, int count, int ranks, std::uint64_t elem_bytes);

// One mpiBench result line (times in microseconds), without the newline:
// "%-20.20s\tBytes:\t%8u\tIters:\t%7d\tAvg:\t%8.4f\tMin:\t%8.4f\tMax:\t%8.4f\tComm: %s\tRanks: %d"
std::string mpibench_line(std::string_view title, std::uint64_t bytes, int iters, double avg_us, double min_us,
                          double max_us, std::string_view comm, int ranks);

}  // namespace movebench::net
