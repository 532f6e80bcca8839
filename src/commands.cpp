#include "commands.hpp"

#include "facts/facts_command.hpp"
#include "link/link_command.hpp"
#include "mem/mem_command.hpp"
#include "net/net_commands.hpp"
#include "node/node_command.hpp"
#include "stream/stream_command.hpp"
#include "suite/run_command.hpp"

namespace movebench {

// Adding a benchmark: one folder with a Command, and one line here.
std::vector<std::unique_ptr<Command>> make_commands() {
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(make_mem_command());
  commands.push_back(make_beff_command());
  commands.push_back(make_coll_command());
  commands.push_back(make_p2p_command());
  commands.push_back(make_link_command());
  commands.push_back(make_stream_command());
  commands.push_back(make_node_command());  // its bounded step (node/node_step.hpp)
  return commands;
}

std::vector<std::unique_ptr<Command>> make_other_commands() {
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(make_fleet_command());
  commands.push_back(make_run_command(make_commands, make_fleet_command));
  commands.push_back(facts::make_facts_command());
  return commands;
}

}  // namespace movebench
