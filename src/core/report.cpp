#include "core/report.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include "build_info.hpp"
#include "git_commit.hpp"
#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/host_info.hpp"
#include "core/interrupt.hpp"
#include "core/output.hpp"
#include "core/stats.hpp"

namespace movebench {

Report::Report(std::string benchmark, OutputOptions output, std::vector<std::string> command_line)
    : output_(std::move(output)), progress_(Progress::wanted(output_.quiet)) {
  doc_ = {
      {"schema_version", kSchemaVersion},
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
  if (output_.write_file && !output_.json_path.empty()) {
    check_output_file(output_.json_path, "result file");
    if (auto why = replace_file(output_.json_path, serialized()); !why.empty()) {
      throw UsageError(fmt::format("cannot write the result file '{}': {}", output_.json_path, why));
    }
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

void Report::add(Record record) { add(std::move(record), nlohmann::json()); }

void Report::add(Record record, const Distribution& distribution) { add(std::move(record), distribution.to_json()); }

void Report::add(Record record, nlohmann::json distribution) {
  nlohmann::json figures = nlohmann::json::object();
  for (const auto& f : record.figures) {
    figures[f.name()] = f.to_json();
    if (output_.parsable) std::fputs((parsable_line(record, f) + "\n").c_str(), stdout);
  }
  nlohmann::json entry = {
      {"benchmark", record.benchmark}, {"operation", record.operation}, {"bytes", record.bytes},
      {"params", record.params},       {"samples", record.samples},     {"figures", figures},
  };
  entry["stats"] = record.samples.empty() ? nlohmann::json(nullptr) : nlohmann::json(summarize(record.samples));
  if (!distribution.is_null()) entry["distribution"] = std::move(distribution);
  doc_["timings"].push_back(std::move(entry));
  checkpoint();
}

void Report::set_result(const Figure& figure) { doc_["results"][figure.name()] = figure.to_json(); }

void Report::add_error(const std::string& key, const std::string& message) {
  doc_["errors"][key] = message;
  failed_ = true;
}

void Report::validation(bool passed, const std::string& what) {
  ++validations_;
  if (!passed) add_error("validation", what);
  doc_["validated"] = validated();
}

void Report::validation_skipped(const std::string& option, const std::string& what) {
  validation_skipped(fmt::format("{} {}: {} not checked", doc_["benchmark"].get<std::string>(), option, what));
}

void Report::validation_skipped(const std::string& reason) {
  skipped_ = skipped_.empty() ? reason : skipped_ + "; " + reason;
  doc_["validation_skipped"] = skipped_;
  doc_["validated"] = validated();
}

bool Report::validated() const { return validations_ > 0 && !failed_ && skipped_.empty(); }

std::string Report::validation_verdict() const {
  if (failed_) return "FAILED";
  if (!skipped_.empty()) return "SKIPPED (" + skipped_ + ")";
  return validated() ? "PASSED" : "FAILED";
}

int Report::finish() {
  progress_.clear();
  doc_["end_time"] = utc_timestamp();
  doc_["validated"] = validated();
  const int sig = interrupt_signal();
  if (sig) doc_["errors"]["interrupted"] = fmt::format("stopped by signal {}; results so far kept", sig);
  doc_["complete"] = sig == 0;
  save();
  if (sig) return 128 + sig;
  return failed_ || write_failed_ ? kExitFailure : kExitOk;
}

std::string Report::serialized() const {
  // Arguments, environment and paths may hold any bytes: invalid UTF-8 is
  // written as U+FFFD, so the file is always valid JSON.
  return doc_.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + '\n';
}

void Report::checkpoint() {
  if (output_.json_path.empty() || !output_.write_file) return;
  if (std::chrono::steady_clock::now() >= next_save_) save();
}

bool Report::save() {
  if (output_.json_path.empty() || !output_.write_file) return true;
  const auto start = std::chrono::steady_clock::now();
  const std::string why = replace_file(output_.json_path, serialized());
  const auto end = std::chrono::steady_clock::now();
  next_save_ = end + std::chrono::duration_cast<std::chrono::steady_clock::duration>((end - start) * kCheckpointRatio);
  ++saves_;
  save_seconds_ += std::chrono::duration<double>(end - start).count();
  if (why.empty()) return true;
  if (!write_failed_) {
    // Once: a full disk would otherwise print at every checkpoint.
    standard_output().problem(
        fmt::format("movebench {}: error: cannot write the result file '{}': {} (the last complete file is kept)",
                    doc_["benchmark"].get<std::string>(), output_.json_path, why));
  }
  write_failed_ = true;
  doc_["errors"]["result_file"] = "cannot write the result file: " + why;
  return false;
}

std::string Report::write_copy(const std::string& path) const { return replace_file(path, serialized()); }

void Report::discard() const {
  if (!output_.json_path.empty() && output_.write_file && doc_["timings"].empty()) {
    ::unlink(output_.json_path.c_str());
  }
}

std::string parsable_line(const Record& record, const Figure& figure) {
  std::string line =
      fmt::format("MOVEBENCH_RESULT name={}.{} metric={} value={:.6g} unit={} stat={} of={} better={}",
                  record.benchmark, record.operation, figure.name(), figure.value(), figure.unit(),
                  stat_name(figure.stat()), of_name(figure.of()), figure.higher_is_better() ? "higher" : "lower");
  if (figure.accounting()) line += " accounting=" + accounting_token(*figure.accounting());
  line += fmt::format(" bytes={}", record.bytes);
  for (const auto& [key, value] : record.params.items()) {
    line += fmt::format(" {}={}", key,
                        value.is_string() ? value.get<std::string>()
                                          : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  return line;
}

}  // namespace movebench
