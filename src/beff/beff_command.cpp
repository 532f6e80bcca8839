// `movebench beff`: effective bandwidth with both definitions, labelled:
// Rabenseifner's (HPCC) and HPCC FPGA's, docs/beff.md.
#include <fmt/format.h>

#include <fstream>

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/mode_options.hpp"
#include "core/sizes.hpp"
#include "core/summary.hpp"
#include "core/vocabulary.hpp"
#include "beff/beff.hpp"
#include "core/repetitions.hpp"
#include "beff/beff_logic.hpp"
#include "net/mpi_command.hpp"
#include "net/net_commands.hpp"

namespace movebench {
namespace {

using namespace net;

// Both definitions keep every repetition's figure: bounded as kept samples
// are. -n is HPCC FPGA's own spelling, recorded under the same key.
constexpr Repetitions kRepetitions{"--repetitions", "repetitions"};
constexpr Repetitions kFpgaRepetitions{"-n", "repetitions"};

// What --time-budget bounds, and what the default run costs, measured
// (docs/beff.md has the commands and the machine).
constexpr const char* kTimeBudgetHelp =
    "of one timed loop, both definitions: hpcc's loop lengths aim at it (as HPCC's), fpga's are HPCC FPGA's "
    "schedule (-u -l -o -d) cut to what fills it (at least 1); 0: fpga's schedule uncut (HPCC FPGA's fixed loop "
    "lengths), hpcc at 0.005. The default run (2 ranks, both definitions) took 22 s on a 2-core VM at load 3 "
    "and 65 to 86 s at load 5 to 6, most of it hpcc's sizes near L_max (--max-bytes 8M: 12 s) (docs/beff.md; "
    "before the budget, 220 s at load 2 to 6, killed after 400 s at load 13)";

class BeffCommand : public MpiCommand {
 public:
  std::string name() const override { return "beff"; }
  std::string summary() const override {
    return "MPI effective bandwidth b_eff: HPCC (Rabenseifner) and HPCC FPGA definitions";
  }
  std::vector<std::string> cases() const override { return {"beff.hpcc", "beff.fpga"}; }

  std::string suite_summary(const Report& report) const override {
    return SummaryLine(report, "beff:")
        .result("beff.hpcc.b_eff", "b_eff (HPCC)", {"B/s"})
        .result("beff.fpga.b_eff", "b_eff (FPGA)", {"B/s"})
        .str();
  }

 protected:
  // HPCC FPGA b_eff's own options (fpga or both).
  void add_fpga_options(CLI::App& app, const std::vector<std::string>& fpga) {
    modes_.only(fpga, app.add_option("-u,--upper", fpga_.max_ll, "fpga: maximum number of repetitions per data size")
                          ->capture_default_str());
    modes_.only(fpga, app.add_option("-l,--lower", fpga_.min_ll, "fpga: minimum number of repetitions per data size")
                          ->capture_default_str());
    modes_.only(
        fpga, app.add_option("--min-bytes-log2,--min-size", fpga_.min_exp, "fpga: minimum message size, log2 of bytes")
                  ->capture_default_str());
    modes_.only(fpga, app.add_option("-m,--max-bytes-log2", fpga_.max_exp, "fpga: maximum message size, log2 of bytes")
                          ->capture_default_str());
    modes_.only(
        fpga,
        app.add_option("-o", fpga_.offset, "fpga: offset used before reducing repetitions")->capture_default_str());
    modes_.only(
        fpga, app.add_option("-d", fpga_.decrease, "fpga: number of steps the repetitions are decreased to its minimum")
                  ->capture_default_str());
    fpga_repetitions_option_ =
        modes_.only(fpga, app.add_option("-n", fpga_.repetitions,
                                         "fpga: number of repetitions, the best one counts (HPCC FPGA "
                                         "b_eff's -n; before --repetitions for fpga)")
                              ->capture_default_str());
  }

  void add_own_options(CLI::App& app) override {
    app.add_option("--definition", definition_, "hpcc, fpga or both")
        ->check(CLI::IsMember({"hpcc", "fpga", "both"}))
        ->capture_default_str();
    add_check_options(app, skip_validation_, check_every_,
                      "after the timed runs of a size, loop-length untimed exchanges, each with its own data, "
                      "checked (default: one untimed exchange per size and method)");
    // HPCC FPGA b_eff's options; each definition's own are refused with
    // the other alone (modes_), where they were silently ignored.
    const std::vector<std::string> fpga{"fpga", "both"}, hpcc{"hpcc", "both"};
    add_fpga_options(app, fpga);
    // Both definitions' count; HPCC FPGA's -n, when given too, stays the fpga one's.
    repetitions_option_ =
        app.add_option(vocabulary::names(vocabulary::kRepetitions), repetitions_,
                       vocabulary::help(vocabulary::kRepetitions,
                                        fmt::format("of every measurement of both definitions, the best one counts "
                                                    "(default: hpcc {}, fpga {} or -n)",
                                                    HpccOptions{}.repetitions, FpgaOptions{}.repetitions)));
    app.add_flag("--test", test_only_, "Only print the configuration (sizes, loop lengths) and exit");
    app.add_option("--dump-json", dump_json_, "fpga: also write the result document (as --json) to this file");
    app.add_option("-f,--file", kernel_file_,
                   "fpga: HPCC FPGA b_eff's kernel file, taken so that its command lines run, and ignored (a note "
                   "says so): movebench exchanges through MPI on the CPUs, HPCC FPGA's cpu_only communication");
    // Rabenseifner's (HPCC).
    modes_.only(hpcc,
                app.add_option(vocabulary::names("", vocabulary::kMaxBytes, "--max-size"), lmax_text_,
                               vocabulary::help(vocabulary::kMaxBytes,
                                                "hpcc: L_max (default: memory per process / 128, at most 128M)")));
    modes_.only(hpcc, app.add_option("--random-patterns", hpcc_.random_patterns,
                                     "hpcc: number of random ring patterns, 1 to 10000")
                          ->capture_default_str());
    modes_.only(hpcc, app.add_option("--loop-length", hpcc_.max_ll, "hpcc: loop length at the smallest size (and most)")
                          ->capture_default_str());
    app.add_option(vocabulary::names("", vocabulary::kTimeBudget, "--target-time"), time_budget_,
                   vocabulary::help(vocabulary::kTimeBudget, kTimeBudgetHelp))
        ->capture_default_str();
    // A range check before the conversion: CLI11 would take -1 as 2^64-1.
    modes_.only(hpcc, app.add_option(vocabulary::names(vocabulary::kSeed), hpcc_.seed,
                                     vocabulary::help(vocabulary::kSeed, "hpcc: of the random patterns"))
                          ->check(CLI::Range(0.0, 9007199254740992.0))
                          ->capture_default_str());
  }

  void resolve() override {
    modes_.check(definition_);
    if (check_every_ && skip_validation_) throw UsageError("-C and --skip-validation contradict each other");
    if (fpga_.max_exp > 30) throw UsageError(fmt::format("invalid -m '{}': at most 30 (1 GiB)", fpga_.max_exp));
    if (fpga_.min_exp > fpga_.max_exp) throw UsageError("--min-size is above -m");
    if (fpga_.min_ll > fpga_.max_ll) throw UsageError("-l is above -u");
    if (fpga_.min_ll < 1) throw UsageError("-l must be 1 or more");
    if (repetitions_option_->count() > 0) {
      kRepetitions.check(repetitions_);
      hpcc_.repetitions = repetitions_;
      if (fpga_repetitions_option_->count() == 0) fpga_.repetitions = repetitions_;
    }
    kFpgaRepetitions.check(fpga_.repetitions);
    if (fpga_.decrease < 1) throw UsageError("-d must be 1 or more");
    if (!lmax_text_.empty()) hpcc_.lmax = parse_size(lmax_text_);
    if (hpcc_.lmax > (1ull << 30)) throw UsageError("--max-size above 1G: MPI counts are ints");
    // Every pattern is built up front (each rank's neighbours) and keeps its
    // best figure per size: 2^31 of them was std::bad_alloc at the start (the
    // battery). HPCC's b_eff runs 30; ten thousand is far past any use.
    constexpr int kMaxRandomPatterns = 10000;
    if (hpcc_.random_patterns < 1 || hpcc_.random_patterns > kMaxRandomPatterns) {
      throw UsageError(fmt::format("--random-patterns must be 1 to {}", kMaxRandomPatterns));
    }
    if (hpcc_.max_ll < 1) throw UsageError("--loop-length must be 1 or more");
    // 0 is upstream's counts (fpga uncut; hpcc aims at its default).
    if (time_budget_ != 0) check_seconds(time_budget_, "--time-budget", 3600);
    fpga_.time_budget = time_budget_;
    hpcc_.target_s = time_budget_ > 0 ? time_budget_ : HpccOptions{}.target_s;
    if (!dump_json_.empty()) check_output_file(dump_json_, "result copy (--dump-json)");
  }

  std::vector<std::vector<std::string>> suite_runs(std::string&) const override {
    return {{"--max-bytes", "64K", "--random-patterns", "2", "--repetitions", "2", "--upper", "2000", "--lower", "50",
             "--max-bytes-log2", "16", "--timeout", "30"}};
  }

  int run_mpi(Report& report, Watchdog& dog) override {
    record_settings(report);
    if (test_only_) {
      print_configuration();
      return kExitOk;
    }
    if (!kernel_file_.empty() && is_root()) out_.kernel_ignored(kernel_file_);
    BeffContext ctx{report, dog, out_, step_timeout_, fail_, !skip_validation_, check_every_};
    if (skip_validation_) report.validation_skipped("--skip-validation", "received data");
    bool ok = true;
    if (definition_ != "fpga") ok = run_hpcc(hpcc_, ctx);
    if (ok && definition_ != "hpcc") run_fpga(fpga_, ctx);
    if (!dump(report)) {
      report.add_error("dump_json", "cannot write the result copy " + dump_json_);
      return kExitFailure;
    }
    return kExitOk;
  }

 private:
  void print_configuration() {
    if (!is_root()) return;
    out_.configuration(
        {world_size(), definition_, fpga_.time_budget,
         fpga_schedule(fpga_.min_exp, fpga_.max_exp, fpga_.max_ll, fpga_.min_ll, fpga_.offset, fpga_.decrease),
         hpcc_.lmax ? hpcc_sizes(hpcc_.lmax) : std::vector<std::uint64_t>{}});
  }

  // The copy of the result the FPGA variant's --dump-json asks for; a
  // failure to write it fails the run.
  bool dump(const Report& report) {
    if (dump_json_.empty() || !is_root()) return true;
    const std::string why = report.write_copy(dump_json_);
    if (why.empty()) return true;
    out_.copy_failed(dump_json_, why);
    return false;
  }

  void record_settings(Report& report) const {
    auto& s = report.settings("beff");
    s["definition"] = definition_;
    s["validation"] = skip_validation_ ? "none"
                      : check_every_   ? "every iteration (untimed pass)"
                                       : "once per size (untimed exchange)";
    s["fpga"] = {{"max_loop_length", fpga_.max_ll},        {"min_loop_length", fpga_.min_ll},
                 {"min_message_size_log2", fpga_.min_exp}, {"max_message_size_log2", fpga_.max_exp},
                 {"loop_length_offset", fpga_.offset},     {"loop_length_decrease", fpga_.decrease}};
    kFpgaRepetitions.record(s["fpga"], fpga_.repetitions);
    s["hpcc"] = {{"lmax_bytes", hpcc_.lmax},
                 {"random_patterns", hpcc_.random_patterns},
                 {"max_loop_length", hpcc_.max_ll},
                 {"target_time_s", hpcc_.target_s},
                 {"seed", hpcc_.seed}};
    kRepetitions.record(s["hpcc"], hpcc_.repetitions);
    s["time_budget_s"] = time_budget_;
    s["step_timeout_s"] = step_timeout_;
  }

  std::string definition_ = "both", lmax_text_, dump_json_, kernel_file_;
  bool skip_validation_ = false, test_only_ = false, check_every_ = false;
  int repetitions_ = 0;                          // both definitions' when given
  double time_budget_ = HpccOptions{}.target_s;  // both definitions': seconds of one timed loop
  CLI::Option* repetitions_option_ = nullptr;
  CLI::Option* fpga_repetitions_option_ = nullptr;
  FpgaOptions fpga_;
  HpccOptions hpcc_;
  ModeOptions modes_{"beff --definition"};  // each definition's own options
  BeffWriter out_{standard_output()};
};

}  // namespace

std::unique_ptr<Command> make_beff_command() { return std::make_unique<BeffCommand>(); }

}  // namespace movebench
