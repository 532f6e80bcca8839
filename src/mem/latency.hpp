// Memory latency: a pointer chase through a random cyclic permutation of
// cache lines (as lmbench lat_mem_rd with random order, and multichase).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/buffer.hpp"
#include "core/distribution.hpp"

namespace movebench::mem {

// A working set of `bytes` split into `stride`-byte nodes, each holding a
// pointer to the next in one random cycle through all of them, so every load
// depends on the one before and no prefetcher can guess the next line. With
// a TLB window (multichase's -T), the cycle visits every node of one
// `window`-byte block in random order before it moves on to the next block,
// the blocks in random order too: the chase then misses the TLB about once
// per window instead of on nearly every load.
class ChaseRing {
 public:
  // window 0 (or at least `bytes`): one window, a uniformly random cycle.
  ChaseRing(std::size_t bytes, std::size_t stride, std::uint64_t seed, bool huge_pages, std::size_t window = 0);
  std::size_t nodes() const { return nodes_; }
  void* head() const { return buffer_.data(); }
  // Follows `loads` pointers from `from` (a multiple of 16 is followed
  // exactly) and returns where it stopped. Successive samples go on from
  // there, so a sample shorter than the ring still meets lines it has not
  // met since the caches last saw them.
  static void* chase(void* from, std::size_t loads);
  // True when following the ring from the head visits every node once.
  bool is_single_cycle() const;
  // Node indices in the order the chase meets them, from the head (at most
  // nodes() of them; tests only).
  std::vector<std::size_t> walk() const;

  // The order the cycle visits `nodes` nodes: windows of `per_window` nodes
  // (the last one may be shorter) in random order, each one's nodes in
  // random order; node 0 first. The ring links each to the next, the last
  // back to the first: one cycle by construction.
  static std::vector<std::size_t> visit_order(std::size_t nodes, std::size_t per_window, std::uint64_t seed);

 private:
  HostBuffer buffer_;
  std::size_t stride_ = 64;
  std::size_t nodes_ = 0;
};

// Seconds per load of up to `samples` samples of about `target` seconds
// each, on the calling thread (see latency.cpp for how samples disturbed by
// a context switch are retaken; `disturbed` counts them). Empty only when
// interrupted before the first sample.
// `loads_per_sample`: where to say how many loads one sample timed.
// `resume`: where the chase starts (null, or pointing to null: the ring's
// head) and, after, where it stopped: a caller that takes its samples in
// several calls goes on from there, as successive samples do, rather than
// timing the same stretch again (still in cache when the ring is not far
// beyond it).
std::vector<double> time_chase(const ChaseRing& ring, int samples, double target, int& disturbed,
                               std::size_t* loads_per_sample = nullptr, void** resume = nullptr);

// What one sample of the chase is (the note under a table, the result's distribution).
inline constexpr const char* kBlockEvent = "timed block";
// One load is too short to time alone: latency's and loaded latency's
// distribution is of the timed blocks of `loads` loads, each its time per load.
Distribution block_distribution(std::size_t loads, const std::vector<double>& per_load);

}  // namespace movebench::mem
