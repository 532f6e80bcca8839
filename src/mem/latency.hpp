// Memory latency: a pointer chase through a random cyclic permutation of
// cache lines (as lmbench lat_mem_rd with random order, and multichase).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/buffer.hpp"

namespace movebench::mem {

// A working set of `bytes` split into `stride`-byte nodes, each holding a
// pointer to the next in one random cycle through all of them (Sattolo's
// algorithm), so every load depends on the one before and no prefetcher can
// guess the next line.
class ChaseRing {
 public:
  ChaseRing(std::size_t bytes, std::size_t stride, std::uint64_t seed, bool huge_pages);
  std::size_t nodes() const { return nodes_; }
  void* head() const { return buffer_.data(); }
  // Follows `loads` pointers from `from` (a multiple of 16 is followed
  // exactly) and returns where it stopped. Successive samples go on from
  // there, so a sample shorter than the ring still meets lines it has not
  // met since the caches last saw them.
  static void* chase(void* from, std::size_t loads);
  // True when following the ring from the head visits every node once.
  bool is_single_cycle() const;

 private:
  HostBuffer buffer_;
  std::size_t stride_ = 64;
  std::size_t nodes_ = 0;
};

}  // namespace movebench::mem
