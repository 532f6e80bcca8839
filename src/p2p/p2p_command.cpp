// `movebench p2p`: ping-pong latency, bandwidth and bidirectional bandwidth
// between two chosen ranks, timed as OSU Micro-Benchmarks time them and
// printed in their table style.
#include <fmt/format.h>

#include <algorithm>

#include "core/buffer.hpp"
#include "core/distribution.hpp"
#include "core/errors.hpp"
#include "core/repetitions.hpp"
#include "core/sizes.hpp"
#include "core/summary.hpp"
#include "core/vocabulary.hpp"
#include "net/mpi_command.hpp"
#include "net/net_commands.hpp"
#include "p2p/p2p.hpp"
#include "p2p/p2p_logic.hpp"
#include "p2p/p2p_output.hpp"

namespace movebench {
namespace {

using namespace net;

// --percentiles' default: off, as OSU's -z: one clock read per iteration costs
// about a fifth of a shared-memory ping-pong's best (docs/performance.md, "p2p --percentiles").
constexpr bool kPercentilesByDefault = false;
constexpr const char* kIterationEvent = "iteration (half its round trip, as OSU -z)";

// 0 (not given) is OSU's own count per size; a given -i is 1 or more. A
// timed loop that keeps no sample per iteration: no upper bound.
constexpr Repetitions kOsuRepetitions{"-i", "iterations", Repetitions::kUnbounded};

struct TestInfo {
  P2pTest test;
  const char* key;    // record operation, --tests name
  const char* title;  // table title
};
constexpr TestInfo kTests[] = {
    {P2pTest::kLatency, "latency", "Latency Test"},
    {P2pTest::kBw, "bw", "Bandwidth Test"},
    {P2pTest::kBibw, "bibw", "Bi-Directional Bandwidth Test"},
};

// "A,B": two different ranks.
P2pPair parse_pair(const std::string& text) {
  const auto bad = [&] { return UsageError(fmt::format("invalid --ranks '{}': two different ranks, e.g. 0,1", text)); };
  std::vector<std::uint64_t> ranks;
  try {
    ranks = parse_list(text, "--ranks", [](std::string_view item) { return parse_whole_number(item, "rank"); });
  } catch (const UsageError&) {
    throw bad();
  }
  if (ranks.size() != 2 || ranks[0] == ranks[1] || std::max(ranks[0], ranks[1]) > (1u << 30)) throw bad();
  return {static_cast<int>(ranks[0]), static_cast<int>(ranks[1])};
}

class P2pCommand : public MpiCommand {
 public:
  std::string name() const override { return "p2p"; }
  std::string summary() const override {
    return "MPI point to point between two ranks: latency, bandwidth, bidirectional bandwidth (OSU style)";
  }
  std::vector<std::string> cases() const override { return {"p2p.latency", "p2p.bw", "p2p.bibw"}; }

  std::string suite_summary(const Report& report) const override {
    return SummaryLine(report, "p2p:")
        .result("p2p.latency", "latency", {"us"})
        .result("p2p.bw", "bandwidth", {"MB/s"})
        .str();
  }

 protected:
  void add_own_options(CLI::App& app) override {
    app.add_option("--tests", tests_text_, "Tests, comma-separated: latency, bw, bibw")->capture_default_str();
    app.add_option(vocabulary::names("-m", vocabulary::kSizesBytes, "--sizes,--message-size"), sizes_text_,
                   vocabulary::help(vocabulary::kSizesBytes,
                                    "message sizes, e.g. 1:4M or 8,1K,64K; OSU's MIN: means MIN up to 4M"))
        ->capture_default_str();
    app.add_option("--ranks", ranks_text_, "The two ranks, A,B (A times, as OSU's rank 0)")->capture_default_str();
    repetitions_option_ = app.add_option(
        vocabulary::names("-i", vocabulary::kRepetitions, "--iterations"), repetitions_,
        vocabulary::help(
            vocabulary::kRepetitions,
            "iterations per size (OSU's -i; default OSU's: latency 10000, 1000 above 8 KiB; bw 100, 20 above)"));
    warmup_option_ = app.add_option("-x,--warmup", warmup_, "Untimed iterations first (default: OSU's)");
    app.add_flag("-z,--percentiles,!--no-percentiles", percentiles_,
                 "latency: time every iteration too (OSU's -z) and add its P50, P90, P99, P99.9 and max "
                 "(a clock read per iteration; docs/performance.md)")
        ->capture_default_str();
    window_option_ = app.add_option("-W,--window,--window-size", window_, "Messages in flight for bw and bibw")
                         ->capture_default_str();
    add_check_options(app, skip_validation_, check_every_,
                      "after the timed loop, as many untimed rounds as timed ones, each with its own data, "
                      "checked (default: one untimed round per size)");
  }

  void resolve() override {
    if (check_every_ && skip_validation_) throw UsageError("-C and --skip-validation contradict each other");
    tests_ = parse_list(tests_text_, "test", [](std::string_view item) {
      const auto* t =
          std::find_if(std::begin(kTests), std::end(kTests), [&](const TestInfo& i) { return item == i.key; });
      if (t == std::end(kTests)) throw UsageError(fmt::format("unknown test '{}' (latency, bw, bibw)", item));
      return *t;
    });
    // OSU's "-m MIN:" (MIN up to its default largest size).
    sizes_ = parse_size_list(sizes_text_.ends_with(':') ? sizes_text_ + kOsuLargest : sizes_text_);
    if (sizes_.empty()) throw UsageError("no message sizes");
    if (*std::max_element(sizes_.begin(), sizes_.end()) > (1ull << 30))
      throw UsageError("sizes above 1G: MPI counts are ints");
    pair_ = parse_pair(ranks_text_);
    if (warmup_ < -1 || window_ < 1) throw UsageError("warm-up and window must be positive");
    // One request pair per message in flight (OSU sizes its request arrays by
    // MAX_REQ_NUM, 1000); 2^31 - 1 once ended in std::bad_alloc.
    if (window_ > kMaxWindow) throw UsageError(fmt::format("invalid --window '{}': at most {}", window_, kMaxWindow));
    // Refused rather than ignored: the latency test has one message in flight.
    if (window_option_->count() > 0 &&
        std::all_of(tests_.begin(), tests_.end(), [](const TestInfo& t) { return t.test == P2pTest::kLatency; })) {
      throw UsageError("--window applies to the bw and bibw tests, not to --tests latency");
    }
    // -1 stands for OSU's default only when -x is not given.
    if (warmup_option_->count() > 0 && warmup_ < 0) {
      throw UsageError(fmt::format("invalid -x '{}': 0 or more untimed iterations", warmup_));
    }
    // 0 stands for OSU's default only when -i is not given: -i 0 would time nothing.
    if (repetitions_option_->count() > 0) kOsuRepetitions.check(repetitions_);
  }

  std::vector<std::vector<std::string>> suite_runs(std::string&) const override {
    return {{"--sizes-bytes", "1,8,1K,64K,1M", "--repetitions", "50", "--timeout", "30"}};
  }

  int run_mpi(Report& report, Watchdog& dog) override {
    if (std::max(pair_.a, pair_.b) >= world_size()) {
      throw UsageError(fmt::format("--ranks {},{} needs at least {} ranks, this job has {}", pair_.a, pair_.b,
                                   std::max(pair_.a, pair_.b) + 1, world_size()));
    }
    record_settings(report);
    if (skip_validation_) report.validation_skipped("--skip-validation", "received data");
    const auto top = std::max<std::uint64_t>(*std::max_element(sizes_.begin(), sizes_.end()), 4);
    HostBuffer send = written_buffer(top, 64), recv = written_buffer(top, 64);
    report.progress().begin("p2p", tests_.size() * sizes_.size());
    for (const auto& t : tests_) {
      if (!run_test(report, dog, t, send.as<std::byte>(), recv.as<std::byte>())) break;
    }
    return kExitOk;
  }

 private:
  bool run_test(Report& report, Watchdog& dog, const TestInfo& t, std::byte* send, std::byte* recv) {
    const bool tails = percentiles_ && t.test == P2pTest::kLatency;
    if (is_root()) out_.heading(t.title, pair_.a, pair_.b, t.test == P2pTest::kLatency, tails);
    for (auto bytes : sizes_) {
      const char* kind = t.test == P2pTest::kLatency ? "latency" : "bw";
      const int iters = repetitions_ > 0 ? repetitions_ : osu_iterations(kind, bytes);
      const int warmup = warmup_ >= 0 ? warmup_ : osu_warmup(kind, bytes);
      double seconds = 0;
      std::vector<double> per_iteration;
      std::string error;
      report.progress().step(fmt::format("{} {}", t.key, format_bytes(static_cast<double>(bytes))));
      {
        WatchedStep step(dog, step_timeout_,
                         fmt::format("{} {} B between ranks {} and {}", t.key, bytes, pair_.a, pair_.b));
        maybe_fail(fail_);
        seconds =
            p2p_seconds(t.test, pair_, send, recv, bytes, iters, warmup, window_, tails ? &per_iteration : nullptr);
        if (!skip_validation_) {
          error = p2p_check(t.test, pair_, send, recv, bytes, check_every_ ? iters : 1, fail_ == FailMode::kCorrupt);
        }
      }
      report.progress().clear();  // the rows below are flushed at once
      // Rank a measured; rank 0 reports.
      const auto all = gather_to_root(seconds);
      if (tails) per_iteration = values_to_root(std::move(per_iteration), pair_.a);
      if (is_root())
        publish(report, t, bytes, iters, all[static_cast<std::size_t>(pair_.a)], tails ? &per_iteration : nullptr);
      if (!settle_step(report, "p2p", fmt::format("{} {} B", t.key, bytes), error, !skip_validation_)) return false;
    }
    if (tails && is_root()) out_.tails_note(kIterationEvent);
    return true;
  }

  // `per_iteration`: the latency's iterations, one-way (--percentiles).
  void publish(Report& report, const TestInfo& t, std::uint64_t bytes, int iters, double seconds,
               const std::vector<double>* per_iteration) {
    const bool lat = t.test == P2pTest::kLatency;
    const int directions = t.test == P2pTest::kBibw ? 2 : 1;
    const double value =
        lat ? pingpong_latency_us(seconds, iters) : window_bandwidth_mbs(bytes, iters, window_, directions, seconds);
    Distribution iterations(kIterationEvent);
    if (per_iteration != nullptr) iterations.add(*per_iteration);
    out_.row(bytes, value, per_iteration != nullptr ? &iterations : nullptr);
    Record r{"p2p", t.key, bytes, {{"iters", iters}, {"ranks", {pair_.a, pair_.b}}}, {seconds}, {}};
    // OSU's figures: the mean over the iterations (all bytes over all time
    // for the bandwidths; both directions' bytes for bibw). Printed in us,
    // as OSU prints them; recorded in ns.
    if (lat) {
      r.figures.push_back(Figure::latency("latency", value * 1e-6, Stat::kMean));
    } else {
      r.params["window"] = window_;
      r.figures.push_back(
          Figure::bandwidth("bandwidth", value * 1e6, Stat::kMean, Of::kTime, application_bytes(directions)));
    }
    // Headlines: latency at the smallest size, bandwidth at the largest.
    if (lat && bytes == sizes_.front()) report.set_result(r.figures.front().named("p2p.latency"));
    if (!lat && bytes == sizes_.back()) report.set_result(r.figures.front().named(fmt::format("p2p.{}", t.key)));
    if (per_iteration == nullptr) {
      report.add(std::move(r));
      return;
    }
    for (auto& f : iterations.figures("latency")) r.figures.push_back(std::move(f));
    report.add(std::move(r), iterations);
  }

  void record_settings(Report& report) const {
    auto& s = report.settings("p2p");
    nlohmann::json names = nlohmann::json::array();
    for (const auto& t : tests_) names.push_back(t.key);
    s["tests"] = names;
    s["sizes"] = sizes_;
    s["ranks"] = {pair_.a, pair_.b};
    kOsuRepetitions.record(s, repetitions_ > 0
                                  ? nlohmann::json(repetitions_)
                                  : nlohmann::json("OSU defaults: latency 10000 (1000 above 8 KiB), bw 100 (20)"));
    s["warmup"] = warmup_ >= 0 ? nlohmann::json(warmup_) : nlohmann::json("OSU defaults");
    s["window"] = window_;
    s["validation"] = skip_validation_ ? "none"
                      : check_every_   ? "every iteration (untimed pass)"
                                       : "once per size (untimed round)";
    s["step_timeout_s"] = step_timeout_;
    s["percentiles"] = percentiles_;
  }

  static constexpr const char* kOsuLargest = "4M";
  std::string tests_text_ = "latency,bw,bibw", sizes_text_ = std::string("1:") + kOsuLargest, ranks_text_ = "0,1";
  std::vector<TestInfo> tests_;
  std::vector<std::uint64_t> sizes_;
  P2pPair pair_;
  static constexpr int kMaxWindow = 65536;
  int repetitions_ = 0, warmup_ = -1, window_ = kOsuWindow;
  CLI::Option* window_option_ = nullptr;
  CLI::Option* warmup_option_ = nullptr;
  CLI::Option* repetitions_option_ = nullptr;
  bool skip_validation_ = false, check_every_ = false;
  bool percentiles_ = kPercentilesByDefault;
  P2pWriter out_{standard_output()};
};

}  // namespace

std::unique_ptr<Command> make_p2p_command() { return std::make_unique<P2pCommand>(); }

}  // namespace movebench
