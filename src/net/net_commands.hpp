// The MPI subcommands, each made by its folder (src/beff, src/coll,
// src/p2p, src/fleet). In a build without MPI they still exist and say so:
// all four are then made by the one stub, no_mpi_commands.cpp.
#pragma once
#include <memory>

#include "core/command.hpp"

namespace movebench {
std::unique_ptr<Command> make_coll_command();
std::unique_ptr<Command> make_beff_command();
std::unique_ptr<Command> make_p2p_command();
// `movebench fleet`: every node (or rank) of a job measured in one run, one
// result, the slow nodes and links named (docs/fleet.md).
std::unique_ptr<Command> make_fleet_command();
}  // namespace movebench
