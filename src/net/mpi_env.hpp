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

class Watchdog;
// Starts MPI once (thread level SINGLE: only the main thread calls MPI) and
// finalizes it at exit. The process's one watchdog is started first and
// stays armed from before MPI_Init to after MPI_Finalize (start-up,
// communicator creation, every step, the gathers of results between steps,
// finalize), so a rank that dies or stops at any point ends the job within
// `step_timeout` seconds. Returns that watchdog, armed "between steps".
Watchdog& start_mpi(const std::string& command, double step_timeout);
int world_rank();
int world_size();
// The MPI family this binary runs on, read from the library's version
// string (legal before MPI_Init): launch flags and a few checks differ.
enum class MpiFamily { kOpenMpi, kMpich, kOther };
MpiFamily mpi_family();
// Library, standard version, ranks, hosts, launcher: the result's "mpi".
nlohmann::json mpi_facts();

// Ends the whole job when one phase takes longer than its bound: a rank that
// died or hangs would otherwise leave the others waiting for ever. It makes
// no MPI call of its own until told the thread level (after MPI_Init).
class Watchdog {
 public:
  Watchdog(std::string command, int rank, double bound);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  // seconds <= 0: the default bound (--step-timeout).
  void arm(double seconds, std::string what);
  // Armed again with the default bound, for what lies between steps.
  void rest();
  void disarm();
  void configure(std::string command, double bound);
  void mpi_started(int rank, bool may_abort);

 private:
  void watch();
  [[noreturn]] void end_job();
  std::string command_;
  int rank_ = 0;
  bool may_abort_ = false;  // MPI_Abort from this thread is legal only under MPI_THREAD_MULTIPLE
  std::mutex mutex_;
  std::condition_variable wake_;
  bool armed_ = false, stop_ = false;
  double deadline_ = 0, bound_ = 0, default_bound_ = 0;
  std::string what_;
  std::thread thread_;
};

// Arms the dog for one step; on scope exit it watches "between steps" again.
class WatchedStep {
 public:
  WatchedStep(Watchdog& dog, double seconds, std::string what) : dog_(dog) { dog_.arm(seconds, std::move(what)); }
  ~WatchedStep() { dog_.rest(); }
  WatchedStep(const WatchedStep&) = delete;
  WatchedStep& operator=(const WatchedStep&) = delete;

 private:
  Watchdog& dog_;
};

// Between steps, every rank learns whether any rank saw a failed check or
// an interrupt, so that all stop (or carry on) together.
// A signal seen by any rank counts as one seen by every rank (so rank 0's
// file says `complete: false` and every rank exits 128+signal).
struct Agreement {
  bool any_failed = false;
  bool any_interrupted = false;
};
Agreement agree(bool failed_here);
// The last agreement of a command, after its last step: interrupts that
// came after the last step's agreement reach every rank; a signal after
// this one no longer changes how a rank ends (settle_interrupts), so no rank
// alone says "interrupted"; and the watchdog is disarmed until MPI_Finalize
// (at exit, watched too).
void end_mpi_run(Watchdog& dog);

// The end of every step of every MPI benchmark: all ranks agree on the
// verdict; the rank whose check failed says what, in one line
// ("movebench <command>: error: validation failed: <what>, rank R: <error>");
// the verdict goes into the report when checks ran. False when the run must
// stop (a failed check anywhere, or an interrupt).
bool settle_step(Report& report, const std::string& command, const std::string& what, const std::string& error,
                 bool checked);

// Rank 0 gets every rank's value (others get an empty vector).
std::vector<double> gather_to_root(double value);
// Rank 0 gets every rank's values, one vector per rank (others get none).
std::vector<std::vector<double>> vectors_to_root(const std::vector<double>& values);
// Rank 0 gets rank `from`'s values (its own when `from` is 0; others get an
// empty vector). Every rank calls it; only `from` and 0 exchange.
std::vector<double> values_to_root(std::vector<double> values, int from);

// Test hooks (hidden option --fail-for-test): what one rank does wrong.
enum class FailMode { kNone, kHang, kDie, kCorrupt };
FailMode parse_fail_mode(const std::string& text);
// Called at the start of each step: the last rank hangs or dies there.
void maybe_fail(FailMode mode);

}  // namespace movebench::net
