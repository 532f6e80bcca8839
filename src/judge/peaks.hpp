// The theoretical peak of each headline figure's path, from the facts of
// the machine (facts/facts.hpp) and what the result document records of the run:
// mem's all-thread figures against the DRAM peak when the working set is
// beyond the last-level cache, mem --backend cuda against the device
// memory's peak, link against its device's NVLink-C2C or PCIe link, p2p/coll/beff across
// hosts against the NIC rate (docs/facts.md#peaks-and-verdicts). Pure: documents in, JSON out.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace movebench::judge {

// For every headline bandwidth figure of doc["results"], keyed by its name:
//  {"path", "kind", "value", "unit", "source", "fraction", "bytes_per_second"}
//      a known peak, "value" in the figure's own unit (both directions when
//      the figure counts both), "fraction" = figure / peak;
//  {"path", "kind", "status": "unknown", "why"}: the path's peak is not known;
//  {"status": "none", "why"}: no peak applies (cache-resident, one thread of
//      several, ranks on one host, an aggregate of ranks ...).
// Figures that are not bandwidths (latencies, sizes) get no entry.
nlohmann::json figure_peaks(const nlohmann::json& doc, const nlohmann::json& facts);

// The peak's words for a text line: "68.3 GB/s DRAM peak (8 channels x 4266
// MT/s x 8 B, SMBIOS)"; empty when the peak is not known.
std::string peak_words(const nlohmann::json& peak);

// Bytes per second in `unit` (B/s, KB/s, MB/s, GB/s): 1 MB = 10^6 B.
double in_unit(double bytes_per_second, const std::string& unit);

}  // namespace movebench::judge
