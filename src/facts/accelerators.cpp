#include "facts/facts.hpp"
#include "facts/accelerators.hpp"

#include <fmt/format.h>

#include <exception>
#include <set>

#include "core/figure.hpp"
#include "facts/c2c.hpp"
#include "facts/pcie_link.hpp"

namespace movebench::facts {
namespace {

AcceleratorLister& lister() {
  static AcceleratorLister l;
  return l;
}

nlohmann::json memory_peak(const AcceleratorInfo& info) {
  if (info.memory_clock_khz <= 0 || info.memory_bus_bits <= 0) {
    return {{"status", "unknown"}, {"why", info.peak_why.empty() ? "the backend does not tell" : info.peak_why}};
  }
  return {{"bytes_per_second", device_memory_peak(info.memory_clock_khz, info.memory_bus_bits)},
          {"formula",
           fmt::format("memory clock {:.0f} MHz x {} bits x 2 / 8", info.memory_clock_khz / 1e3, info.memory_bus_bits)},
          {"source", info.peak_source}};
}

// "Gen5 x16, peak 63.02 GB/s per direction" of the PCIe entry on `bus_id`;
// why not where none is listed.
std::string pcie_link_of(const nlohmann::json& pcie, const std::string& bus_id) {
  if (!pcie.is_array()) return "its PCIe link is unknown (no PCIe facts)";
  for (const auto& d : pcie) {
    if (!d.contains("bus_id") || normalize_bus_id(fact_text(d["bus_id"])) != bus_id) continue;
    if (!d.value("has_link", false)) return "its PCIe entry has no link facts";
    return fmt::format("PCIe Gen{} x{}, peak {} per direction{}", fact_text(d["gen"]), fact_text(d["width"]),
                       gb_per_second_text(d.value("peak_bytes_per_second", 0.0)),
                       d.value("degraded", false) ? " (DEGRADED)" : "");
  }
  return bus_id + " is not among the PCIe devices listed";
}

// "18 of 18 links active (NVLink version 4)" of the GPU NVML lists on
// `bus_id`; empty when NVML lists none there.
std::string nvlink_of(const nlohmann::json& nvlink, const std::string& bus_id) {
  if (!nvlink.is_object() || !nvlink.contains("devices")) return {};
  for (const auto& g : nvlink["devices"]) {
    if (fact_text(g["bus_id"]) != bus_id) continue;
    std::set<unsigned> versions;
    for (const auto& l : g["links"]) {
      if (l.value("active", false) && l.contains("version")) versions.insert(l["version"].get<unsigned>());
    }
    std::string v;
    for (unsigned x : versions) v += (v.empty() ? "" : ", ") + std::to_string(x);
    return fmt::format("{} of {} links active{}", fact_text(g["links_active"]), g["links"].size(),
                       v.empty() ? "" : " (NVML's NVLink version " + v + ")");
  }
  return {};
}

// The NVLink block: why it is unknown or none, else one line per GPU NVML
// lists, with the accelerators on its bus.
std::string nvlink_section(const nlohmann::json& acc) {
  if (!acc.contains("nvlink")) return {};
  const auto& nv = acc["nvlink"];
  if (nv.value("status", "") != "known")
    return fmt::format("  NVLink: {}: {}\n", fact_text(nv["status"]), fact_text(nv["why"]));
  std::string out;
  for (const auto& g : nv["devices"]) {
    const std::string bus = fact_text(g["bus_id"]), on_bus = accelerators_on_bus(acc, bus);
    out += fmt::format("  NVLink: {}{}: {}  [{}]\n", bus, on_bus.empty() ? "" : " (" + on_bus + ")", nvlink_of(nv, bus),
                       fact_text(nv["source"]));
  }
  return out;
}

std::string device_line(const nlohmann::json& d, const nlohmann::json& pcie) {
  const auto& peak = d["memory_peak"];
  const std::string memory =
      d["memory_bytes"].is_number() ? fmt::format("{:.1f} GB", d["memory_bytes"].get<double>() / 1e9) : "unknown";
  const std::string peak_text =
      peak.contains("bytes_per_second")
          ? fmt::format("peak {} ({}; {})", gb_per_second_text(peak["bytes_per_second"].get<double>()),
                        fact_text(peak["formula"]), fact_text(peak["source"]))
          : "peak unknown: " + fact_text(peak["why"]);
  std::string line =
      fmt::format("  {:<12} {:<6} {} {} ({}): memory {}, {}\n", fact_text(d["bus_id"]), fact_text(d["backend"]),
                  fact_text(d["index"]), fact_text(d["name"]), fact_text(d["type"]), memory, peak_text);
  const std::string bus = d["bus_id"].is_string() ? d["bus_id"].get<std::string>() : "";
  line += "               " +
          (bus.empty() ? "bus id unknown: " + fact_text(d["bus_id_why"]) : pcie_link_of(pcie, bus)) + "\n";
  return line;
}

}  // namespace

// NVIDIA, CUDA C++ Programming Guide (the legacy guide, as of CUDA 12.9 and
// 13.0), chapter 20 "Compute Capabilities", each architecture's "Shared
// Memory" section: "the unified data cache has a size of 128 KB" (7.0; 96 KB
// for 7.5: 20.6.4), "192 KB for devices of compute capability 8.0 and 8.7
// and 128 KB for devices of compute capabilities 8.6 and 8.9" (20.7.3), "256
// KB for devices of compute capability 9.0" (20.8.3), "256 KB for devices of
// compute capability 10.0" (20.9.3); KB there is 1024 bytes (the note above
// its Table 27). 12.0 is left out: its 20.10.3 gives 100 KB for the whole
// cache, and shared memory alone may take 100 KB of it.
// https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#compute-capabilities
const char* const kCudaSmDataCacheSource =
    "CUDA C++ Programming Guide, Compute Capabilities (20.6.4, 20.7.3, 20.8.3, 20.9.3): unified data cache per SM";

std::uint64_t cuda_sm_data_cache_bytes(int major, int minor) {
  struct Row {
    int major, minor;
    std::uint64_t kib;
  };
  constexpr Row kRows[] = {{7, 0, 128}, {7, 5, 96},  {8, 0, 192}, {8, 6, 128},
                           {8, 7, 192}, {8, 9, 128}, {9, 0, 256}, {10, 0, 256}};
  for (const auto& r : kRows) {
    if (r.major == major && r.minor == minor) return r.kib * 1024;
  }
  return 0;
}

double device_memory_peak(double memory_clock_khz, int memory_bus_bits) {
  return 2.0 * memory_clock_khz * 1e3 * memory_bus_bits / 8;
}

nlohmann::json accelerator_entry(const AcceleratorInfo& info) {
  nlohmann::json j = {{"backend", info.backend}, {"index", info.index}, {"name", info.name}, {"type", info.type}};
  j["memory_bytes"] = info.memory_bytes > 0 ? nlohmann::json(info.memory_bytes) : nlohmann::json();
  j["memory_peak"] = memory_peak(info);
  j["bus_id"] = info.bus_id.empty() ? nlohmann::json() : nlohmann::json(normalize_bus_id(info.bus_id));
  if (info.bus_id.empty()) j["bus_id_why"] = info.bus_why.empty() ? "the backend does not tell" : info.bus_why;
  return j;
}

void set_accelerator_lister(AcceleratorLister l) { lister() = std::move(l); }

nlohmann::json accelerator_facts() {
  if (!lister()) return {{"status", "unknown"}, {"why", "no device layer in this program to list them"}};
  try {
    auto out = lister()();
    add_c2c_peaks(out);  // NVML's C2C links, and the peak they give
    return out;
  } catch (const std::exception& e) {
    return {{"status", "unknown"}, {"why", e.what()}};
  }
}

std::string accelerators_on_bus(const nlohmann::json& accelerators, const std::string& bus_id) {
  std::string out;
  if (!accelerators.is_object() || !accelerators.contains("devices")) return out;
  for (const auto& d : accelerators["devices"]) {
    if (d["bus_id"].is_string() && d["bus_id"].get<std::string>() == normalize_bus_id(bus_id)) {
      out += (out.empty() ? "" : ", ") + fact_text(d["backend"]) + " " + fact_text(d["name"]);
    }
  }
  return out;
}

std::string accelerator_section(const nlohmann::json& acc, const nlohmann::json& pcie) {
  if (!acc.is_object() || acc.value("status", "") != "known") {
    return "Accelerators unknown: " +
           (acc.is_object() ? fact_text(acc.value("why", nlohmann::json())) : "not recorded") + "\n" +
           (acc.is_object() ? nvlink_section(acc) + c2c_section(acc) : "");
  }
  std::string backends;
  for (const auto& b : acc["backends"]) {
    backends += fmt::format("{}{} {}", backends.empty() ? "" : "; ", fact_text(b["backend"]),
                            b.contains("why") ? fact_text(b["why"]) : fact_text(b["devices"]) + " device(s)");
  }
  std::string out = fmt::format("Accelerators {} device(s) ({})\n", acc["devices"].size(), backends);
  for (const auto& d : acc["devices"]) out += device_line(d, pcie);
  for (const auto& d : acc.value("cpu_devices", nlohmann::json::array())) {
    out += fmt::format("  not listed: {} {} {} (a CPU device: this machine's cores and DRAM, see CPU and DRAM)\n",
                       fact_text(d["backend"]), fact_text(d["index"]), fact_text(d["name"]));
  }
  return out + nvlink_section(acc) + c2c_section(acc);
}

}  // namespace movebench::facts
