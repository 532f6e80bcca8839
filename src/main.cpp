// movebench: the table of subcommands and the common front door.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <optional>

#include "build_info.hpp"
#include "core/command.hpp"
#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/launcher.hpp"
#include "core/vocabulary.hpp"
#include "fleet/fleet.hpp"
#include "link/link_command.hpp"
#include "stream/stream_command.hpp"
#include "mem/mem_command.hpp"
#include "net/net_commands.hpp"
#include "report/report_tool.hpp"
#include "suite/run_command.hpp"

namespace movebench {

std::vector<std::unique_ptr<Command>> make_commands() {
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(make_mem_command());
  commands.push_back(make_beff_command());
  commands.push_back(make_coll_command());
  commands.push_back(make_p2p_command());
  commands.push_back(make_link_command());
  commands.push_back(make_stream_command());
  return commands;
}

namespace {

// CLI11 messages can span lines; the contract is one line on stderr.
std::string one_line(std::string text) {
  for (auto& c : text) {
    if (c == '\n') c = ' ';
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

CLI::Validator non_empty_value() {
  return CLI::Validator([](std::string& value) { return value.empty() ? std::string("empty value") : std::string(); },
                        "", "NONEMPTY");
}

int usage_error(const std::string& where, const std::string& what) {
  std::fprintf(stderr, "%s: error: %s (see --help)\n", where.c_str(), one_line(what).c_str());
  return kExitUsage;
}

// Checks, then runs one command into its report. A run that fails with an
// exception still finishes its report, so what was measured is kept.
int run_command(Command& command, const OutputOptions& output, const std::vector<std::string>& command_line) {
  const std::string where = "movebench " + command.name();
  std::optional<Report> report;
  try {
    command.check_options();
    report.emplace(command.name(), output, command_line);
  } catch (const UsageError& e) {
    return usage_error(where, e.what());
  }
  install_interrupt_handlers();
  int code = kExitOk;
  try {
    code = command.run(*report);
  } catch (const UsageError& e) {
    report->progress().clear();
    // Found only once running (e.g. a rank count the job does not have):
    // nothing was measured, so no result file is left behind.
    report->discard();
    return usage_error(where, e.what());
  } catch (const std::exception& e) {
    report->progress().clear();
    std::fprintf(stderr, "%s: error: %s\n", where.c_str(), one_line(e.what()).c_str());
    report->add_error("run", one_line(e.what()));
  }
  const int final_code = report->finish();
  return final_code != kExitOk ? final_code : code;
}

}  // namespace
}  // namespace movebench

int main(int argc, char** argv) {
  using namespace movebench;
  std::vector<std::string> command_line(argv, argv + argc);
  // `movebench report ...` is the Python tool movebench-report: none of our options apply.
  if (argc > 1 && std::string(argv[1]) == "report") return exec_report_tool(argc - 2, argv + 2);

  CLI::App app{"movebench: how fast data moves on and between HPC machines", "movebench"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", fmt::format("movebench {}", build::version));
  bool list = false;
  app.add_flag("--list", list, "Print the dotted names of every case this build can run");

  auto commands = make_commands();
  auto run = make_run_command(commands);
  auto fleet = make_fleet_command();  // not in the default suite (`run`): it is a job of its own
  OutputOptions output;
  output.write_file = launcher_rank() <= 0;  // under mpirun/srun, rank 0 alone writes --json
  struct Entry {
    Command* command;
    CLI::App* app;
  };
  std::vector<Entry> entries;
  auto add = [&](Command& command) {
    CLI::App* sub = app.add_subcommand(command.name(), command.summary());
    sub->add_option(vocabulary::names(vocabulary::kJson), output.json_path,
                    vocabulary::help(vocabulary::kJson, "write it (JSON) to this file"));
    sub->add_flag("--parsable", output.parsable,
                  "Also print one MOVEBENCH_RESULT line per figure (for ReFrame, JUBE, Ramble)");
    sub->add_flag("--quiet", output.quiet, "No live progress line on the terminal (it is never drawn when stderr is not one)");
    command.add_options(*sub);
    // An empty value ("--json ''", "-n ''") is a mistake for every option:
    // refused here rather than taken as "not given" or as zero.
    for (CLI::Option* option : sub->get_options()) {
      if (option->get_type_size() != 0) option->check(non_empty_value());
    }
    entries.push_back({&command, sub});
  };
  for (auto& c : commands) add(*c);
  add(*fleet);
  add(*run);
  // After the subcommands, which would inherit it.
  app.footer("Reports from result files (tables, comparisons, plots, HTML): movebench report --help");

  // "--flag=" too: CLI11 runs no validator on a flag, and takes an empty
  // value as given.
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;
    const bool empty_value = arg.size() > 3 && arg.rfind("--", 0) == 0 && arg.back() == '=';
    // "--help=maybe": CLI11 printed the help and exited 0.
    const bool help_value = arg.rfind("--help=", 0) == 0 || arg.rfind("-h=", 0) == 0;
    if (empty_value || help_value) {
      const bool named = argc > 1 && argv[1][0] != '-';
      if (launcher_rank() > 0) return kExitUsage;  // every rank sees it; rank 0 says it
      return usage_error(named ? fmt::format("movebench {}", argv[1]) : "movebench",
                         empty_value ? fmt::format("{}: empty value", arg.substr(0, arg.size() - 1))
                                     : fmt::format("{}: --help takes no value", arg));
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Help and --version arrive here too, with exit code 0.
    if (e.get_exit_code() == 0) return app.exit(e);
    auto subs = app.get_subcommands();
    return usage_error(subs.empty() ? "movebench" : "movebench " + subs.front()->get_name(), e.what());
  }

  if (list) {
    for (auto& c : commands) {
      for (const auto& name : c->cases()) std::printf("%s\n", name.c_str());
    }
    return kExitOk;
  }
  for (auto& [command, sub] : entries) {
    if (sub->parsed()) return run_command(*command, output, command_line);
  }
  // No command: one usage line on stderr (it is an error), exit code 2.
  std::string names;
  for (auto& [command, sub] : entries) names += (names.empty() ? "" : ", ") + command->name();
  std::fprintf(stderr, "usage: movebench COMMAND [OPTIONS] (commands: %s, report; see movebench --help)\n",
               names.c_str());
  return kExitUsage;
}
