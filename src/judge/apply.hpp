// Puts the peaks into a run's document and its text output: every headline
// bandwidth figure gets its "peak" (judge/peaks.hpp), and a command run alone
// prints one line per figure after its table.
#pragma once
#include <nlohmann/json.hpp>

#include "core/output.hpp"
#include "core/report.hpp"

namespace movebench::judge {

// figure_peaks() of the report's document, each written into its figure as
// "peak". Returns the peaks.
nlohmann::json attach_peaks(Report& report, const nlohmann::json& facts);

// One line per figure with a known peak: "peak: mem.triad.2t 41200 MB/s =
// 62% of 66500 MB/s DRAM peak (...)", and one per path whose peak is unknown:
// "peak: dram: unknown (why)". Figures no peak applies to print nothing.
void print_peak_lines(Output& out, const nlohmann::json& peaks, const nlohmann::json& results);

}  // namespace movebench::judge
