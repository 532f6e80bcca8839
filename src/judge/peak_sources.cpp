#include "judge/peak_sources.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "facts/pcie_link.hpp"

namespace movebench::judge {
namespace {

nlohmann::json unknown(const std::string& path, const std::string& kind, const std::string& why) {
  return {{"path", path}, {"kind", kind}, {"status", "unknown"}, {"why", why}};
}

nlohmann::json known(const std::string& path, const std::string& kind, const std::string& label, double bytes,
                     const std::string& source) {
  return {{"path", path}, {"kind", kind}, {"label", label}, {"bytes_per_second", bytes}, {"source", source}};
}

// The greatest thread count among the mem.<kernel>.<N>t headlines: the
// all-thread run of the suite.
int most_threads(const nlohmann::json& doc) {
  int most = 0;
  for (const auto& [name, figure] : doc["results"].items()) {
    if (name.rfind("mem.", 0) != 0 || name.back() != 't') continue;
    const auto last = name.rfind('.');
    const std::string count = name.substr(last + 1, name.size() - last - 2);
    if (!count.empty() && std::all_of(count.begin(), count.end(), ::isdigit)) most = std::max(most, std::stoi(count));
  }
  return most;
}

// Bytes of the arrays the kernel's record touched with `threads` threads; 0 when not recorded.
double working_set(const nlohmann::json& doc, const std::string& kernel, int threads) {
  for (const auto& t : doc.value("timings", nlohmann::json::array())) {
    if (t.value("benchmark", "") != "mem" || t.value("operation", "") != kernel) continue;
    if (!t.contains("params") || t["params"].value("threads", 0) != threads) continue;
    return t.value("bytes", 0.0);
  }
  return 0;
}

// The last-level cache of all instances (host.caches), in bytes.
double last_level_cache(const nlohmann::json& doc) {
  int level = 0;
  double bytes = 0;
  for (const auto& c : doc["host"].value("caches", nlohmann::json::array())) {
    if (c.value("level", 0) < level) continue;
    if (c.value("level", 0) > level) bytes = 0;
    level = c.value("level", 0);
    bytes += c.value("bytes", 0.0) * std::max(1, c.value("instances", 1));
  }
  return bytes;
}

nlohmann::json dram_peak(const nlohmann::json& doc, const nlohmann::json& facts, int threads) {
  const auto& host = doc["host"];
  const bool all_nodes =
      threads >= host.value("logical_cpus", 0) || host.value("packages", 1) <= 1 || host.value("numa_nodes", 1) <= 1;
  if (!all_nodes) {
    return unknown("dram", "dram",
                   fmt::format("{} threads on part of a {}-socket machine: which NUMA nodes they used "
                               "is not recorded",
                               threads, host.value("packages", 0)));
  }
  const auto dram = facts.value("dram", nlohmann::json::object());
  if (dram.value("status", "unknown") != "known" || dram.value("peak_bytes_per_second", 0.0) <= 0) {
    return unknown("dram", "dram", fmt::format("the DRAM peak is unknown ({})", dram.value("why", "no DRAM facts")));
  }
  std::string source = dram.value("peak_formula", "channels x MT/s x 8 B");
  if (dram.contains("source")) source += ", " + dram["source"].get<std::string>();
  return known("dram", "dram", "DRAM", dram["peak_bytes_per_second"].get<double>(), source);
}

nlohmann::json device_memory_peak(const nlohmann::json& doc, const std::string& backend) {
  const std::string path = fmt::format("device memory ({})", backend);
  const auto device = doc.value("mem_device", nlohmann::json::object());
  const double bytes = device.value("memory_peak_bytes_per_s", 0.0);
  if (bytes <= 0) {
    return unknown(path, "device_memory",
                   fmt::format("the {} backend does not report its memory's clock and bus width", backend));
  }
  const std::string source =
      fmt::format("{}: memory clock {:.0f} MHz x {} bits x 2 / 8, the device's own attributes", backend,
                  device.value("memory_clock_khz", 0.0) / 1e3, device.value("memory_bus_bits", 0));
  return known(path, "device_memory", "device memory", bytes, source);
}

}  // namespace

nlohmann::json peak_none(const std::string& why) { return {{"status", "none"}, {"why", why}}; }

nlohmann::json mem_peak(const nlohmann::json& doc, const nlohmann::json& facts, const std::string& rest) {
  const auto dot = rest.rfind('.');
  if (dot == std::string::npos) return peak_none("not a mem bandwidth headline");
  const std::string kernel = rest.substr(0, dot), suffix = rest.substr(dot + 1);
  if (kernel.rfind("loaded_latency", 0) == 0) return peak_none("a load under a latency probe, not a bandwidth run");
  const bool host = !suffix.empty() && suffix.back() == 't' && std::all_of(suffix.begin(), suffix.end() - 1, ::isdigit);
  if (!host) return device_memory_peak(doc, suffix);
  const int threads = std::stoi(suffix.substr(0, suffix.size() - 1));
  const int most = most_threads(doc);
  if (threads < most)
    return peak_none(fmt::format("{} of {} threads: the DRAM peak is held against the all-thread run", threads, most));
  const double bytes = working_set(doc, kernel, threads), llc = last_level_cache(doc);
  if (bytes <= 0) return peak_none("the working set is not recorded");
  if (bytes <= llc) {
    return peak_none(
        fmt::format("cache-resident: the working set ({:.4g} MB) fits in the last-level cache ({:.4g} MB); "
                    "no peak is known for cache levels",
                    bytes / 1e6, llc / 1e6));
  }
  return dram_peak(doc, facts, threads);
}

}  // namespace movebench::judge
