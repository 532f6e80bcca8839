#include "judge/apply.hpp"

#include <fmt/format.h>
#include <fmt/printf.h>

#include <set>
#include <string>

#include "core/figure.hpp"
#include "judge/peaks.hpp"

namespace movebench::judge {

nlohmann::json attach_peaks(Report& report, const nlohmann::json& facts) {
  const nlohmann::json peaks = figure_peaks(report.document(), facts);
  // The results object itself (Report::extra gives the document's keys).
  auto& results = report.extra("results");
  for (const auto& [name, peak] : peaks.items()) {
    if (results.contains(name)) results[name]["peak"] = peak;
  }
  return peaks;
}

// printf's formats, kept (fmt::sprintf): the text is as it was.
void print_peak_lines(Output& out, const nlohmann::json& peaks, const nlohmann::json& results) {
  std::set<std::string> unknown_said;
  for (const auto& [name, peak] : peaks.items()) {
    const auto& figure = results[name];
    if (peak.contains("fraction")) {
      out.text(fmt::sprintf("peak: %s %s %s = %.0f%% of %s\n", name, significant_text(figure.value("value", 0.0)),
                            figure.value("unit", ""), 100 * peak["fraction"].get<double>(), peak_words(peak)));
    } else if (peak.value("status", "") == "unknown" && unknown_said.insert(peak.value("path", "")).second) {
      // Once per path: every figure on it has the same why.
      out.text(fmt::sprintf("peak: %s: unknown (%s)\n", peak.value("path", ""), peak.value("why", "")));
    }
  }
}

}  // namespace movebench::judge
