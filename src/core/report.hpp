// The result document of one run: what every command fills and writes.
// Layout (docs/results.md, docs/result.schema.json) follows the HPCC dump:
// name, version, git_commit, config_time, execution_time, device, host,
// environment, mpi, settings, timings, results, errors, validated.
#pragma once
#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/distribution.hpp"
#include "core/figure.hpp"
#include "core/progress.hpp"

namespace movebench {

// The version of the result document's layout (docs/results.md): 2 added
// the figures' vocabulary (of, better, accounting; latencies in ns); 3 the
// machine's facts (the `facts` key, docs/facts.md).
inline constexpr int kSchemaVersion = 3;

// One measured point: one operation at one size with one set of parameters.
struct Record {
  std::string benchmark;                             // "mem"
  std::string operation;                             // "triad"
  std::uint64_t bytes = 0;                           // the size axis; its meaning is the benchmark's (docs/results.md)
  nlohmann::json params = nlohmann::json::object();  // threads, elements, mode ...
  std::vector<double> samples;                       // seconds, one per timed repetition, in order
  std::vector<Figure> figures;                       // derived from the samples (core/figure.hpp)
};

struct OutputOptions {
  std::string json_path;   // empty: no file
  bool parsable = false;   // one MOVEBENCH_RESULT line per figure on stdout
  bool write_file = true;  // false on MPI ranks other than 0
  bool quiet = false;      // no progress line on the terminal
  // --store: a result store's URL; the written document is also stored there
  // by movebench-report (src/report/result_store.hpp). Report writes no SQL.
  std::string store;

  // A document kept in memory only: no file, no progress line (a run that
  // another command borrows, as node does mem's and link's).
  static OutputOptions in_memory() {
    OutputOptions o;
    o.write_file = false;
    o.quiet = true;
    return o;
  }
};

class Report {
 public:
  // Writes an empty but valid document at once when a path is given, so a
  // bad path is a usage error (UsageError, with the reason) before anything
  // is measured.
  Report(std::string benchmark, OutputOptions output, std::vector<std::string> command_line);

  nlohmann::json& settings(const std::string& benchmark);
  void set_device(const std::string& device);
  void set_mpi(nlohmann::json mpi);
  nlohmann::json& extra(const std::string& key);  // benchmark-specific top-level facts

  // Stores the record (statistics computed here), prints its parsable lines
  // and saves a checkpoint of the file when one is due (see checkpoint()):
  // an interrupted run keeps every record added, a killed one those of the
  // last checkpoint.
  void add(Record record);
  // The same with the distribution of the events its figures time (the
  // record's `distribution`, core/distribution.hpp).
  void add(Record record, const Distribution& distribution);
  // The same with a distribution as a result document holds it (null:
  // none): `movebench run` keeps its local MPI job's.
  void add(Record record, nlohmann::json distribution);
  // A headline figure, keyed by its dotted name (figure.name()).
  void set_result(const Figure& figure);
  void add_error(const std::string& key, const std::string& message);
  // Every benchmark reports each validation it ran; `validated` is true when
  // at least one ran, none failed and none was skipped.
  void validation(bool passed, const std::string& what);
  // A check the user turned off with an option: the one way every command
  // records it. `validation_skipped` says "<benchmark> <option>: <what> not
  // checked" (e.g. "coll --no-check: received data not checked") and
  // `validated` stays false: a skipped check is not a pass.
  void validation_skipped(const std::string& option, const std::string& what);
  // The same with the reason as written elsewhere (a document imported whole
  // by `movebench run`); several reasons are joined with "; ".
  void validation_skipped(const std::string& reason);

  bool validated() const;
  // The verdict of the text output, the same words for every command:
  // "PASSED", "FAILED", or "SKIPPED (<the validation_skipped reason>)".
  std::string validation_verdict() const;
  bool failed() const { return failed_; }
  // Final save. Returns the exit code: 128+signal when interrupted, 1 when a
  // validation or run error was recorded or the file could not be written,
  // else 0.
  int finish();
  const nlohmann::json& document() const { return doc_; }
  // Removes the file when nothing was measured (a usage error found late).
  void discard() const;
  // Writes the file now (whole, or not at all: core/atomic_file). A failure
  // prints one line with the reason, is recorded, and makes finish() fail;
  // the last complete file stays. Returns false on failure.
  bool save();
  // Writes a copy of the document to another path (beff --dump-json), the
  // same safe way. Returns "" or the reason.
  std::string write_copy(const std::string& path) const;
  bool write_failed() const { return write_failed_; }
  // How many times the file was written, and the seconds that took
  // (bench/report_overhead reports them).
  std::size_t saves() const { return saves_; }
  double save_seconds() const { return save_seconds_; }
  // The live progress line of this run (core/progress.hpp).
  Progress& progress() { return progress_; }

 private:
  // Saves when the time since the last save is at least kCheckpointRatio
  // times what that save cost: writing stays a bounded share of the run
  // (1/(1+ratio), about 0.5%) however many records there are, where saving
  // after every record grew with the square of the record count.
  void checkpoint();
  std::string serialized() const;

  static constexpr double kCheckpointRatio = 200;
  OutputOptions output_;
  Progress progress_;
  nlohmann::json doc_;
  int validations_ = 0;
  std::string skipped_;  // the validation_skipped reason; empty: none
  bool failed_ = false;
  bool write_failed_ = false;
  std::chrono::steady_clock::time_point next_save_{};
  std::size_t saves_ = 0;
  double save_seconds_ = 0;
};

// The parsable line of one figure, fixed key order:
// MOVEBENCH_RESULT name=mem.triad metric=bandwidth value=1.5e+04 unit=MB/s stat=min of=time better=higher
// accounting=application bytes=N k=v ... (accounting only on bandwidths)
std::string parsable_line(const Record& record, const Figure& figure);

}  // namespace movebench
