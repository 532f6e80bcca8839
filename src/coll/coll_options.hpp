// The command line of `movebench coll`: its options as CLI11 takes them and
// their resolution into CollOptions (coll_cli.cpp): every text parsed to its
// type once, mpiBench's defaults filled in, and what cannot run refused
// before MPI starts. The measuring code reads CollOptions only.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "coll/coll_logic.hpp"
#include "core/repetitions.hpp"

namespace movebench::net {

inline constexpr int kEstimateIters = 5;              // mpiBench's ITRS_EST
inline constexpr double kDefaultTimeLimitUs = 50000;  // mpiBench's limit when neither -i nor -t is given
// -i is an upper bound on a timed loop that keeps no sample per call.
inline constexpr Repetitions kMaxRepetitions{"-i", "max_iterations", Repetitions::kUnbounded};

struct CollOptions {
  std::vector<CollInfo> ops;  // in mpiBench's order, whatever the command line's
  std::uint64_t begin_bytes = 0, end_bytes = 0, memory_limit_bytes = 0;
  std::string begin_text = "0", end_text = "256K", memory_limit_text = "1G";  // as given, for messages
  int max_repetitions = 1000;
  double time_limit_s = 0;  // one test's limit: -t, --time-budget, else mpiBench's default
  int cartesian_dims = 0, partition_size = 0;
  bool check_every = false, no_check = false, skip_validation = false;
  bool no_barrier = false, per_call = false;
  bool percentiles = false;  // -z: every iteration timed, its percentiles (coll_record.cpp)

  bool checking() const { return !no_check && !skip_validation; }
  // The name the skip was asked for by, for the record.
  const char* skip_option() const { return no_check ? "--no-check" : "--skip-validation"; }
};

class CollCli {
 public:
  // Declares every option on app; those that need no parsing are bound to o.
  // add_checks declares --skip-validation and -C (MpiCommand's, as every MPI
  // command words them), in their place in --help.
  void add_options(CLI::App& app, CollOptions& o, const std::function<void(CLI::App&)>& add_checks);
  // Parses the text options into o, fills defaults and refuses what cannot run.
  void resolve(CollOptions& o);

 private:
  void resolve_operations(CollOptions& o) const;
  void resolve_limits(CollOptions& o) const;

  std::vector<std::string> op_names_;
  double time_limit_us_ = 0, time_budget_s_ = 0;
  bool check_once_ = false;
  CLI::Option* max_repetitions_option_ = nullptr;
  CLI::Option* time_option_ = nullptr;
  CLI::Option* budget_option_ = nullptr;
};

}  // namespace movebench::net
