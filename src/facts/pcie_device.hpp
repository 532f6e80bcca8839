// The PCIe devices the facts list (GPUs, accelerators, NICs, InfiniBand,
// NVMe), each with its link and the maximum of the port upstream of it, from
// sysfs or from `lspci -vv` text; one JSON builder for both sources, so the
// peak and the degraded verdict are computed once.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "facts/pcie_link.hpp"

namespace movebench::facts {

struct PcieDeviceFacts {
  std::string bus_id;                // "0000:17:00.0"
  int class_code = -1;               // base class and subclass: 0x0302
  std::string name;                  // lspci's name, else the class's name
  std::string vendor_id, device_id;  // "10de", "20b0"; empty when not given
  bool has_link = false;             // false: root complex integrated, or no PCIe capability
  PcieLink link;                     // current and maximum of the device's own port
  std::string upstream_bus_id;       // the bridge port at the other end; empty when unknown
  double upstream_max_speed_gts = 0;
  int upstream_max_width = 0;
  bool lspci_speed_downgraded = false, lspci_width_downgraded = false;  // lspci's own LnkSta markers
  std::string source;                                                   // "sysfs" or "lspci -vv FILE"
};

// "gpu", "accelerator", "nic", "infiniband", "nvme"; empty for a class the
// facts do not list (bridges, USB, audio ...).
std::string pcie_kind(int class_code);
// The PCI class's name ("3D controller"); empty when not in the table.
std::string pcie_class_name(int class_code);
// The class code of lspci's class text ("3D controller" -> 0x0302); -1 when unknown.
int pcie_class_from_name(std::string_view text);

// The JSON of one device (facts.hpp, pcie_facts): its link, peaks, and
// "degraded" with "why" when the link trained below what both ends support.
nlohmann::json to_json(const PcieDeviceFacts& device);

// Every listed device under <sysfs_root>/bus/pci/devices, "source": "sysfs".
nlohmann::json read_sysfs_pcie(const std::string& sysfs_root);

}  // namespace movebench::facts
