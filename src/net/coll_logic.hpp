// The parts of `movebench coll` that need no MPI: the operation names, the
// size sweep, the iteration fit, mpiBench's counts for the v-variants, the
// bus-bandwidth convention of nccl-tests, and mpiBench's output line.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace movebench::net {

enum class Coll {
  kBarrier, kBcast, kAlltoall, kAlltoallv, kAllgather, kAllgatherv,
  kGather, kGatherv, kScatter, kAllreduce, kReduce, kReduceScatter,
};

struct CollInfo {
  Coll op;
  std::string_view name;  // mpiBench's spelling, also its output label
  bool reduction;         // vectors of doubles: sizes below 8 bytes are skipped
};

// mpiBench's order (its default run), then Reduce_scatter.
const std::vector<CollInfo>& coll_table();
// Case-insensitive, as mpiBench matches names; nullopt when unknown.
std::optional<CollInfo> coll_by_name(std::string_view name);
// "Reduce_scatter" -> "reduce_scatter": the dotted --list name and record operation.
std::string coll_key(const CollInfo& info);

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

// nccl-tests' convention (docs/coll.md): the size S they use for an
// operation whose mpiBench Bytes is `bytes` (for the v-variants, the mean
// bytes a rank receives), and the factor busbw = algbw * factor.
double nccl_size_bytes(Coll op, std::uint64_t bytes, int ranks);
double bus_factor(Coll op, int ranks);
// Mean bytes a rank receives in a v-variant with mpiBench's counts.
double v_mean_received_bytes(Coll op, int count, int ranks, std::uint64_t elem_bytes);

// One mpiBench result line (times in microseconds), without the newline:
// "%-20.20s\tBytes:\t%8u\tIters:\t%7d\tAvg:\t%8.4f\tMin:\t%8.4f\tMax:\t%8.4f\tComm: %s\tRanks: %d"
std::string mpibench_line(std::string_view title, std::uint64_t bytes, int iters, double avg_us,
                          double min_us, double max_us, std::string_view comm, int ranks);

}  // namespace movebench::net
