#include "suite/run_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/sizes.hpp"
#include "core/interrupt.hpp"
#include "core/launcher.hpp"
#include "core/progress.hpp"
#include "facts/machine_facts.hpp"
#include "judge/apply.hpp"
#include "judge/bands.hpp"
#include "judge/peaks.hpp"
#include "judge/verdict.hpp"
#include "suite/suite_output.hpp"

namespace movebench {
namespace {

// A command as the user gets it (nothing left from an earlier run of the
// suite), from the table of subcommands or the one made on its own.
std::unique_ptr<Command> fresh_command(CommandTable table, CommandMaker fleet, const std::string& name) {
  for (auto& c : table()) {
    if (c->name() == name) return std::move(c);
  }
  if (auto c = fleet(); c->name() == name) return c;
  throw std::logic_error("no command " + name);
}

class RunCommand : public Command {
 public:
  // The fleet command goes last: it needs every rank of the job, and the
  // per-node benchmarks before it run on rank 0 alone.
  RunCommand(CommandTable table, CommandMaker fleet) : table_(table), fleet_maker_(fleet), commands_(table()) {
    commands_.push_back(fleet());
    fleet_name_ = commands_.back()->name();
  }
  std::string name() const override { return "run"; }
  std::string summary() const override {
    return "The default suite: every benchmark this machine can run, with bounded settings (seconds to a minute)";
  }
  std::vector<std::string> cases() const override { return {}; }

  void add_options(CLI::App& app) override {
    app.add_option("--only", only_text_, "Run only these benchmarks, comma- or space-separated (e.g. mem,link)");
    app.add_option("--skip", skip_text_,
                   "Run every benchmark but these, comma- or space-separated (e.g. node: the suite without its node "
                   "step)");
    app.add_flag("--dry-run", dry_run_,
                 "Print the command line of each run of the suite (each benchmark's own options) and measure nothing");
    app.add_option("--expect", expect_file_,
                   "Bands of normal for the verdicts, a JSON of the shape of src/judge/data/bands.json; its rows come "
                   "before the built-in ones (docs/facts.md#peaks-and-verdicts)");
    app.add_option("--fail-on", fail_on_,
                   "Exit 1 when a verdict is at or worse than this: low (low or degraded) or degraded");
    app.add_option(
        "--facts", facts_file_,
        "The machine's facts from a file (movebench facts --json, or its `facts` key) instead of reading them");
    app.add_flag("--fleet", fleet_,
                 "Also run `movebench fleet` (per host), last: in place under srun or mpirun (every rank of the job), "
                 "else as a local 2-rank job; its `fleet` and `outliers` go into the same result (--only fleet: the "
                 "fleet alone; docs/fleet.md)");
  }

  void check_options() override {
    only_ = benchmark_names(only_text_, "--only");
    skip_ = benchmark_names(skip_text_, "--skip");
    if (!only_.empty() && !skip_.empty()) throw UsageError("--only and --skip: give one of them");
    if (!fail_on_.empty() && fail_on_ != "low" && fail_on_ != "degraded") {
      throw UsageError(fmt::format("--fail-on '{}': wants low or degraded", fail_on_));
    }
    // Read now, so a bad file is one line and exit 2 before anything is measured.
    bands_ = judge::load_bands(expect_file_);
    if (!facts_file_.empty()) given_facts_ = facts::facts_from_file(facts_file_);
  }

  int run(Report& report) override {
    std::vector<Command*> chosen;
    for (const auto& c : commands_) {
      const bool named = std::find(only_.begin(), only_.end(), c->name()) != only_.end();
      if (!only_.empty() && !named && !(fleet_ && c->name() == fleet_name_)) continue;
      if (std::find(skip_.begin(), skip_.end(), c->name()) != skip_.end()) continue;
      if (c->name() == fleet_name_ && !fleet_ && !named) continue;  // only when asked
      // Under a launcher, one copy of mem, link and stream is enough (and
      // copies on other ranks would disturb it): only rank 0 runs them.
      if (launcher_rank() > 0 && !c->collective()) continue;
      chosen.push_back(c.get());
    }
    if (dry_run_) {
      print_runs(chosen);
      return kExitOk;
    }
    std::vector<SuiteStep> steps;
    const nlohmann::json facts = facts_file_.empty() ? facts::machine_facts(report.document()) : given_facts_;
    const double start = now_seconds();
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      Command* c = chosen[i];
      if (interrupted()) break;
      report.progress().stage(c->name(), i + 1, chosen.size());
      out_.stage(c->name(), i + 1, chosen.size(), now_seconds() - start);
      const double t0 = now_seconds();
      std::string why, failed;
      int ran = 0;
      for (const auto& args : c->suite_runs(why)) {
        if (interrupted()) break;
        std::string run_why;
        if (fresh_command(table_, fleet_maker_, c->name())->run_in_suite(report, args, run_why)) {
          ++ran;
        } else {
          failed = run_why;
        }
      }
      // Before the summary line, which shows each figure's fraction of its peak.
      judge::attach_peaks(report, facts);
      if (ran > 0) {
        steps.push_back({c->name(), true, c->suite_summary(report), failed, now_seconds() - t0});
      } else {
        steps.push_back({c->name(), false, "", failed.empty() ? why : failed, now_seconds() - t0});
      }
    }
    if (launcher_rank() > 0) return kExitOk;  // rank 0 speaks for the job
    out_.summary(steps, report.validation_verdict());
    return print_verdicts(report, facts);
  }

  std::vector<std::vector<std::string>> suite_runs(std::string& why) const override {
    why = "run does not nest";
    return {};
  }
  std::string suite_summary(const Report&) const override { return ""; }

 private:
  // --only's or --skip's names, each one of the suite's benchmarks.
  std::vector<std::string> benchmark_names(const std::vector<std::string>& texts, std::string_view option) const {
    std::vector<std::string> out;
    for (const auto& text : texts) {
      for (auto& name : parse_name_list(text, "benchmark")) out.push_back(std::move(name));
    }
    for (const auto& name : out) {
      bool known = false;
      for (const auto& c : commands_) known = known || c->name() == name;
      if (!known) throw UsageError(fmt::format("unknown benchmark '{}' in {}", name, option));
    }
    return out;
  }

  // What the suite would run, as command lines a user can run alone.
  void print_runs(const std::vector<Command*>& chosen) {
    if (launcher_rank() > 0) return;
    for (Command* c : chosen) {
      std::string why;
      const auto runs = c->suite_runs(why);
      out_.runs(c->name(), why, runs);
    }
  }

  // One verdict line per path measured, recorded as `verdicts`; exit 1 when
  // --fail-on names a verdict reached.
  int print_verdicts(Report& report, const nlohmann::json& facts) {
    const auto& doc = report.document();
    const nlohmann::json verdicts = judge::make_verdicts(doc, facts, judge::figure_peaks(doc, facts), bands_);
    report.extra("verdicts") = verdicts;
    out_.verdicts(verdicts);
    return judge::any_at_or_worse(verdicts, fail_on_) ? kExitFailure : kExitOk;
  }

  CommandTable table_;
  CommandMaker fleet_maker_;
  std::vector<std::unique_ptr<Command>> commands_;  // for names and suite_runs; runs use fresh copies
  std::string fleet_name_;
  bool fleet_ = false;
  std::string expect_file_, fail_on_, facts_file_;
  nlohmann::json bands_, given_facts_;
  bool dry_run_ = false;
  std::vector<std::string> only_text_, only_, skip_text_, skip_;
  SuiteWriter out_{standard_output()};
};

}  // namespace

std::unique_ptr<Command> make_run_command(CommandTable table, CommandMaker fleet) {
  return std::make_unique<RunCommand>(table, fleet);
}

}  // namespace movebench
