#pragma once
#include <memory>
#include <vector>

#include "core/command.hpp"

namespace movebench {
// The table of benchmark commands, as a function that makes fresh copies
// (src/commands.cpp's make_commands): given from above, not called up to.
using CommandTable = std::vector<std::unique_ptr<Command>> (*)();
// A command made fresh, outside the table (`fleet`, which the suite runs
// only when asked: --fleet, or --only fleet).
using CommandMaker = std::unique_ptr<Command> (*)();
// `movebench run`: every benchmark this build and machine can do, with
// bounded defaults, one summary and one result file.
std::unique_ptr<Command> make_run_command(CommandTable table, CommandMaker fleet);
}  // namespace movebench
