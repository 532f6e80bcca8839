// The table of subcommands: its one owner. main.cpp gives it to the front
// door; `movebench run` gets the suite's part as a function (so nothing
// below this floor calls up to it).
#pragma once
#include <memory>
#include <vector>

#include "core/command.hpp"

namespace movebench {
// A fresh copy of every benchmark command of the suite, in --help and suite
// order (node last: its step, node_step.hpp, is the suite's longest after mem).
std::vector<std::unique_ptr<Command>> make_commands();
// The commands outside the suite's table, after it in --help: fleet (not in
// the default suite: a job of its own, or `run --fleet`), run (the suite)
// and facts (its facts are in every document already).
std::vector<std::unique_ptr<Command>> make_other_commands();
}  // namespace movebench
