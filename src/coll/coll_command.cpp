// `movebench coll`: everything mpiBench does, with its exact output lines,
// plus checks that are right for the data type, JSON with algorithm and
// bus bandwidth, and a watchdog. docs/coll.md has the definitions. The
// command runs the steps; its options are CollCli's (coll_cli.cpp), the
// timing, checks, communicators and records coll_measure.hpp's, the text
// CollWriter's (coll_output.cpp).
#include <fmt/format.h>

#include <algorithm>

#include "coll/coll_measure.hpp"
#include "core/errors.hpp"
#include "core/sizes.hpp"
#include "core/summary.hpp"
#include "net/mpi_command.hpp"
#include "net/net_commands.hpp"

namespace movebench {
namespace {

using namespace net;

class CollCommand : public MpiCommand {
 public:
  std::string name() const override { return "coll"; }
  std::string summary() const override { return "MPI collectives, mpiBench style (Barrier ... Reduce_scatter)"; }
  std::vector<std::string> cases() const override {
    std::vector<std::string> out;
    for (const auto& info : coll_table()) out.push_back("coll." + coll_key(info));
    return out;
  }

  std::string suite_summary(const Report& report) const override {
    return SummaryLine(report, "coll (avg at the largest size):")
        .results("coll.", ".avg", [](std::string_view op) { return std::string(op); }, {"us", 2})
        .str();
  }

 protected:
  void add_own_options(CLI::App& app) override {
    cli_.add_options(app, opt_, [this](CLI::App& a) {
      add_check_options(a, opt_.skip_validation, opt_.check_every,
                        "check the received data after every iteration (an untimed second pass)");
    });
  }

  void resolve() override { cli_.resolve(opt_); }

  std::vector<std::vector<std::string>> suite_runs(std::string&) const override {
    return {{"--min-bytes", "8", "--max-bytes", "64K", "--time-budget", "0.02", "--timeout", "30", "Barrier", "Bcast",
             "Alltoall", "Allreduce"}};
  }

  int run_mpi(Report& report, Watchdog& dog) override {
    const int n = world_size();
    stop_fit_ = fit_stop_to_memory(opt_.end_bytes, n, opt_.memory_limit_bytes);
    if (opt_.end_bytes > 0 && stop_fit_ < std::max<std::uint64_t>(opt_.begin_bytes, 1)) {
      throw UsageError(
          fmt::format("-m {} leaves no message size from -b {} for {} ranks: send and receive need "
                      "2 x size x ranks bytes",
                      opt_.memory_limit_text, opt_.begin_text, n));
    }
    const std::size_t capacity = std::max<std::size_t>(stop_fit_ * static_cast<std::size_t>(n), 8u * n);
    buffers_.send = written_buffer(capacity, 64);
    buffers_.recv = written_buffer(capacity, 64);
    record_coll_settings(report, opt_, stop_fit_, step_timeout_);
    if (!opt_.checking()) report.validation_skipped(opt_.skip_option(), "received data");
    if (is_root()) out_.start(report.document()["mpi"]["hosts"].get<std::vector<std::string>>());
    auto comms = make_comms(opt_);
    std::size_t steps = 0;
    for (const auto& op : opt_.ops) steps += sizes_for(op).size();
    report.progress().begin("coll", steps * comms.size());
    for (const auto& comm : comms) {
      for (const auto& op : opt_.ops) {
        if (!run_op(report, dog, comm, op)) break;
      }
      if (stopped_) break;
    }
    free_comms(comms);
    if (is_root() && opt_.percentiles) out_.tails_note(opt_.per_call, !opt_.no_barrier);
    if (is_root()) out_.end(2 * stop_fit_ * static_cast<std::uint64_t>(n));
    return kExitOk;
  }

 private:
  // Sizes of one operation: Barrier once at 0 bytes; reductions from 8 bytes.
  std::vector<std::uint64_t> sizes_for(const CollInfo& op) const {
    if (!op.sized) return {0};
    auto sizes = coll_sizes(opt_.begin_bytes, stop_fit_);
    if (op.reduction) std::erase_if(sizes, [](std::uint64_t s) { return s < sizeof(double); });
    return sizes;
  }

  // False when the run must stop (a failed check, an interrupt).
  bool run_op(Report& report, Watchdog& dog, const CommEntry& comm, const CollInfo& op) {
    for (auto bytes : sizes_for(op)) {
      CollCase c = make_case(op, comm.comm, bytes, buffers_.send.as<std::byte>(), buffers_.recv.as<std::byte>());
      StepTiming t;
      report.progress().step(fmt::format("{} {}", op.name, format_bytes(static_cast<double>(bytes))));
      {
        WatchedStep step(dog, step_timeout_, fmt::format("{} {} B on {}", op.name, bytes, comm.name));
        maybe_fail(fail_);
        t = measure_step(c, opt_, buffers_, fail_);
      }
      report.progress().clear();  // the rows below are flushed at once
      record_coll_step(report, out_, opt_, comm, op, c, t);
      if (!settle_step(report, "coll", fmt::format("{} {} B on {}", op.name, bytes, comm.name), t.check_error,
                       opt_.checking())) {
        stopped_ = true;
        return false;
      }
    }
    return true;
  }

  CollCli cli_;
  CollOptions opt_;
  std::uint64_t stop_fit_ = 0;  // -e, or less where -m leaves less for this many ranks
  bool stopped_ = false;
  CollBuffers buffers_;
  CollWriter out_{standard_output()};
};

}  // namespace

std::unique_ptr<Command> make_coll_command() { return std::make_unique<CollCommand>(); }

}  // namespace movebench
