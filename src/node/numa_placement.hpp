// Where memory lives, set and checked through the kernel's NUMA calls (raw
// system calls: mbind, move_pages; no libnuma): the node command binds each
// array to its target node before the first touch and then asks the kernel
// where a sample of its pages really are. A page off its node is an error,
// not a figure.
#pragma once
#include <cstddef>
#include <string>

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

}  // namespace movebench::node
