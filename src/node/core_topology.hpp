// Where each CPU sits in the machine's cache domains, from hwloc: the input
// of the core matrix's pair selection (core_pairs).
#pragma once
#include <vector>

#include "node/core_pairs.hpp"

namespace movebench::node {

// The places of `cpus`, in their order. A CPU hwloc does not know, or a
// machine hwloc cannot read, gives places with no domains (-1).
std::vector<CpuPlace> cpu_places(const std::vector<int>& cpus);

}  // namespace movebench::node
