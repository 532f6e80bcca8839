// The table of benchmark subcommands: its one owner. main.cpp gives it to
// the front door and to `movebench run` (which gets the table as a function,
// so nothing below this floor calls up to it).
#pragma once
#include <memory>
#include <vector>

#include "core/command.hpp"

namespace movebench {
// A fresh copy of every benchmark command, in --help and suite order.
std::vector<std::unique_ptr<Command>> make_commands();
}  // namespace movebench
