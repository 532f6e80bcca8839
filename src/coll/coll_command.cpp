// `movebench coll`: everything mpiBench does, with its exact output lines,
// plus checks that are right for the data type, JSON with algorithm and
// bus bandwidth, and a watchdog. docs/coll.md has the definitions.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/buffer.hpp"
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/repetitions.hpp"
#include "core/sizes.hpp"
#include "core/summary.hpp"
#include "core/vocabulary.hpp"
#include "core/stats.hpp"
#include "coll/coll_ops.hpp"
#include "coll/coll_output.hpp"
#include "net/mpi_command.hpp"
#include "net/net_commands.hpp"

namespace movebench {
namespace {

using namespace net;

constexpr int kEstimateIters = 5;             // mpiBench's ITRS_EST
constexpr double kDefaultTimeLimitUs = 50000;  // mpiBench's limit when neither -i nor -t is given
// -i is an upper bound on a timed loop that keeps no sample per call.
constexpr Repetitions kMaxRepetitions{"-i", "max_iterations", Repetitions::kUnbounded};

struct CommEntry {
  MPI_Comm comm;
  std::string name;  // mpiBench's: MPI_COMM_WORLD, CartDim-1of2, PartSize-4
};

// What one rank measured for one step.
struct StepTiming {
  double seconds_per_call = 0;
  int iters = 0;
  std::string check_error;  // empty: fine or not checked
};

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
    app.add_option("operations", op_names_, "Operations by name (default: mpiBench's eleven; Reduce_scatter only by name)");
    app.add_option(vocabulary::names("-b", vocabulary::kMinBytes), start_text_,
                   vocabulary::help(vocabulary::kMinBytes, "the beginning message size (mpiBench's -b), K/M/G suffixes"))
        ->capture_default_str();
    app.add_option(vocabulary::names("-e", vocabulary::kMaxBytes), stop_text_,
                   vocabulary::help(vocabulary::kMaxBytes, "the ending message size (mpiBench's -e)"))
        ->capture_default_str();
    max_repetitions_option_ = app.add_option(vocabulary::names("-i", vocabulary::kRepetitions), max_repetitions_,
                                vocabulary::help(vocabulary::kRepetitions,
                                                 "the most iterations of a single test (mpiBench's -i; fewer when the "
                                                 "time limit ends the test first)"))
                     ->capture_default_str();
    app.add_option("-m,--memory-limit-bytes", mem_text_,
                   "Process memory buffer limit (send+recv) in bytes (mpiBench's -m)")->capture_default_str();
    time_opt_ = app.add_option("-t", time_limit_us_,
                   "Time limit for any single test in microseconds (mpiBench's -t; 0 = none; 50000 when none of -i, "
                   "-t and --time-budget is given)");
    budget_opt_ = app.add_option(vocabulary::names(vocabulary::kTimeBudget), time_budget_s_,
                                 vocabulary::help(vocabulary::kTimeBudget, "a single test's limit (-t in seconds)"));
    app.add_option("-d", ndims_, "Number of Cartesian dimensions to split processes in (0 = MPI_COMM_WORLD only)")
        ->capture_default_str();
    app.add_option("-p", part_size_, "Minimum partition size: halve MPI_COMM_WORLD down to it (0 = none)")
        ->capture_default_str();
    app.add_flag("-c", check_once_, "Check the received data once per test (the default; see --skip-validation)");
    add_check_options(app, skip_validation_, check_every_,
                      "check the received data after every iteration (an untimed second pass)");
    app.add_flag("--no-check", no_check_, "The older name of --skip-validation (recorded under this name)")
        ->group("Older names (still taken)");
    app.add_flag("--no-barrier", no_barrier_, "No barrier between consecutive calls (mpiBench's `make nobar`)");
    app.add_flag("--per-call", per_call_,
                 "Time each call alone, the barrier between calls outside the timer (OSU's procedure)");
  }

  void resolve() override {
    if (per_call_ && no_barrier_) throw UsageError("--per-call keeps a barrier between calls: not with --no-barrier");
    for (const auto& n : op_names_) {
      auto info = coll_by_name(n);
      if (!info) throw UsageError(fmt::format("unknown operation '{}' ({})", n, coll_names()));
      if (std::none_of(ops_.begin(), ops_.end(), [&](const CollInfo& o) { return o.index == info->index; })) {
        ops_.push_back(*info);
      }
    }
    // The default is mpiBench's own set, so that crunch_mpiBench reads the
    // output as it reads mpiBench's; Reduce_scatter (unknown to it) by name.
    if (ops_.empty()) {
      for (const auto& info : coll_table()) {
        if (info.by_default) ops_.push_back(info);
      }
    }
    // mpiBench runs them in its own order, whatever the command line order.
    std::sort(ops_.begin(), ops_.end(), [](const CollInfo& a, const CollInfo& b) { return a.index < b.index; });
    start_ = parse_size(start_text_, true);
    stop_ = parse_size(stop_text_, true);
    mem_limit_ = parse_size(mem_text_);
    if (start_ > stop_) throw UsageError(fmt::format("-b {} is above -e {}", start_text_, stop_text_));
    if (stop_ > (1ull << 30)) throw UsageError("-e above 1G: MPI counts are ints");
    kMaxRepetitions.check(max_repetitions_);
    if (!std::isfinite(time_limit_us_) || time_limit_us_ < 0 || time_limit_us_ > 3.6e9) {
      throw UsageError("-t must be from 0 to 3.6e9 microseconds (an hour)");
    }
    if (budget_opt_->count() > 0) {
      if (time_opt_->count() > 0) throw UsageError("give the time limit once: -t (microseconds) or --time-budget");
      check_seconds(time_budget_s_, "--time-budget", 3600);
      time_limit_us_ = time_budget_s_ * 1e6;
    }
    // Send and receive buffers of the smallest size for one rank already
    // above -m: nothing would be measured.
    if (2 * std::max<std::uint64_t>(start_, 1) > mem_limit_) {
      throw UsageError(fmt::format("-m {} leaves no message size from -b {}: send and receive need 2 x size x ranks "
                                   "bytes", mem_text_, start_text_));
    }
    if (ndims_ < 0 || ndims_ > 8) throw UsageError(fmt::format("invalid -d '{}': 0 to 8", ndims_));
    if (part_size_ < 0) throw UsageError("-p must not be negative");
    if (skip_validation_ && no_check_) throw UsageError("give --skip-validation once (--no-check is its older name)");
    if (check_every_ && !checking()) throw UsageError(fmt::format("-C and {} contradict each other", skip_option()));
  }

  std::vector<std::vector<std::string>> suite_runs(std::string&) const override {
    return {{"--min-bytes", "8", "--max-bytes", "64K", "--time-budget", "0.02", "--timeout", "30",
            "Barrier", "Bcast", "Alltoall", "Allreduce"}};
  }

  int run_mpi(Report& report, Watchdog& dog) override {
    const int n = world_size();
    // -i alone means a fixed count; neither -i nor -t: mpiBench's default limit.
    const bool neither = max_repetitions_option_->count() == 0 && time_opt_->count() == 0 && budget_opt_->count() == 0;
    time_limit_s_ = (neither ? kDefaultTimeLimitUs : time_limit_us_) * 1e-6;
    stop_fit_ = fit_stop_to_memory(stop_, n, mem_limit_);
    if (stop_ > 0 && stop_fit_ < std::max<std::uint64_t>(start_, 1)) {
      throw UsageError(fmt::format("-m {} leaves no message size from -b {} for {} ranks: send and receive need "
                                   "2 x size x ranks bytes", mem_text_, start_text_, n));
    }
    const std::size_t capacity = std::max<std::size_t>(stop_fit_ * static_cast<std::size_t>(n), 8u * n);
    send_ = written_buffer(capacity, 64);
    recv_ = written_buffer(capacity, 64);
    record_settings(report);
    if (!checking()) report.validation_skipped(skip_option(), "received data");
    print_header(report);
    auto comms = make_comms();
    std::size_t steps = 0;
    for (const auto& op : ops_) steps += sizes_for(op).size();
    report.progress().begin("coll", steps * comms.size());
    for (const auto& comm : comms) {
      for (const auto& op : ops_) {
        if (!run_op(report, dog, comm, op)) break;
      }
      if (stopped_) break;
    }
    free_comms(comms);
    if (is_root()) out_.end(2 * stop_fit_ * static_cast<std::uint64_t>(n));
    return kExitOk;
  }

 private:
  // Sizes of one operation: Barrier once at 0 bytes; reductions from 8 bytes.
  std::vector<std::uint64_t> sizes_for(const CollInfo& op) const {
    if (!op.sized) return {0};
    auto sizes = coll_sizes(start_, stop_fit_);
    if (op.reduction) std::erase_if(sizes, [](std::uint64_t s) { return s < sizeof(double); });
    return sizes;
  }

  // False when the run must stop (a failed check, an interrupt).
  bool run_op(Report& report, Watchdog& dog, const CommEntry& comm, const CollInfo& op) {
    for (auto bytes : sizes_for(op)) {
      CollCase c = make_case(op, comm.comm, bytes, send_.as<std::byte>(), recv_.as<std::byte>());
      StepTiming t;
      report.progress().step(fmt::format("{} {}", op.name, format_bytes(static_cast<double>(bytes))));
      {
        WatchedStep step(dog, step_timeout_, fmt::format("{} {} B on {}", op.name, bytes, comm.name));
        maybe_fail(fail_);
        t = measure(c);
      }
      report.progress().clear();  // the rows below are flushed at once
      publish(report, comm, op, c, t);
      if (!settle_step(report, "coll", fmt::format("{} {} B on {}", op.name, bytes, comm.name), t.check_error,
                       checking())) {
        stopped_ = true;
        return false;
      }
    }
    return true;
  }

  bool checking() const { return !no_check_ && !skip_validation_; }
  // The name the skip was asked for by, for the record.
  const char* skip_option() const { return no_check_ ? "--no-check" : "--skip-validation"; }

  // mpiBench's get_time: prime, estimate, fit the iterations, time; then
  // the checks, outside the timed loop.
  StepTiming measure(const CollCase& c) {
    const std::size_t elements = send_.size() / c.elem;
    fill_send(c, elements, 0);
    std::memset(c.recv, 0, recv_.size());
    time_loop(c, 1);
    const double estimate = time_loop(c, kEstimateIters);
    int iters = fit_iterations(estimate, time_limit_s_, max_repetitions_, kEstimateIters);
    // Rank 0's count for everyone, as mpiBench.
    MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
    StepTiming t;
    t.iters = iters;
    t.seconds_per_call = iters > kEstimateIters ? time_loop(c, iters) : estimate;
    if (checking()) t.check_error = check(c, check_every_ ? iters : 1);
    return t;
  }

  // The timed loop: the collective (and the barrier unless --no-barrier),
  // nothing else. Seconds per call on this rank. With --per-call, OSU's
  // procedure: each call timed alone, the barrier outside the timer.
  double time_loop(const CollCase& c, int iters) const {
    MPI_Barrier(MPI_COMM_WORLD);
    if (per_call_) {
      double total = 0;
      for (int i = 0; i < iters; ++i) {
        const double t0 = now_seconds();
        call_collective(c);
        total += now_seconds() - t0;
        MPI_Barrier(c.comm);
      }
      return total / iters;
    }
    const double t0 = now_seconds();
    if (no_barrier_) {
      for (int i = 0; i < iters; ++i) call_collective(c);
    } else {
      for (int i = 0; i < iters; ++i) {
        call_collective(c);
        MPI_Barrier(c.comm);
      }
    }
    return (now_seconds() - t0) / iters;
  }

  // Untimed: `passes` calls, each with send data of its own (rank,
  // operation, iteration) into a cleared buffer, and then checked.
  std::string check(const CollCase& c, int passes) const {
    // No collective reads more than a block per rank from the send buffer.
    const std::size_t elements = std::min(send_.size() / c.elem, static_cast<std::size_t>(c.count) * c.nranks);
    std::string error;
    for (int i = 0; i < passes; ++i) {
      const auto iteration = static_cast<std::uint64_t>(i) + 1;
      fill_send(c, elements, iteration);
      std::memset(c.recv, 0, recv_.size());
      call_collective(c);
      MPI_Barrier(c.comm);
      if (fail_ == FailMode::kCorrupt && world_rank() == world_size() - 1) c.recv[0] ^= std::byte{1};
      // Every rank makes every call, whatever it found (else the others wait for ever).
      if (error.empty()) error = check_received(c, iteration);
    }
    return error;
  }

  void publish(Report& report, const CommEntry& comm, const CollInfo& op, const CollCase& c, const StepTiming& t) {
    const auto per_rank = gather_to_root(t.seconds_per_call);
    if (!is_root()) return;
    const auto s = summarize(per_rank);
    out_.step({op.name, c.bytes, t.iters, s, comm.name, c.nranks});
    Record r{"coll", coll_key(op), c.bytes, {}, per_rank, {}};
    r.params = {{"iters", t.iters}, {"comm", comm.name}, {"ranks", c.nranks}, {"barrier", !no_barrier_},
                {"timing", per_call_ ? "per-call" : "loop"},
                {"datatype", op.reduction ? "MPI_DOUBLE" : "MPI_BYTE"}, {"count", c.count}};
    // mpiBench's avg, min and max over the ranks' times per call.
    r.figures = {Figure::latency("avg", s.mean, Stat::kMean), Figure::latency("min", s.min, Stat::kMin),
                 Figure::latency("max", s.max, Stat::kMax)};
    const bool headline = comm.comm == MPI_COMM_WORLD;
    if (headline) report.set_result(r.figures.front().named(fmt::format("coll.{}.avg", coll_key(op))));
    if (op.sized && s.max > 0) {
      // The call is done when the slowest rank is: bandwidths use the max.
      const double algbw = op.moved_bytes(c.bytes, c.nranks) / s.max;
      const double factor = op.bus_factor(c.nranks);
      const Figure busbw =
          Figure::bandwidth("busbw", algbw * factor, Stat::kMax, Of::kTime, bus_bytes(factor), Scale::kGiga);
      r.figures.push_back(Figure::bandwidth("algbw", algbw, Stat::kMax, Of::kTime, algorithm_bytes(), Scale::kGiga));
      r.figures.push_back(busbw);
      if (headline) report.set_result(busbw.named(fmt::format("coll.{}.busbw", coll_key(op))));
    }
    report.add(std::move(r));
  }

  std::vector<CommEntry> make_comms() const {
    std::vector<CommEntry> comms{{MPI_COMM_WORLD, "MPI_COMM_WORLD"}};
    add_cartesian(comms);
    add_partitions(comms);
    return comms;
  }

  // mpiBench's -d: a Cartesian grid of ndims, one 1-D communicator per dimension.
  void add_cartesian(std::vector<CommEntry>& comms) const {
    if (ndims_ == 0) return;
    std::vector<int> dims(static_cast<std::size_t>(ndims_), 0), periods(dims.size(), 0);
    MPI_Dims_create(world_size(), ndims_, dims.data());
    MPI_Comm grid;
    MPI_Cart_create(MPI_COMM_WORLD, ndims_, dims.data(), periods.data(), 0, &grid);
    for (int d = 0; d < ndims_; ++d) {
      std::vector<int> keep(dims.size(), 0);
      keep[static_cast<std::size_t>(d)] = 1;
      MPI_Comm sub;
      MPI_Cart_sub(grid, keep.data(), &sub);
      comms.push_back({sub, fmt::format("CartDim-{}of{}", d + 1, ndims_)});
    }
    MPI_Comm_free(&grid);
  }

  // mpiBench's -p: halve MPI_COMM_WORLD until the parts reach the size.
  void add_partitions(std::vector<CommEntry>& comms) const {
    if (part_size_ == 0) return;
    for (int size = world_size(); size >= part_size_ && size > 0; size /= 2) {
      MPI_Comm part;
      MPI_Comm_split(MPI_COMM_WORLD, world_rank() / size, world_rank(), &part);
      comms.push_back({part, fmt::format("PartSize-{}", size)});
    }
  }

  static void free_comms(std::vector<CommEntry>& comms) {
    for (auto& c : comms) {
      if (c.comm != MPI_COMM_WORLD) MPI_Comm_free(&c.comm);
    }
  }

  void print_header(const Report& report) {
    if (is_root()) out_.start(report.document()["mpi"]["hosts"].get<std::vector<std::string>>());
  }

  void record_settings(Report& report) const {
    auto& s = report.settings("coll");
    nlohmann::json names = nlohmann::json::array();
    for (const auto& o : ops_) names.push_back(std::string(o.name));
    s["operations"] = names;
    s["begin_bytes"] = start_;
    s["end_bytes"] = stop_;
    s["end_bytes_after_memory_limit"] = stop_fit_;
    kMaxRepetitions.record(s, max_repetitions_);
    s["memory_limit_bytes"] = mem_limit_;
    s["time_limit_us"] = time_limit_s_ * 1e6;
    s["cartesian_dims"] = ndims_;
    s["partition_size"] = part_size_;
    s["barrier"] = !no_barrier_;
    s["timing"] = per_call_ ? "per-call" : "loop";
    s["check"] = !checking() ? "none" : check_every_ ? "every iteration (untimed pass)" : "once per test (untimed call)";
    s["estimate_iterations"] = kEstimateIters;
    s["step_timeout_s"] = step_timeout_;
    s["bus_bandwidth"] = "nccl-tests convention, docs/coll.md";
  }

  std::vector<std::string> op_names_;
  std::vector<CollInfo> ops_;
  std::string start_text_ = "0", stop_text_ = "256K", mem_text_ = "1G";
  std::uint64_t start_ = 0, stop_ = 0, stop_fit_ = 0, mem_limit_ = 0;
  int max_repetitions_ = 1000, ndims_ = 0, part_size_ = 0;
  double time_limit_us_ = 0, time_limit_s_ = 0, time_budget_s_ = 0;
  bool check_once_ = false, check_every_ = false, no_check_ = false, skip_validation_ = false;
  bool no_barrier_ = false, per_call_ = false;
  bool stopped_ = false;
  CLI::Option* max_repetitions_option_ = nullptr;
  CLI::Option* time_opt_ = nullptr;
  CLI::Option* budget_opt_ = nullptr;
  HostBuffer send_, recv_;
  CollWriter out_{standard_output()};
};

}  // namespace

std::unique_ptr<Command> make_coll_command() { return std::make_unique<CollCommand>(); }

}  // namespace movebench
