// The MPI subcommands. In a build without MPI they still exist and say so.
#pragma once
#include <memory>

#include "core/command.hpp"

namespace movebench {
std::unique_ptr<Command> make_coll_command();
std::unique_ptr<Command> make_beff_command();
std::unique_ptr<Command> make_p2p_command();
}  // namespace movebench
