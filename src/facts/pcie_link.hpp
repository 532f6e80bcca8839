// One PCIe link's arithmetic: the speed text parser, the generation and
// encoding table and the peak per direction. The one copy movebench has:
// device/pcie (link's facts) and the facts layer both use it.
#pragma once
#include <optional>
#include <string>

namespace movebench::facts {

// A generation's line code: what fraction of the raw bit rate carries data.
struct PcieEncoding {
  const char* name;  // "8b/10b", "128b/130b", "flit"
  double efficiency;
};

struct PcieLink {
  std::string bus_id;                       // "0000:17:00.0"
  double speed_gts = 0, max_speed_gts = 0;  // GT/s per lane; 0: unknown
  int gen = 0, max_gen = 0;                 // 0: unknown
  int width = 0, max_width = 0;             // lanes; 0: unknown
  int numa_node = -1;
  // Theoretical bytes per second per direction at the current setting.
  double bytes_per_second() const;
  bool below_max() const { return gen < max_gen || width < max_width; }
};

// "16.0 GT/s PCIe", "8GT/s", "2.5 GT/s" -> GT/s; 0 when unreadable.
double parse_link_speed(const std::string& text);
// 2.5 -> 1, 5 -> 2, 8 -> 3, 16 -> 4, 32 -> 5, 64 -> 6; 0 when not a PCIe rate.
int pcie_generation(double gts);
// The line code of a generation (1-6); nullopt for 0 or an unknown one.
std::optional<PcieEncoding> pcie_encoding(int gen);
// Bytes per second per direction of `width` lanes at `gts` GT/s after the
// encoding of that rate's generation; 0 when the rate or width is unknown.
double pcie_peak_bytes_per_second(double gts, int width);
// "0000:17:00.0" from "00000000:17:00.0" (CUDA's 8-digit domain), from
// "17:00.0" (lspci without -D: domain 0) or any case.
std::string normalize_bus_id(const std::string& bus_id);

// Reads <sysfs_root>/bus/pci/devices/<bus_id>/{current,max}_link_{speed,width}
// and numa_node; nullopt when the device or its link files are not there.
std::optional<PcieLink> read_pcie_link(const std::string& bus_id, const std::string& sysfs_root = "/sys");

}  // namespace movebench::facts
