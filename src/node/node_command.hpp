#pragma once
#include <memory>

#include "core/command.hpp"

namespace movebench {
// `movebench node`: the whole node's NUMA nodes, cores and accelerators
// measured and judged against their peaks and siblings (docs/node.md).
std::unique_ptr<Command> make_node_command();
}  // namespace movebench
