// The MPI commands (beff, coll, p2p, fleet) in a build without MPI: one
// stub for all of them. The commands exist (so that scripts get a clear
// answer, not "unknown command"), accept any options, and say in one line
// that this build has no MPI; exit 77 (skipped).
#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/output.hpp"
#include "net/net_commands.hpp"

namespace movebench {
namespace {

class NoMpiCommand : public Command {
 public:
  NoMpiCommand(std::string name, std::string summary) : name_(std::move(name)), summary_(std::move(summary)) {}
  std::string name() const override { return name_; }
  std::string summary() const override { return summary_ + " (not in this build: no MPI)"; }
  std::vector<std::string> cases() const override { return {}; }
  void add_options(CLI::App& app) override { app.allow_extras(); }
  int run(Report&) override {
    standard_output().problem(fmt::format(
        "movebench {}: this build has no MPI (rebuild with MPI installed and -DMOVEBENCH_WITH_MPI=ON)", name_));
    return kExitSkipped;
  }
  std::vector<std::vector<std::string>> suite_runs(std::string& why) const override {
    why = "this build has no MPI";
    return {};
  }
  std::string suite_summary(const Report&) const override { return ""; }

 private:
  std::string name_, summary_;
};

}  // namespace

std::unique_ptr<Command> make_coll_command() {
  return std::make_unique<NoMpiCommand>("coll", "MPI collectives, mpiBench style");
}
std::unique_ptr<Command> make_beff_command() {
  return std::make_unique<NoMpiCommand>("beff", "MPI effective bandwidth b_eff");
}
std::unique_ptr<Command> make_p2p_command() {
  return std::make_unique<NoMpiCommand>("p2p", "MPI point to point, OSU style");
}
std::unique_ptr<Command> make_fleet_command() {
  return std::make_unique<NoMpiCommand>("fleet", "Every node of the job at once, outliers named");
}

}  // namespace movebench
