#pragma once
#include <memory>

#include "core/command.hpp"
#include "core/output.hpp"

namespace movebench {
// `movebench node`: the whole node's NUMA nodes, cores and accelerators
// measured and judged against their peaks and siblings (docs/node.md).
// Its text goes to `out` (fleet's node step keeps a unit's to itself).
std::unique_ptr<Command> make_node_command(Output& out = standard_output());
}  // namespace movebench
