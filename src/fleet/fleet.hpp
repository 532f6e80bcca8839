// `movebench fleet`: every node (or rank) of a job measured in one run, one
// result, the slow nodes and links named (docs/fleet.md).
#pragma once
#include <memory>

#include "core/command.hpp"

namespace movebench {
std::unique_ptr<Command> make_fleet_command();
}  // namespace movebench
