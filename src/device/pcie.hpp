// The facts that explain a link figure: PCIe generation and width (sysfs,
// and NVML when the driver has it, loaded at run time with dlopen so it is
// never a build or link dependency) and the device's NUMA node.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace movebench::device {

struct PcieLink {
  std::string bus_id;  // "0000:17:00.0"
  double speed_gts = 0, max_speed_gts = 0;  // GT/s per lane
  int gen = 0, max_gen = 0;
  int width = 0, max_width = 0;
  int numa_node = -1;
  // Theoretical bytes per second per direction at the current setting.
  double bytes_per_second() const;
  bool below_max() const { return gen < max_gen || width < max_width; }
};

// "16.0 GT/s PCIe" -> 16.0; 0 when unreadable.
double parse_link_speed(const std::string& text);
// 2.5 -> 1, 5 -> 2, 8 -> 3, 16 -> 4, 32 -> 5, 64 -> 6; 0 when unknown.
int pcie_generation(double gts);
// "0000:17:00.0" from "00000000:17:00.0" (CUDA's 8-digit domain) or any case.
std::string normalize_bus_id(const std::string& bus_id);

// Reads <sysfs_root>/bus/pci/devices/<bus_id>/{current,max}_link_{speed,width}
// and numa_node; nullopt when the device is not there.
std::optional<PcieLink> read_pcie_link(const std::string& bus_id, const std::string& sysfs_root = "/sys");

// The same from NVML (libnvidia-ml.so.1 via dlopen), plus the driver
// version; nullopt when NVML is absent or does not know the device.
std::optional<nlohmann::json> nvml_link_facts(const std::string& bus_id);

// JSON of a link, and one warning line when it runs below its maximum
// (empty when not).
nlohmann::json to_json(const PcieLink& link);
std::string below_max_warning(const PcieLink& link);

}  // namespace movebench::device
