// fleet in a build without MPI: the command exists (scripts get a clear
// answer, not "unknown command"), accepts any options, and says in one line
// that this build has no MPI; exit 77 (skipped), as beff, coll and p2p.
#include "core/errors.hpp"
#include "core/output.hpp"
#include "fleet/fleet.hpp"

namespace movebench {
namespace {

class NoMpiFleet : public Command {
 public:
  std::string name() const override { return "fleet"; }
  std::string summary() const override { return "Every node of the job at once, outliers named (not in this build: no MPI)"; }
  std::vector<std::string> cases() const override { return {}; }
  void add_options(CLI::App& app) override { app.allow_extras(); }
  int run(Report&) override {
    standard_output().problem(
        "movebench fleet: this build has no MPI (rebuild with MPI installed and -DMOVEBENCH_WITH_MPI=ON)");
    return kExitSkipped;
  }
  std::vector<std::vector<std::string>> suite_runs(std::string& why) const override {
    why = "this build has no MPI";
    return {};
  }
  std::string suite_summary(const Report&) const override { return ""; }
};

}  // namespace

std::unique_ptr<Command> make_fleet_command() { return std::make_unique<NoMpiFleet>(); }

}  // namespace movebench
