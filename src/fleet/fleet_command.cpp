// `movebench fleet`: per unit (host, or rank) memory bandwidth and latency,
// per pair of units p2p latency and bandwidth over a ring and random
// matchings, the bisection, and the outliers named (docs/fleet.md).
#include <fmt/format.h>

#include <cmath>

#include "core/errors.hpp"
#include "core/named_values.hpp"
#include "core/repetitions.hpp"
#include "core/sizes.hpp"
#include "core/summary.hpp"
#include "core/vocabulary.hpp"
#include "facts/input_file.hpp"
#include "fleet/fleet_run.hpp"
#include "judge/siblings.hpp"
#include "net/mpi_command.hpp"
#include "net/net_commands.hpp"

namespace movebench {
namespace {

using namespace fleet;

// The timed counts, each with its range and message (core/repetitions.hpp):
// the memory's rounds, the pairs' ping-pongs and their windows. The keys
// are the options' names; fleet's result has no settings that record them.
constexpr Repetitions kMemoryRounds{"--repetitions", "repetitions", 1000};
constexpr Repetitions kLatencyRepetitions{"--latency-iterations", "latency_iterations", 10'000'000};
constexpr Repetitions kBandwidthRepetitions{"--bandwidth-iterations", "bandwidth_iterations", 1'000'000};
constexpr int kMostRandomRounds = 1000;
constexpr double kMostOutlierK = 1000;
constexpr double kMostTimeBudget = 86400;

class FleetCommand : public net::MpiCommand {
 public:
  std::string name() const override { return "fleet"; }
  std::string summary() const override {
    return "Every node (or rank) of the job at once: memory, pairs, bisection; the slow nodes and links named";
  }
  std::vector<std::string> cases() const override { return {"fleet"}; }
  std::string suite_summary(const Report& report) const override {
    const auto& doc = report.document();
    const std::string outliers = doc.contains("outliers") ? fmt::format(" outliers {};", doc["outliers"].size()) : "";
    return SummaryLine(report, "fleet:").result("fleet.mem.triad.sum", "triad sum", {"MB/s"}).str() + outliers;
  }
  std::vector<std::vector<std::string>> suite_runs(std::string&) const override {
    return {{"--array-bytes", "4M", "--chase-bytes", "1M", "--repetitions", "3", "--message-bytes", "64K",
             "--latency-iterations", "100", "--bandwidth-iterations", "4", "--timeout", "60"}};
  }

 protected:
  void add_own_options(CLI::App& app) override {
    app.add_option("--per", per_text_, "What a unit is: host (ranks grouped by host name) or rank")
        ->capture_default_str();
    app.add_option("--array-bytes", array_text_, "Bytes per array of copy and triad")->capture_default_str();
    app.add_option("--chase-bytes", chase_text_, "Working set of the memory latency (pointer chase)")
        ->capture_default_str();
    app.add_option(vocabulary::names("", vocabulary::kRepetitions), opt_.repetitions,
                   vocabulary::help(vocabulary::kRepetitions, "rounds of copy and triad per unit (the best kept)"))
        ->capture_default_str();
    app.add_option("--message-bytes", message_text_, "Message of the pairs' bandwidth test")->capture_default_str();
    app.add_option("--latency-iterations", opt_.latency_iterations,
                   fmt::format("Ping-pongs ({} bytes) per pair", kPairLatencyBytes))
        ->capture_default_str();
    app.add_flag("-z,--percentiles,!--no-percentiles", opt_.percentiles,
                 "Time every ping-pong of a pair too (p2p's -z): each pair's P50, P90, P99, P99.9 and max in the "
                 "result, for `movebench-report fleet --stat p99`")
        ->capture_default_str();
    app.add_option("--bandwidth-iterations", opt_.bandwidth_iterations,
                   fmt::format("Windows of {} messages per pair", kPairWindow))
        ->capture_default_str();
    app.add_option(vocabulary::names(vocabulary::kTimeBudget), opt_.time_budget,
                   vocabulary::help(vocabulary::kTimeBudget,
                                    "the pairs' turns together (warm-up, rounds, bisection), shared evenly, each turn "
                                    "at most a quarter of --timeout: each repeat of a pair runs what fits its share "
                                    "(sized by a first short round, then by the repeat before), at most "
                                    "--latency-iterations and --bandwidth-iterations, and the result says how many "
                                    "(fleet.pairs[].latency_iterations ...)"))
        ->capture_default_str();
    app.add_option("--rounds", opt_.random_rounds, "Random pairing rounds after the ring's")->capture_default_str();
    app.add_option(vocabulary::names(vocabulary::kSeed), opt_.seed,
                   vocabulary::help(vocabulary::kSeed, "of the random pairings"))
        ->capture_default_str();
    app.add_option("--outlier-k", opt_.rule.k,
                   fmt::format("Outlier: worse than the median by more than k x MAD (x {})", judge::kMadToSigma))
        ->capture_default_str();
    app.add_option("--outlier-floor", floor_text_, "Outlier: and by more than this share of the median")
        ->capture_default_str();
    app.add_flag("--fail-on-outlier", opt_.fail_on_outlier,
                 "Exit 1 when an outlier is named (a suspect node or pair is measured again first: named only if slow "
                 "again)");
    app.add_flag("--skip-pairs", opt_.skip_pairs, "Memory only: no pairs, no bisection");
    app.add_flag("--node", opt_.node,
                 "Also each unit's node step, in turns as memory: movebench node's numa matrix and a sample of its "
                 "core matrix, bounded as in movebench run (docs/node.md); its headlines compared across units");
    app.add_option("--baseline", baseline_path_,
                   "Compare every unit and pair with an earlier fleet result (--json) or reference figures "
                   "({\"mem.triad\": MB/s, ...}; docs/fleet.md) and name what got slower");
    app.add_option("--baseline-threshold", baseline_threshold_text_,
                   "Slower than the baseline: by more than this and outside the noise of both (compare's rule)")
        ->capture_default_str();
    app.add_flag("--fail-on-regression", opt_.fail_on_regression, "Exit 1 when something got slower than --baseline");
  }

  void resolve() override {
    opt_.per = parse_named(kUnitKindNames, per_text_, "--per");
    opt_.mem_bytes = parse_size(array_text_);
    opt_.chase_bytes = parse_size(chase_text_);
    opt_.message_bytes = parse_size(message_text_);
    if (opt_.mem_bytes > (std::uint64_t{1} << 40) || opt_.chase_bytes > (std::uint64_t{1} << 40)) {
      throw UsageError("--array-bytes and --chase-bytes: at most 1T");
    }
    if (opt_.message_bytes > (1u << 30)) throw UsageError("--message-bytes above 1G: MPI counts are ints");
    kMemoryRounds.check(opt_.repetitions);
    kLatencyRepetitions.check(opt_.latency_iterations);
    kBandwidthRepetitions.check(opt_.bandwidth_iterations);
    check_range(opt_.random_rounds, "--rounds", 0, kMostRandomRounds);
    check_seconds(opt_.time_budget, "--time-budget", kMostTimeBudget);
    check_range(opt_.rule.k, "--outlier-k", 0.0, kMostOutlierK);
    opt_.rule.floor = parse_percent(floor_text_, "--outlier-floor");
    opt_.baseline_threshold = parse_percent(baseline_threshold_text_, "--baseline-threshold");
    if (opt_.fail_on_regression && baseline_path_.empty()) throw UsageError("--fail-on-regression needs --baseline");
    // Every rank reads it, so that a bad file is exit 2 everywhere before MPI starts.
    if (!baseline_path_.empty()) {
      opt_.baseline = parse_baseline(facts::read_text_input(baseline_path_, "--baseline"), baseline_path_, opt_.per);
    }
  }

  int run_mpi(Report& report, net::Watchdog& dog) override {
    opt_.corrupt_for_test = fail_ == net::FailMode::kCorrupt;
    const Named named = run_fleet(opt_, report, standard_output(), dog, step_timeout_, fail_);
    const bool failed =
        (opt_.fail_on_outlier && named.outliers > 0) || (opt_.fail_on_regression && named.regressions > 0);
    return failed ? kExitFailure : kExitOk;
  }

 private:
  // The texts start as FleetOptions' defaults, so that --help shows them.
  FleetOptions opt_;
  std::string per_text_ = unit_kind_name(opt_.per), array_text_ = size_text(opt_.mem_bytes),
              chase_text_ = size_text(opt_.chase_bytes), message_text_ = size_text(opt_.message_bytes),
              floor_text_ = percent_text(opt_.rule.floor);
  std::string baseline_path_, baseline_threshold_text_ = percent_text(opt_.baseline_threshold);
};

}  // namespace

std::unique_ptr<Command> make_fleet_command() { return std::make_unique<FleetCommand>(); }

}  // namespace movebench
