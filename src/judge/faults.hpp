// What the facts say is wrong on a path (a degraded verdict), and which
// settings could explain a low one (verdict.hpp).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace movebench::judge {

// The faults on the path of `peak` (figure_peaks()), one line each; empty: none.
//   dram: facts.dram.faults of kind empty_channels, clocked_down, mixed_speeds;
//   pcie: the facts' entry of the device flagged degraded, or else the
//         document's link_device.pcie below its maximum width or generation
//         when the figure does not exceed what the link as read could carry
//         (a GPU lowers its link when idle: a figure above the lowered rate
//         shows it ran faster while measured);
//   c2c: NVLink-C2C links NVML lists inactive on the document's link device;
//   network: a NIC flagged degraded (facts.pcie kind "nic", facts.nics).
nlohmann::json path_faults(const nlohmann::json& doc, const nlohmann::json& facts, const nlohmann::json& peak,
                           const nlohmann::json& figure);

// The warnings of facts.settings (THP never, governor powersave, boost off,
// a VM, a cgroup CPU quota ...), in key order.
std::vector<std::string> setting_warnings(const nlohmann::json& facts);

}  // namespace movebench::judge
