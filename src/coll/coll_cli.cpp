// coll's options (coll_options.hpp): declared once, resolved once.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "coll/coll_options.hpp"
#include "core/errors.hpp"
#include "core/sizes.hpp"
#include "core/vocabulary.hpp"

namespace movebench::net {

void CollCli::add_options(CLI::App& app, CollOptions& o, const std::function<void(CLI::App&)>& add_checks) {
  app.add_option("operations", op_names_,
                 "Operations by name (default: mpiBench's eleven; Reduce_scatter only by name)");
  app.add_option(vocabulary::names("-b", vocabulary::kMinBytes), o.begin_text,
                 vocabulary::help(vocabulary::kMinBytes, "the beginning message size (mpiBench's -b), K/M/G suffixes"))
      ->capture_default_str();
  app.add_option(vocabulary::names("-e", vocabulary::kMaxBytes), o.end_text,
                 vocabulary::help(vocabulary::kMaxBytes, "the ending message size (mpiBench's -e)"))
      ->capture_default_str();
  max_repetitions_option_ =
      app.add_option(vocabulary::names("-i", vocabulary::kRepetitions), o.max_repetitions,
                     vocabulary::help(vocabulary::kRepetitions,
                                      "the most iterations of a single test (mpiBench's -i; fewer when the "
                                      "time limit ends the test first)"))
          ->capture_default_str();
  app.add_option("-m,--memory-limit-bytes", o.memory_limit_text,
                 "Process memory buffer limit (send+recv) in bytes (mpiBench's -m)")
      ->capture_default_str();
  time_option_ =
      app.add_option("-t", time_limit_us_,
                     "Time limit for any single test in microseconds (mpiBench's -t; 0 = none; 50000 when none of -i, "
                     "-t and --time-budget is given)");
  budget_option_ = app.add_option(vocabulary::names(vocabulary::kTimeBudget), time_budget_s_,
                                  vocabulary::help(vocabulary::kTimeBudget, "a single test's limit (-t in seconds)"));
  app.add_option("-d", o.cartesian_dims,
                 "Number of Cartesian dimensions to split processes in (0 = MPI_COMM_WORLD only)")
      ->capture_default_str();
  app.add_option("-p", o.partition_size, "Minimum partition size: halve MPI_COMM_WORLD down to it (0 = none)")
      ->capture_default_str();
  app.add_flag("-c", check_once_, "Check the received data once per test (the default; see --skip-validation)");
  add_checks(app);
  app.add_flag("--no-check", o.no_check, "The older name of --skip-validation (recorded under this name)")
      ->group("Older names (still taken)");
  app.add_flag("--no-barrier", o.no_barrier, "No barrier between consecutive calls (mpiBench's `make nobar`)");
  app.add_flag("--per-call", o.per_call,
               "Time each call alone, the barrier between calls outside the timer (OSU's procedure)");
  app.add_flag("-z,--percentiles,!--no-percentiles", o.percentiles,
               "Time every iteration too (OSU's -z; a clock read per iteration: docs/performance.md): P50, P90, "
               "P99, P99.9 of the ranks' mean per iteration (OSU's) and of the slowest rank's, its max, each rank's")
      ->capture_default_str();
}

void CollCli::resolve(CollOptions& o) {
  if (o.per_call && o.no_barrier) throw UsageError("--per-call keeps a barrier between calls: not with --no-barrier");
  resolve_operations(o);
  resolve_limits(o);
  if (o.cartesian_dims < 0 || o.cartesian_dims > 8) {
    throw UsageError(fmt::format("invalid -d '{}': 0 to 8", o.cartesian_dims));
  }
  if (o.partition_size < 0) throw UsageError("-p must not be negative");
  if (o.skip_validation && o.no_check) throw UsageError("give --skip-validation once (--no-check is its older name)");
  if (o.check_every && !o.checking()) {
    throw UsageError(fmt::format("-C and {} contradict each other", o.skip_option()));
  }
}

void CollCli::resolve_operations(CollOptions& o) const {
  for (const auto& n : op_names_) {
    auto info = coll_by_name(n);
    if (!info) throw UsageError(fmt::format("unknown operation '{}' ({})", n, coll_names()));
    if (std::none_of(o.ops.begin(), o.ops.end(), [&](const CollInfo& op) { return op.index == info->index; })) {
      o.ops.push_back(*info);
    }
  }
  // The default is mpiBench's own set, so that crunch_mpiBench reads the
  // output as it reads mpiBench's; Reduce_scatter (unknown to it) by name.
  if (o.ops.empty()) {
    for (const auto& info : coll_table()) {
      if (info.by_default) o.ops.push_back(info);
    }
  }
  // mpiBench runs them in its own order, whatever the command line order.
  std::sort(o.ops.begin(), o.ops.end(), [](const CollInfo& a, const CollInfo& b) { return a.index < b.index; });
}

// Sizes, memory, -i and the time limit.
void CollCli::resolve_limits(CollOptions& o) const {
  o.begin_bytes = parse_size(o.begin_text, true);
  o.end_bytes = parse_size(o.end_text, true);
  o.memory_limit_bytes = parse_size(o.memory_limit_text);
  if (o.begin_bytes > o.end_bytes) throw UsageError(fmt::format("-b {} is above -e {}", o.begin_text, o.end_text));
  if (o.end_bytes > (1ull << 30)) throw UsageError("-e above 1G: MPI counts are ints");
  kMaxRepetitions.check(o.max_repetitions);
  if (!std::isfinite(time_limit_us_) || time_limit_us_ < 0 || time_limit_us_ > 3.6e9) {
    throw UsageError("-t must be from 0 to 3.6e9 microseconds (an hour)");
  }
  double limit_us = time_limit_us_;
  if (budget_option_->count() > 0) {
    if (time_option_->count() > 0) throw UsageError("give the time limit once: -t (microseconds) or --time-budget");
    check_seconds(time_budget_s_, "--time-budget", 3600);
    limit_us = time_budget_s_ * 1e6;
  }
  // -i alone means a fixed count; neither -i nor -t: mpiBench's default limit.
  const bool neither =
      max_repetitions_option_->count() == 0 && time_option_->count() == 0 && budget_option_->count() == 0;
  o.time_limit_s = (neither ? kDefaultTimeLimitUs : limit_us) * 1e-6;
  // Send and receive buffers of the smallest size for one rank already
  // above -m: nothing would be measured.
  if (2 * std::max<std::uint64_t>(o.begin_bytes, 1) > o.memory_limit_bytes) {
    throw UsageError(
        fmt::format("-m {} leaves no message size from -b {}: send and receive need 2 x size x ranks "
                    "bytes",
                    o.memory_limit_text, o.begin_text));
  }
}

}  // namespace movebench::net
