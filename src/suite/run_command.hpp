#pragma once
#include <memory>
#include <vector>

#include "core/command.hpp"

namespace movebench {
// `movebench run`: every benchmark this build and machine can do, with
// bounded defaults, one summary and one result file.
std::unique_ptr<Command> make_run_command(const std::vector<std::unique_ptr<Command>>& commands);
}
