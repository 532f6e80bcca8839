// What `movebench run` hands its writer, and the writer: the line naming
// each benchmark as it starts (stderr), the summary with a line per
// benchmark and the validation, a verdict line per path, and --dry-run's
// command lines, as functions of those results (run_command.cpp prints
// nothing).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/output.hpp"

namespace movebench {

// One benchmark of the suite, once its runs are done.
struct SuiteStep {
  std::string name;
  bool ran = false;     // at least one of its runs measured
  std::string summary;  // its suite_summary() line, when it ran
  std::string skipped;  // ran: why a run was skipped (or empty); else why all were
  double seconds = 0;
};
std::string step_line(const SuiteStep& s);

// "movebench run: mem (1 of 3, 0:02 elapsed)", without its newline.
std::string stage_line(const std::string& name, std::size_t index, std::size_t count, double elapsed_s);
// The summary: its heading, a line per step, the validation verdict.
std::string summary_text(const std::vector<SuiteStep>& steps, const std::string& validation);
// judge::verdict_line per verdict, or one line saying there is none.
std::string verdicts_text(const nlohmann::json& verdicts);
// --dry-run: a command line per run, or why a benchmark has none.
std::string runs_text(const std::string& name, const std::string& why,
                      const std::vector<std::vector<std::string>>& runs);

class SuiteWriter {
 public:
  explicit SuiteWriter(Output& out) : out_(out) {}
  // On stderr: stdout is the summary's (and the benchmarks' own text).
  void stage(const std::string& name, std::size_t index, std::size_t count, double elapsed_s) {
    out_.problem(stage_line(name, index, count, elapsed_s));
  }
  void summary(const std::vector<SuiteStep>& steps, const std::string& validation) {
    out_.text(summary_text(steps, validation));
  }
  void verdicts(const nlohmann::json& verdicts) { out_.text(verdicts_text(verdicts)); }
  void runs(const std::string& name, const std::string& why, const std::vector<std::vector<std::string>>& runs) {
    out_.text(runs_text(name, why, runs));
  }

 private:
  Output& out_;
};

}  // namespace movebench
