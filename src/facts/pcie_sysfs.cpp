// pcie_facts: the listed PCIe devices from sysfs, or from `lspci -vv` text.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/host_info.hpp"
#include "facts/facts.hpp"
#include "facts/lspci.hpp"
#include "facts/pcie_device.hpp"

namespace movebench::facts {
namespace {

namespace fs = std::filesystem;

// "0x10de" -> "10de"; empty when not a hex id.
std::string hex_id(const fs::path& path) {
  std::string text = first_line_or_empty(path);
  if (text.rfind("0x", 0) == 0) text = text.substr(2);
  return text.size() == 4 ? text : std::string();
}

// The port at the other end of the device's link: its parent in the sysfs
// device tree (bus/pci/devices/X links to devices/pci0000:00/<bridge>/X), when
// that parent is a PCI bridge with a link.
void read_upstream(const fs::path& device_dir, const std::string& sysfs_root, PcieDeviceFacts& d) {
  std::error_code ec;
  const fs::path parent = fs::canonical(device_dir, ec).parent_path();
  if (ec || !fs::exists(parent / "max_link_speed", ec)) return;
  const auto bridge = read_pcie_link(parent.filename().string(), sysfs_root);
  if (!bridge) return;
  d.upstream_bus_id = bridge->bus_id;
  d.upstream_max_speed_gts = bridge->max_speed_gts;
  d.upstream_max_width = bridge->max_width;
}

}  // namespace

nlohmann::json read_sysfs_pcie(const std::string& sysfs_root) {
  nlohmann::json devices = nlohmann::json::array();
  const fs::path root = fs::path(sysfs_root) / "bus/pci/devices";
  std::error_code ec;
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(root, ec)) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  for (const auto& dir : dirs) {
    PcieDeviceFacts d;
    const std::string class_text = first_line_or_empty(dir / "class");  // "0x030200": class, subclass, interface
    char* end = nullptr;
    const long class_value = std::strtol(class_text.c_str(), &end, 16);
    if (end == class_text.c_str()) continue;
    d.class_code = static_cast<int>(class_value >> 8);
    if (pcie_kind(d.class_code).empty()) continue;
    d.bus_id = normalize_bus_id(dir.filename().string());
    d.vendor_id = hex_id(dir / "vendor");
    d.device_id = hex_id(dir / "device");
    d.name = pcie_class_name(d.class_code);  // sysfs names no device: its class says what it is
    if (d.name.empty()) d.name = "PCI class " + class_text.substr(0, 6);
    if (auto link = read_pcie_link(d.bus_id, sysfs_root)) {
      d.link = *link;
      d.has_link = link->max_speed_gts > 0 || link->speed_gts > 0;
    } else {
      d.link.bus_id = d.bus_id;
      std::ifstream numa(dir / "numa_node");
      numa >> d.link.numa_node;
    }
    d.source = "sysfs";
    if (d.has_link) read_upstream(dir, sysfs_root, d);
    devices.push_back(to_json(d));
  }
  return devices;
}

nlohmann::json pcie_facts(const Sources& sources) {
  if (!sources.lspci_file.empty()) return parse_lspci(read_lspci_file(sources.lspci_file), sources.lspci_file);
  return read_sysfs_pcie(sources.sysfs_root);
}

}  // namespace movebench::facts
