#include "facts/pcie_link.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include "core/system_file.hpp"

namespace movebench::facts {
namespace {

int read_int(const std::string& path, int fallback) {
  const std::string text = first_line_or_empty(path);
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  return end == text.c_str() ? fallback : static_cast<int>(v);
}

// Transfer rate per lane of each generation, GT/s (PCI-SIG base specifications
// 1.0a to 6.0).
constexpr double kGenerationRate[] = {2.5, 5, 8, 16, 32, 64};

}  // namespace

double parse_link_speed(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !std::isfinite(v) || v < 0) return 0;
  return v;
}

int pcie_generation(double gts) {
  for (int i = 0; i < 6; ++i) {
    if (std::abs(gts - kGenerationRate[i]) < 0.01) return i + 1;
  }
  return 0;
}

// Gen1-2 send 10 bits per byte (8b/10b); Gen3-5 add 2 sync bits per 128
// (128b/130b); Gen6 drops the line code (1b/1b, PAM4) and packs data into
// 256-byte FLITs of which 236 B are TLP, 6 B DLP, 8 B CRC and 6 B FEC: 242 of
// 256 bytes carry TLPs and DLLPs. Sources: PCI Express Base Specification
// 6.0 (PCI-SIG, 2022), section 4.2.3.1 "Flit mode"; D. Das Sharma, "PCI
// Express 6.0 Specification", IEEE Micro 43(1), 2023 (FLIT layout, Fig. 3).
std::optional<PcieEncoding> pcie_encoding(int gen) {
  if (gen == 1 || gen == 2) return PcieEncoding{"8b/10b", 8.0 / 10.0};
  if (gen >= 3 && gen <= 5) return PcieEncoding{"128b/130b", 128.0 / 130.0};
  if (gen == 6) return PcieEncoding{"flit", 242.0 / 256.0};
  return std::nullopt;
}

double pcie_peak_bytes_per_second(double gts, int width) {
  const auto encoding = pcie_encoding(pcie_generation(gts));
  if (!encoding || width <= 0) return 0;
  return gts * 1e9 * encoding->efficiency * width / 8.0;
}

double PcieLink::bytes_per_second() const { return pcie_peak_bytes_per_second(speed_gts, width); }

std::string normalize_bus_id(const std::string& bus_id) {
  std::string id = bus_id;
  std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return std::tolower(c); });
  const auto colon = id.find(':');
  if (colon == std::string::npos) return id;
  if (colon > 4) return id.substr(colon - 4);                                           // keep a 4-digit domain
  if (colon == 2 && id.find(':', colon + 1) == std::string::npos) return "0000:" + id;  // "17:00.0"
  return id;
}

std::optional<PcieLink> read_pcie_link(const std::string& bus_id, const std::string& sysfs_root) {
  PcieLink link;
  link.bus_id = normalize_bus_id(bus_id);
  const std::string dir = sysfs_root + "/bus/pci/devices/" + link.bus_id + "/";
  if (!std::ifstream(dir + "current_link_speed")) return std::nullopt;
  link.speed_gts = parse_link_speed(first_line_or_empty(dir + "current_link_speed"));
  link.max_speed_gts = parse_link_speed(first_line_or_empty(dir + "max_link_speed"));
  link.gen = pcie_generation(link.speed_gts);
  link.max_gen = pcie_generation(link.max_speed_gts);
  link.width = read_int(dir + "current_link_width", 0);
  link.max_width = read_int(dir + "max_link_width", 0);
  link.numa_node = read_int(dir + "numa_node", -1);
  return link;
}

}  // namespace movebench::facts
