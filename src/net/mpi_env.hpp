// The MPI environment of beff, coll and p2p: start-up (only for these
// commands, so that mem needs no launcher), the facts recorded in the
// result, a watchdog that ends a stuck job, and the few collective
// helpers the harnesses share.
#pragma once
#include <mpi.h>

#include <condition_variable>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "core/launcher.hpp"
#include "core/report.hpp"

namespace movebench::net {

// launcher_rank() and under_launcher() come from core/launcher.hpp: under a
// launcher, `movebench run` runs the MPI benchmarks in place instead of
// starting mpirun itself.

// Starts MPI once (thread level SINGLE: only the main thread calls MPI) and
// finalizes it at exit.
void start_mpi();
int world_rank();
int world_size();
// Library, standard version, ranks, hosts, launcher: the result's "mpi".
nlohmann::json mpi_facts();

// Ends the whole job when one step takes longer than its bound: a rank that
// died or hangs would otherwise leave the others waiting for ever.
class Watchdog {
 public:
  explicit Watchdog(std::string command);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  void arm(double seconds, std::string what);
  void disarm();

 private:
  void watch();
  [[noreturn]] void end_job();
  std::string command_;
  int rank_ = 0;
  bool may_abort_ = false;  // MPI_Abort from this thread is legal only under MPI_THREAD_MULTIPLE
  std::mutex mutex_;
  std::condition_variable wake_;
  bool armed_ = false, stop_ = false;
  double deadline_ = 0, bound_ = 0;
  std::string what_;
  std::thread thread_;
};

// Disarms on scope exit.
class WatchedStep {
 public:
  WatchedStep(Watchdog& dog, double seconds, std::string what) : dog_(dog) { dog_.arm(seconds, std::move(what)); }
  ~WatchedStep() { dog_.disarm(); }
  WatchedStep(const WatchedStep&) = delete;
  WatchedStep& operator=(const WatchedStep&) = delete;

 private:
  Watchdog& dog_;
};

// Between steps, every rank learns whether any rank saw a failed check or
// an interrupt, so that all stop (or carry on) together.
struct Agreement {
  bool any_failed = false;
  bool any_interrupted = false;
};
Agreement agree(bool failed_here);

// The end of every step of every MPI benchmark: all ranks agree on the
// verdict; the rank whose check failed says what, in one line
// ("movebench <command>: error: validation failed: <what>, rank R: <error>");
// the verdict goes into the report when checks ran. False when the run must
// stop (a failed check anywhere, or an interrupt).
bool settle_step(Report& report, const std::string& command, const std::string& what, const std::string& error,
                 bool checked);

// Rank 0 gets every rank's value (others get an empty vector).
std::vector<double> gather_to_root(double value);

// Test hooks (hidden option --fail-for-test): what one rank does wrong.
enum class FailMode { kNone, kHang, kDie, kCorrupt };
FailMode parse_fail_mode(const std::string& text);
// Called at the start of each step: the last rank hangs or dies there.
void maybe_fail(FailMode mode);

}  // namespace movebench::net
