// The result document of one run: what every command fills and writes.
// Layout (docs/results.md, docs/result.schema.json) follows the HPCC dump:
// name, version, git_commit, config_time, execution_time, device, host,
// environment, mpi, settings, timings, results, errors, validated.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace movebench {

// A derived figure of a record: a bandwidth, a rate, a latency.
struct Figure {
  std::string name;  // "bandwidth", "latency", "flops", ...
  double value = 0;
  std::string unit;  // "MB/s", "ns", "MFlop/s", ... (the schema lists them)
  std::string stat;  // which statistic of the samples it comes from: "min", "median", ...
};

// One measured point: one operation at one size with one set of parameters.
struct Record {
  std::string benchmark;  // "mem"
  std::string operation;  // "triad"
  std::uint64_t bytes = 0;  // the size axis; its meaning is the benchmark's (docs/results.md)
  nlohmann::json params = nlohmann::json::object();  // threads, elements, mode ...
  std::vector<double> samples;  // seconds, one per timed repetition, in order
  std::vector<Figure> figures;
};

struct OutputOptions {
  std::string json_path;  // empty: no file
  bool parsable = false;  // one MOVEBENCH_RESULT line per figure on stdout
  bool write_file = true; // false on MPI ranks other than 0
};

class Report {
 public:
  // Writes an empty but valid document at once when a path is given, so a
  // bad path is a usage error before anything is measured.
  Report(std::string benchmark, OutputOptions output, std::vector<std::string> command_line);

  nlohmann::json& settings(const std::string& benchmark);
  void set_device(const std::string& device);
  void set_mpi(nlohmann::json mpi);
  nlohmann::json& extra(const std::string& key);  // benchmark-specific top-level facts

  // Stores the record (statistics computed here), prints its parsable lines
  // and saves the file: an interrupted run keeps every record added.
  void add(Record record);
  void set_result(const std::string& name, double value, const std::string& unit);
  void add_error(const std::string& key, const std::string& message);
  // Every benchmark reports each validation it ran; `validated` is true when
  // at least one ran and none failed.
  void validation(bool passed, const std::string& what);
  void validation_skipped(const std::string& why);

  bool validated() const;
  bool failed() const { return failed_; }
  // Final save. Returns the exit code: 128+signal when interrupted, 1 when a
  // validation or run error was recorded, else 0.
  int finish();
  const nlohmann::json& document() const { return doc_; }
  // Removes the file when nothing was measured (a usage error found late).
  void discard() const;
  void save() const;

 private:
  OutputOptions output_;
  nlohmann::json doc_;
  int validations_ = 0;
  bool failed_ = false;
};

// The parsable line of one figure, fixed key order:
// MOVEBENCH_RESULT name=mem.triad metric=bandwidth value=1.5e+04 unit=MB/s stat=min bytes=N k=v ...
std::string parsable_line(const Record& record, const Figure& figure);

}  // namespace movebench
