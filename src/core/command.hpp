// A subcommand: declares its options, checks them, runs, fills a Report.
// Adding a benchmark means one folder with a Command and one line in the
// table in main.cpp.
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

  // `movebench run`: the same benchmark with bounded defaults (about a
  // minute for everything on two cores). Returns false when this machine or
  // build cannot run it, with the reason in `why`.
  virtual bool run_in_suite(Report& report, std::string& why) = 0;
  // One line for the suite summary, from what run_in_suite added.
  virtual std::string suite_summary(const Report& report) const = 0;
};

// The table of subcommands (main.cpp).
std::vector<std::unique_ptr<Command>> make_commands();

}  // namespace movebench
