// What beff, coll and p2p share as commands: the common options, usage
// errors printed by rank 0 only, MPI start-up, the watchdog, and the suite
// entry (in place under a launcher, else a small local mpirun run).
#pragma once
#include <string>
#include <vector>

#include "core/command.hpp"
#include "net/mpi_env.hpp"

namespace movebench::net {

class MpiCommand : public Command {
 public:
  bool collective() const final { return true; }
  void add_options(CLI::App& app) final;
  void check_options() final;
  int run(Report& report) final;
  // In place under a launcher; else a small local 2-rank job of this binary
  // with the same arguments.
  bool run_in_suite(Report& report, const std::vector<std::string>& args, std::string& why) final;

 protected:
  virtual void add_own_options(CLI::App& app) = 0;
  // Semantic checks and derived settings; throws UsageError. No MPI yet.
  virtual void resolve() = 0;
  virtual int run_mpi(Report& report, Watchdog& dog) = 0;

  // --skip-validation and -C/--check-every, as beff, coll and p2p take
  // them; `every_means` says what -C checks in that benchmark.
  static void add_check_options(CLI::App& app, bool& skip, bool& every, const std::string& every_means);

  static bool is_root() { return world_rank() == 0; }
  // Bound for one step of the watchdog, seconds.
  double step_timeout_ = 120;
  FailMode fail_ = FailMode::kNone;

 private:
  void add_all_options(CLI::App& app);
  void run_local_job(Report& report, const std::vector<std::string>& args, std::string& why);
  std::string fail_text_;
  int saved_stderr_ = -1;  // stderr while other ranks' usage errors are hidden
};

// Copies a finished child run's document (its records, results, errors and
// checks) into `report`: how `movebench run` keeps a local mpirun job's figures.
void import_document(const nlohmann::json& doc, const std::string& benchmark, Report& report);

}  // namespace movebench::net
