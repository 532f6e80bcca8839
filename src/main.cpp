// movebench: the common front door (the table of subcommands is commands.cpp).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <optional>

#include "build_info.hpp"
#include "commands.hpp"
#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/launcher.hpp"
#include "core/vocabulary.hpp"
#include "device/registry.hpp"
#include "facts/accelerators.hpp"
#include "facts/facts.hpp"
#include "facts/facts_command.hpp"
#include "facts/machine_facts.hpp"
#include "judge/apply.hpp"
#include "judge/steps.hpp"
#include "report/report_tool.hpp"
#include "report/result_store.hpp"

namespace movebench {

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

// Every headline figure of a command run alone gets its peak in the
// document; mem and link, whose output is their own table, also print it
// (the MPI commands' stdout is their upstream tool's format). `run` does
// this itself, before each summary line.
void add_peaks(const Command& command, Report& report) {
  const auto peaks = judge::attach_peaks(report, facts::machine_facts(report.document()));
  if (!command.collective() && launcher_rank() <= 0) {
    judge::print_peak_lines(standard_output(), peaks, report.document()["results"]);
  }
}

// Every sweep's steps, named from the facts, in the document (judge/steps);
// printed under the tables by rank 0, as OSU's comment lines under the MPI
// commands' (their stdout is their upstream tool's format). `run` keeps
// them in its document only.
void add_steps(const Command& command, Report& report) {
  const auto steps = judge::attach_steps(report);
  if (command.name() != "run" && launcher_rank() <= 0 && !steps.empty()) {
    judge::print_step_lines(standard_output(), steps, command.collective() ? "# " : "");
  }
}

// Every result document records what movebench knows of the machine (its
// `facts`, docs/facts.md); `facts` records its own, from its options. The
// suite says the settings' warnings once, at its start; other commands keep
// their one-line stderr contracts and record the warnings only.
void record_facts(const Command& command, Report& report) {
  if (command.name() == "facts") return;
  try {
    report.extra("facts") = facts::collect({});
  } catch (const std::exception& e) {
    report.extra("facts") = {{"status", "unknown"}, {"why", one_line(e.what())}};
  }
  if (command.name() == "run" && launcher_rank() <= 0) {
    facts::print_warnings(standard_output(), report.extra("facts"), "movebench run");
  }
}

// Checks, then runs one command into its report. A run that fails with an
// exception still finishes its report, so what was measured is kept.
// With --store, the written file then goes into the store (report/result_store).
int run_command(Command& command, OutputOptions output, const std::vector<std::string>& command_line) {
  const std::string where = "movebench " + command.name();
  std::optional<Report> report;
  bool own_file = false;  // --store without --json: the file kept until it is stored
  try {
    command.check_options();
    own_file = prepare_store(output, command.name());
    report.emplace(command.name(), output, command_line);
  } catch (const UsageError& e) {
    return usage_error(where, e.what());
  }
  record_facts(command, *report);
  install_interrupt_handlers();
  int code = kExitOk;
  try {
    code = command.run(*report);
    if (command.name() != "run") add_peaks(command, *report);
    add_steps(command, *report);
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
  const int stored = store_result(output, own_file, *report);
  if (final_code != kExitOk) return final_code;
  return code != kExitOk ? code : stored;
}

// A subcommand and the CLI11 app it was parsed into.
struct Entry {
  Command* command;
  CLI::App* app;
};

// "--flag=" too: CLI11 runs no validator on a flag, and takes an empty
// value as given. The exit code when an argument is refused, else nullopt.
std::optional<int> refuse_empty_and_help_values(int argc, char** argv) {
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
  return std::nullopt;
}

int print_cases(const std::vector<std::unique_ptr<Command>>& commands) {
  for (auto& c : commands) {
    for (const auto& name : c->cases()) std::printf("%s\n", name.c_str());
  }
  return kExitOk;
}

// No command: one usage line on stderr (it is an error), exit code 2.
int no_command(const std::vector<Entry>& entries) {
  std::string names;
  for (const auto& [command, sub] : entries) names += (names.empty() ? "" : ", ") + command->name();
  std::fprintf(stderr, "usage: movebench COMMAND [OPTIONS] (commands: %s, report; see movebench --help)\n",
               names.c_str());
  return kExitUsage;
}

// The command's subcommand, with the options every command has (--json,
// --store, --parsable, -q) and its own.
Entry add_command(CLI::App& app, Command& command, OutputOptions& output) {
  CLI::App* sub = app.add_subcommand(command.name(), command.summary());
  sub->add_option(vocabulary::names(vocabulary::kJson), output.json_path,
                  vocabulary::help(vocabulary::kJson, "write it (JSON) to this file"));
  sub->add_option(vocabulary::names(vocabulary::kStore), output.store,
                  vocabulary::help(vocabulary::kStore,
                                   "also store it in this database (a SQLite file, sqlite:///FILE or "
                                   "postgresql://user@host/db) through movebench-report store add: docs/history.md"))
      ->type_name("URL");
  sub->add_flag("--parsable", output.parsable,
                "Also print one MOVEBENCH_RESULT line per figure (for ReFrame, JUBE, Ramble)");
  sub->add_flag("-q,--quiet", output.quiet,
                "No live progress line on the terminal (it is never drawn when stderr is not one)");
  command.add_options(*sub);
  // An empty value ("--json ''", "-n ''") is a mistake for every option:
  // refused here rather than taken as "not given" or as zero.
  for (CLI::Option* option : sub->get_options()) {
    if (option->get_type_size() != 0) option->check(non_empty_value());
  }
  return {&command, sub};
}

}  // namespace
}  // namespace movebench

int main(int argc, char** argv) {
  using namespace movebench;
  // As the document records it: no password of a --store URL.
  const std::vector<std::string> command_line = without_store_password({argv, argv + argc});
  // `movebench report ...` is the Python tool movebench-report: none of our options apply.
  if (argc > 1 && std::string(argv[1]) == "report") return exec_report_tool(argc - 2, argv + 2);
  // The facts layer is below the device layer: the device layer lists the
  // accelerators for it (facts/accelerators.hpp).
  facts::set_accelerator_lister(device::list_accelerators);

  CLI::App app{"movebench: how fast data moves on and between HPC machines", "movebench"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", fmt::format("movebench {}", build::version));
  bool list = false;
  app.add_flag("--list", list, "Print the dotted names of every case this build can run");

  auto commands = make_commands();
  auto other_commands = make_other_commands();
  OutputOptions output;
  output.write_file = launcher_rank() <= 0;  // under mpirun/srun, rank 0 alone writes --json
  std::vector<Entry> entries;
  for (auto& c : commands) entries.push_back(add_command(app, *c, output));
  for (auto& c : other_commands) entries.push_back(add_command(app, *c, output));
  // After the subcommands, which would inherit it.
  app.footer("Reports from result files (tables, comparisons, plots, HTML): movebench report --help");

  if (auto refused = refuse_empty_and_help_values(argc, argv)) return *refused;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Help and --version arrive here too, with exit code 0.
    if (e.get_exit_code() == 0) return app.exit(e);
    auto subs = app.get_subcommands();
    return usage_error(subs.empty() ? "movebench" : "movebench " + subs.front()->get_name(), e.what());
  }

  if (list) return print_cases(commands);
  for (auto& [command, sub] : entries) {
    if (sub->parsed()) return run_command(*command, output, command_line);
  }
  return no_command(entries);
}
