// Where memory lives, set and checked through the kernel's NUMA calls (mbind,
// set_mempolicy, move_pages; no libnuma): the node command binds each array
// to its target node before the first touch and then asks the kernel where a
// sample of its pages really are. A page off its node is an error, not a
// figure. Every one of these calls goes through glibc's syscall(), the one
// entry point a preloaded library can replace: tests/faults/node_faults.cpp
// does, and reports a sampled page on another node.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace movebench::node {

// Binds the pages of [data, data + bytes) to NUMA node `node` (MPOL_BIND):
// pages not yet touched are placed there when first written, pages already
// touched are moved there. Returns "" or why the kernel refused.
std::string bind_to_node(void* data, std::size_t bytes, int node);

struct PlacementCheck {
  std::size_t sampled = 0;   // pages asked about
  std::size_t off_node = 0;  // pages on another node, or not present
  int found_node = -1;       // where the first page off its node was (-1: not present)
  std::string error;         // the kernel refused to say; empty: it answered
  bool ok() const { return error.empty() && off_node == 0 && sampled > 0; }
};

// Asks the kernel (move_pages without targets) where up to `samples` pages
// of [data, data + bytes), evenly spaced, first and last included, are.
PlacementCheck check_placement(const void* data, std::size_t bytes, int node, std::size_t samples);

// "4 of 64 sampled pages are not on node 1 (the first on node 0)", or the
// kernel's refusal; "" when ok.
std::string placement_problem(const PlacementCheck& check, int node);

// The calling thread's new pages on NUMA node `node` until destroyed
// (set_mempolicy MPOL_BIND), then the policy it had before: how memory that
// a library allocates and places itself is bound (a driver's pinned host
// memory is placed as it is allocated and cannot move after, so bind_to_node
// afterwards is too late). error() says why the binding failed ("" when it
// holds).
class ScopedNodeBinding {
 public:
  explicit ScopedNodeBinding(int node);
  ~ScopedNodeBinding();
  ScopedNodeBinding(const ScopedNodeBinding&) = delete;
  ScopedNodeBinding& operator=(const ScopedNodeBinding&) = delete;
  const std::string& error() const { return error_; }

 private:
  int old_mode_ = 0;
  std::vector<unsigned long> old_mask_;
  bool restore_ = false;
  std::string error_;
};

}  // namespace movebench::node
