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
  // Follows `loads` pointers (a multiple of 16 is followed exactly). Returns
  // the last node so the loads cannot be optimised away.
  void* chase(std::size_t loads) const;
  // True when following the ring from the head visits every node once.
  bool is_single_cycle() const;

 private:
  HostBuffer buffer_;
  std::size_t stride_ = 64;
  std::size_t nodes_ = 0;
};

}  // namespace movebench::mem
