#include "suite/suite_output.hpp"

#include <fmt/format.h>

#include "core/progress.hpp"
#include "judge/verdict.hpp"

namespace movebench {

std::string step_line(const SuiteStep& s) {
  if (!s.ran) return fmt::format("{}: skipped ({})", s.name, s.skipped);
  const std::string part = s.skipped.empty() ? "" : fmt::format(" (a run skipped: {})", s.skipped);
  return fmt::format("{}{}  [{:.1f} s]", s.summary, part, s.seconds);
}

std::string stage_line(const std::string& name, std::size_t index, std::size_t count, double elapsed_s) {
  return fmt::format("movebench run: {} ({} of {}, {} elapsed)", name, index, count, format_duration(elapsed_s));
}

std::string summary_text(const std::vector<SuiteStep>& steps, const std::string& validation) {
  std::string text = "\n==== movebench run: summary ====\n";
  for (const auto& s : steps) text += step_line(s) + "\n";
  return text + "validation: " + validation + "\n";
}

std::string verdicts_text(const nlohmann::json& verdicts) {
  if (verdicts.empty()) return "verdicts: none (no figure measured a path with a peak)\n";
  std::string text;
  for (const auto& v : verdicts) text += judge::verdict_line(v) + "\n";
  return text;
}

std::string runs_text(const std::string& name, const std::string& why,
                      const std::vector<std::vector<std::string>>& runs) {
  if (runs.empty()) return fmt::format("# {}: skipped ({})\n", name, why);
  std::string text;
  for (const auto& args : runs) text += fmt::format("movebench {} {}\n", name, fmt::join(args, " "));
  return text;
}

}  // namespace movebench
