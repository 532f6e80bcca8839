// nic_facts: /sys/class/net/*/speed and /sys/class/infiniband/*/ports/*/rate.
#include "facts/nic.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "core/host_info.hpp"
#include "facts/facts.hpp"
#include "facts/pcie_link.hpp"

namespace movebench::facts {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> sorted_dirs(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

bool is_bus_id(const std::string& name) {
  return name.size() == 12 && name[4] == ':' && name[7] == ':' && name[10] == '.';
}

// The PCI device behind a class device: its `device` link's target name
// ("0000:17:00.0"), or that target's parent's (a virtio NIC's device is
// virtio0, below its PCI function); empty when it has none or is not PCI.
std::string pci_bus_id(const fs::path& class_dir) {
  std::error_code ec;
  const fs::path target = fs::canonical(class_dir / "device", ec);
  if (ec) return {};
  if (is_bus_id(target.filename().string())) return target.filename().string();
  const std::string parent = target.parent_path().filename().string();
  return is_bus_id(parent) ? parent : std::string();
}

nlohmann::json ethernet_json(const fs::path& dir) {
  const std::string name = dir.filename().string();
  // ARPHRD_INFINIBAND (32, linux/if_arp.h): an IPoIB interface of an HCA.
  const bool ipoib = first_line_or_empty(dir / "type") == "32";
  nlohmann::json j = {{"name", name},
                      {"kind", ipoib ? "infiniband" : "ethernet"},
                      {"port", nullptr},
                      {"bus_id", pci_bus_id(dir)},
                      {"state", first_line_or_empty(dir / "operstate")},
                      {"source", "sysfs /sys/class/net/" + name + "/speed"}};
  const std::string speed_text = first_line_or_empty(dir / "speed");  // Mb/s; -1 or unreadable when down
  char* end = nullptr;
  const double mbps = std::strtod(speed_text.c_str(), &end);
  if (end == speed_text.c_str() || !std::isfinite(mbps) || mbps <= 0) {
    j["status"] = "unknown";
    j["why"] = "the interface reports no speed (link down, or a driver that does not say)";
    j["rate_bits_per_second"] = nullptr;
    j["peak_bytes_per_second"] = nullptr;
    return j;
  }
  j["rate_bits_per_second"] = mbps * 1e6;
  j["peak_bytes_per_second"] = mbps * 1e6 / 8;  // Ethernet's speed is its data rate (the PCS encoding is below it)
  return j;
}

nlohmann::json ib_port_json(const fs::path& device_dir, const fs::path& port_dir) {
  const std::string device = device_dir.filename().string();
  const std::string port = port_dir.filename().string();
  nlohmann::json j = {{"name", device},
                      {"kind", "infiniband"},
                      {"port", std::atoi(port.c_str())},
                      {"bus_id", pci_bus_id(device_dir)},
                      {"link_layer", first_line_or_empty(port_dir / "link_layer")},
                      {"state", first_line_or_empty(port_dir / "state")},
                      {"source", "sysfs /sys/class/infiniband/" + device + "/ports/" + port + "/rate"}};
  const std::string rate_text = first_line_or_empty(port_dir / "rate");
  const auto rate = parse_ib_rate(rate_text);
  if (!rate) {
    j["status"] = "unknown";
    j["why"] = "the port's rate is unreadable ('" + rate_text.substr(0, 40) + "')";
    j["rate_bits_per_second"] = nullptr;
    j["peak_bytes_per_second"] = nullptr;
    return j;
  }
  j["rate_text"] = rate_text;
  j["rate_bits_per_second"] = rate->signal_bits_per_second;
  j["data_bits_per_second"] = rate->data_bits_per_second;
  j["encoding"] = rate->encoding;
  j["peak_bytes_per_second"] = rate->data_bits_per_second / 8;
  return j;
}

}  // namespace

// The kernel reports SDR, DDR and QDR at their signalling rate (2.5, 5, 10
// Gb/s a lane, 8b/10b encoded: 80% is data) and FDR at 14 Gb/s a lane
// (14.0625 GBd, 64b/66b); FDR10, EDR, HDR, NDR and XDR at their data rate (EDR:
// 25.78125 GBd x 64/66 = 25 Gb/s). Sources: InfiniBand Architecture
// Specification Vol. 2 Rel. 1.4 (IBTA, 2020), chapter 5 "Physical layer";
// the kernel's ib_rate table (include/rdma/ib_verbs.h, drivers/infiniband/core/sysfs.c).
std::optional<IbRate> parse_ib_rate(const std::string& text) {
  char* end = nullptr;
  const double gbps = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !std::isfinite(gbps) || gbps <= 0 || gbps > 1e5) return std::nullopt;
  if (std::string(end).rfind(" Gb/sec", 0) != 0) return std::nullopt;
  IbRate rate;
  rate.signal_bits_per_second = gbps * 1e9;
  rate.data_bits_per_second = rate.signal_bits_per_second;
  rate.encoding = "as reported";
  for (const char* speed : {"SDR", "DDR", "QDR", "FDR10", "FDR", "EDR", "HDR", "NDR", "XDR"}) {
    if (text.find(std::string(" ") + speed + ")") != std::string::npos) {
      rate.speed = speed;
      break;
    }
  }
  if (rate.speed == "SDR" || rate.speed == "DDR" || rate.speed == "QDR") {
    rate.data_bits_per_second *= 8.0 / 10.0, rate.encoding = "8b/10b";
  } else if (rate.speed == "FDR") {
    rate.data_bits_per_second *= 64.0 / 66.0, rate.encoding = "64b/66b";
  } else if (!rate.speed.empty()) {
    rate.encoding = "64b/66b or PAM4 FEC (kernel gives the data rate)";
  }
  return rate;
}

nlohmann::json nic_facts(const Sources& sources) {
  nlohmann::json nics = nlohmann::json::array();
  for (const auto& dir : sorted_dirs(fs::path(sources.sysfs_root) / "class/net")) {
    // lo and virtual interfaces (bridges, bonds, veth, tunnels) have no device.
    std::error_code ec;
    if (dir.filename() == "lo" || !fs::exists(dir / "device", ec)) continue;
    nics.push_back(ethernet_json(dir));
  }
  for (const auto& device : sorted_dirs(fs::path(sources.sysfs_root) / "class/infiniband")) {
    for (const auto& port : sorted_dirs(device / "ports")) nics.push_back(ib_port_json(device, port));
  }
  return nics;
}

}  // namespace movebench::facts
