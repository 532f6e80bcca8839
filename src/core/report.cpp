#include "core/report.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "build_info.hpp"
#include "git_commit.hpp"
#include "core/errors.hpp"
#include "core/host_info.hpp"
#include "core/interrupt.hpp"
#include "core/stats.hpp"

namespace movebench {

Report::Report(std::string benchmark, OutputOptions output, std::vector<std::string> command_line)
    : output_(std::move(output)) {
  doc_ = {
      {"schema_version", 1},
      {"name", "movebench " + benchmark},
      {"benchmark", benchmark},
      {"version", build::version},
      {"git_commit", build::git_commit},
      {"config_time", build::config_time},
      {"execution_time", utc_timestamp()},
      {"end_time", nullptr},
      {"command_line", command_line},
      {"device", cpu_model_name()},
      {"host", host_facts()},
      {"environment", environment_facts()},
      {"build", build_facts()},
      {"mpi", nullptr},
      {"settings", nlohmann::json::object()},
      {"timings", nlohmann::json::array()},
      {"results", nlohmann::json::object()},
      {"errors", nlohmann::json::object()},
      {"validated", false},
      {"complete", false},
  };
  if (!output_.json_path.empty() && output_.write_file) {
    std::ofstream probe(output_.json_path, std::ios::app);
    if (!probe) throw UsageError(fmt::format("cannot write the result file '{}'", output_.json_path));
    probe.close();
    save();
  }
}

nlohmann::json& Report::settings(const std::string& benchmark) {
  auto& s = doc_["settings"][benchmark];
  if (s.is_null()) s = nlohmann::json::object();
  return s;
}

void Report::set_device(const std::string& device) { doc_["device"] = device; }
void Report::set_mpi(nlohmann::json mpi) { doc_["mpi"] = std::move(mpi); }
nlohmann::json& Report::extra(const std::string& key) { return doc_[key]; }

void Report::add(Record record) {
  nlohmann::json figures = nlohmann::json::object();
  for (const auto& f : record.figures) {
    figures[f.name] = {{"value", f.value}, {"unit", f.unit}, {"stat", f.stat}};
    if (output_.parsable) std::fputs((parsable_line(record, f) + "\n").c_str(), stdout);
  }
  nlohmann::json entry = {
      {"benchmark", record.benchmark},
      {"operation", record.operation},
      {"bytes", record.bytes},
      {"params", record.params},
      {"samples", record.samples},
      {"figures", figures},
  };
  entry["stats"] = record.samples.empty() ? nlohmann::json(nullptr) : nlohmann::json(summarize(record.samples));
  doc_["timings"].push_back(std::move(entry));
  save();
}

void Report::set_result(const std::string& name, double value, const std::string& unit) {
  doc_["results"][name] = {{"value", value}, {"unit", unit}};
}

void Report::add_error(const std::string& key, const std::string& message) {
  doc_["errors"][key] = message;
  failed_ = true;
}

void Report::validation(bool passed, const std::string& what) {
  ++validations_;
  if (!passed) add_error("validation", what);
  doc_["validated"] = validated();
}

void Report::validation_skipped(const std::string& why) { doc_["validation_skipped"] = why; }

bool Report::validated() const { return validations_ > 0 && !failed_; }

int Report::finish() {
  doc_["end_time"] = utc_timestamp();
  doc_["validated"] = validated();
  const int sig = interrupt_signal();
  if (sig) doc_["errors"]["interrupted"] = fmt::format("stopped by signal {}; results so far kept", sig);
  doc_["complete"] = sig == 0;
  save();
  if (sig) return 128 + sig;
  return failed_ ? kExitFailure : kExitOk;
}

void Report::save() const {
  if (output_.json_path.empty() || !output_.write_file) return;
  // Write beside and rename: a reader never sees half a file.
  const std::string tmp = output_.json_path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << doc_.dump(1) << '\n';
    if (!out) {
      std::fprintf(stderr, "movebench: cannot write %s\n", tmp.c_str());
      return;
    }
  }
  std::rename(tmp.c_str(), output_.json_path.c_str());
}

void Report::discard() const {
  if (!output_.json_path.empty() && output_.write_file && doc_["timings"].empty()) {
    std::remove(output_.json_path.c_str());
  }
}

std::string parsable_line(const Record& record, const Figure& figure) {
  std::string line = fmt::format("MOVEBENCH_RESULT name={}.{} metric={} value={:.6g} unit={} stat={} bytes={}",
                                 record.benchmark, record.operation, figure.name, figure.value,
                                 figure.unit, figure.stat, record.bytes);
  for (const auto& [key, value] : record.params.items()) {
    line += fmt::format(" {}={}", key, value.is_string() ? value.get<std::string>() : value.dump());
  }
  return line;
}

}  // namespace movebench
