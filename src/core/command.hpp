// A subcommand: declares its options, checks them, runs, fills a Report.
// Adding a benchmark means one folder with a Command and one line in the
// table in src/commands.cpp.
#pragma once
#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "core/report.hpp"

namespace movebench {

class Command {
 public:
  virtual ~Command() = default;
  virtual std::string name() const = 0;     // "mem"
  virtual std::string summary() const = 0;  // one line for --help
  // Stable dotted names of what this build can run ("mem.triad"), for --list.
  virtual std::vector<std::string> cases() const = 0;

  // True for benchmarks every rank of an MPI job takes part in; under a
  // launcher, `movebench run` runs the others on rank 0 only.
  virtual bool collective() const { return false; }

  virtual void add_options(CLI::App& app) = 0;
  // Semantic checks after parsing; throws UsageError. Nothing is allocated
  // before it returns.
  virtual void check_options() {}
  // The command as the user called it. Returns an exit code.
  virtual int run(Report& report) = 0;

  // `movebench run`: this benchmark's bounded runs (about a minute for
  // everything on two cores), each given as the command line a user would
  // type: its own options, so that the suite's defaults are written the way
  // the docs and --help describe them. None: not in this suite, with the
  // reason in `why`.
  virtual std::vector<std::vector<std::string>> suite_runs(std::string& why) const = 0;
  // Runs one of them into `report` on a command as the user gets it: parses
  // `args` as main() parses a user's, checks, runs. Returns false when this
  // machine or build cannot run it (a UsageError: no device, no launcher),
  // with the reason in `why`; a failure while running is recorded in the
  // report and also returns false.
  virtual bool run_in_suite(Report& report, const std::vector<std::string>& args, std::string& why);
  // One line for the suite summary, from what the runs added
  // (core/summary.hpp's SummaryLine).
  virtual std::string suite_summary(const Report& report) const = 0;
};

}  // namespace movebench
