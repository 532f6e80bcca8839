// Accelerators in the facts (docs/facts.md#accelerators): every GPU or
// accelerator the built device backends find, its memory, its memory's peak
// from the device's own properties, and its PCIe bus id, so the table puts
// it beside the PCIe entry of the same bus.
//
// The facts layer is below the device layer (docs/architecture.md), so it
// cannot ask the backends itself: the program sets a lister here (main.cpp
// sets the device layer's), and collect() calls it. Without one (the facts
// unit tests, the fuzz targets) the section says why it is unknown.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace movebench::facts {

// What a backend tells of one device; the facts layer makes the entry.
struct AcceleratorInfo {
  std::string backend;  // "cuda", "opencl"
  int index = 0;        // the backend's own device index (--device)
  std::string name;
  std::string type;         // "gpu", "accelerator", "cpu"
  double memory_bytes = 0;  // 0: not told
  // The memory's clock and data bus width where the backend tells them
  // (CUDA's attributes); 0: not told, and peak_why says why.
  double memory_clock_khz = 0;
  int memory_bus_bits = 0;
  std::string peak_source;  // the properties the clock and width came from
  std::string peak_why;
  std::string bus_id;  // "0000:00:06.0"; empty: bus_why says why
  std::string bus_why;
};

// DDR and HBM move data on both clock edges: clock x 2 x bus width / 8
// bytes per second. The one formula; the CUDA device's facts use it too.
double device_memory_peak(double memory_clock_khz, int memory_bus_bits);

// One SM's unified data cache (its L1 and shared memory in one array: the L1
// is what the kernel's shared-memory carve-out leaves of it) by CUDA compute
// capability, in bytes; 0 where the table has no row. No runtime attribute
// gives it (cudaDevAttrL2CacheSize is the L2's, and
// cudaDevAttrMaxSharedMemoryPerMultiprocessor the carve-out's largest), so
// the CUDA device names its L1 from this table, which kCudaSmDataCacheSource cites.
std::uint64_t cuda_sm_data_cache_bytes(int major, int minor);
extern const char* const kCudaSmDataCacheSource;

// {"backend", "index", "name", "type", "memory_bytes" (null: not told),
//  "memory_peak": {"bytes_per_second", "formula", "source"} or
//                 {"status": "unknown", "why"},
//  "bus_id" (null: "bus_id_why" says why)}
nlohmann::json accelerator_entry(const AcceleratorInfo& info);

// What a lister returns: {"status": "known", "devices": [entries of GPUs and
// accelerators], "cpu_devices": [entries of CPU devices: the host's own
// cores and DRAM, not listed as accelerators], "backends": [{"backend",
// "devices", "why"}]}, or {"status": "unknown", "why"}.
using AcceleratorLister = std::function<nlohmann::json()>;
void set_accelerator_lister(AcceleratorLister lister);

// The lister's answer, or {"status": "unknown", "why"} when none is set or
// it failed (the reason in one line).
nlohmann::json accelerator_facts();

// The table's Accelerators section, each device beside its PCIe link where
// `pcie` (pcie_facts) lists its bus id.
std::string accelerator_section(const nlohmann::json& accelerators, const nlohmann::json& pcie);

// The accelerators' names on the bus `bus_id` ("cuda NVIDIA H200"; empty
// when none), for the PCIe line of that bus.
std::string accelerators_on_bus(const nlohmann::json& accelerators, const std::string& bus_id);

}  // namespace movebench::facts
