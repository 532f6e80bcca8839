// One verdict per path measured (dram, each link, device memory, network):
// normal, low, degraded or unknown, and why (docs/facts.md#peaks-and-verdicts).
//   degraded: the facts name a fault on the path (empty channels, DIMMs
//             clocked down, mixed speeds, a PCIe link trained below its
//             maximum, a NIC below its maximum);
//   unknown:  the path's peak is not known (the facts' why is copied);
//   low:      the fraction of the peak is under the band's normal_from, with
//             the settings that could explain it (facts.settings warnings);
//   normal:   otherwise.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace movebench::judge {

// The verdicts of a result document, from the peaks of its figures
// (figure_peaks()), the facts and the bands (load_bands()): an array of
// {"path", "figure", "value", "unit", "peak", "fraction", "verdict",
//  "reasons": [...], "band": {"normal_from", "source"} or null}.
nlohmann::json make_verdicts(const nlohmann::json& doc, const nlohmann::json& facts, const nlohmann::json& peaks,
                             const nlohmann::json& bands);

// "dram: low: triad 41.2 GB/s = 62% of 68.3 GB/s DRAM peak (...); normal
// from 75% (...); THP never".
std::string verdict_line(const nlohmann::json& verdict);

// Whether any verdict is at or worse than `fail_on` ("low": low or
// degraded; "degraded": degraded; empty: never). Unknown is neither.
bool any_at_or_worse(const nlohmann::json& verdicts, const std::string& fail_on);

}  // namespace movebench::judge
