#pragma once
#include <memory>

#include "core/command.hpp"

namespace movebench {
std::unique_ptr<Command> make_link_command();
}  // namespace movebench
