#include "facts/pcie_device.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

namespace movebench::facts {
namespace {

struct ClassName {
  int code;
  const char* name;  // as pci.ids (and so lspci) spells it
};

// The classes lspci names that the facts need: the listed kinds and the
// bridges that give the topology (pci.ids, "C" lines).
constexpr std::array<ClassName, 13> kClassNames{{
    {0x0108, "Non-Volatile memory controller"},
    {0x0200, "Ethernet controller"},
    {0x0207, "Infiniband controller"},
    {0x0208, "Fabric controller"},
    {0x0280, "Network controller"},
    {0x0300, "VGA compatible controller"},
    {0x0301, "XGA compatible controller"},
    {0x0302, "3D controller"},
    {0x0380, "Display controller"},
    {0x0604, "PCI bridge"},
    {0x0c06, "InfiniBand"},
    {0x1200, "Processing accelerators"},
    {0x1201, "SNIA Smart Data Accelerator Interface (SDXI) controller"},
}};

std::string gen_text(double gts, int width) {
  const int gen = pcie_generation(gts);
  return fmt::format("{} GT/s (Gen{}) x{}", gts, gen, width);
}

// The best both ends can train to: the lower of each end's maximum (an end
// whose maximum is unknown does not limit).
std::pair<double, int> attainable(const PcieDeviceFacts& d) {
  double speed = d.link.max_speed_gts;
  int width = d.link.max_width;
  if (d.upstream_max_speed_gts > 0) speed = speed > 0 ? std::min(speed, d.upstream_max_speed_gts) : 0;
  if (d.upstream_max_width > 0) width = width > 0 ? std::min(width, d.upstream_max_width) : 0;
  return {speed, width};
}

// One line: why the link is degraded; empty when it is not.
std::string degraded_reason(const PcieDeviceFacts& d) {
  const auto [speed, width] = attainable(d);
  const bool slow = d.link.speed_gts > 0 && speed > 0 && d.link.speed_gts < speed;
  const bool narrow = d.link.width > 0 && width > 0 && d.link.width < width;
  if (!slow && !narrow) return {};
  const std::string now = gen_text(d.link.speed_gts, d.link.width);
  std::string why;
  if (!d.upstream_bus_id.empty()) {
    why = fmt::format("trained at {}, below the {} both ends support (device max {}, upstream port {} max {})", now,
                      gen_text(speed, width), gen_text(d.link.max_speed_gts, d.link.max_width), d.upstream_bus_id,
                      gen_text(d.upstream_max_speed_gts, d.upstream_max_width));
  } else {
    why = fmt::format(
        "trained at {}, below the device's own maximum {} (the upstream port's maximum is not known: compared "
        "with the device alone)",
        now, gen_text(speed, width));
  }
  // An idle GPU lowers its link speed to save power (not its width).
  if (slow && !narrow && pcie_kind(d.class_code) == "gpu") why += "; an idle GPU lowers its speed: read it under load";
  return why;
}

nlohmann::json upstream_json(const PcieDeviceFacts& d) {
  if (d.upstream_bus_id.empty()) return nullptr;
  return {{"bus_id", d.upstream_bus_id},
          {"max_speed_gts", d.upstream_max_speed_gts},
          {"max_gen", pcie_generation(d.upstream_max_speed_gts)},
          {"max_width", d.upstream_max_width}};
}

nlohmann::json peak_or_null(double gts, int width) {
  const double peak = pcie_peak_bytes_per_second(gts, width);
  return peak > 0 ? nlohmann::json(peak) : nlohmann::json(nullptr);
}

void add_link(nlohmann::json& j, const PcieDeviceFacts& d) {
  const auto encoding = pcie_encoding(d.link.gen);
  const auto [speed, width] = attainable(d);
  j["speed_gts"] = d.link.speed_gts;
  j["width"] = d.link.width;
  j["max_speed_gts"] = d.link.max_speed_gts;
  j["max_width"] = d.link.max_width;
  j["gen"] = d.link.gen;
  j["max_gen"] = d.link.max_gen;
  j["encoding"] = encoding ? nlohmann::json(encoding->name) : nlohmann::json(nullptr);
  j["peak_bytes_per_second"] = peak_or_null(d.link.speed_gts, d.link.width);
  j["max_peak_bytes_per_second"] = peak_or_null(d.link.max_speed_gts, d.link.max_width);
  j["attainable_peak_bytes_per_second"] = peak_or_null(speed, width);
  j["upstream"] = upstream_json(d);
  const std::string why = degraded_reason(d);
  j["degraded"] = !why.empty();
  if (!why.empty()) j["why"] = why;
}

}  // namespace

std::string pcie_kind(int class_code) {
  if (class_code < 0) return {};
  const int base = class_code >> 8;
  if (base == 0x03) return "gpu";
  if (base == 0x12) return "accelerator";
  if (class_code == 0x0207 || class_code == 0x0c06) return "infiniband";
  if (base == 0x02) return "nic";
  if (class_code == 0x0108) return "nvme";
  return {};
}

std::string pcie_class_name(int class_code) {
  for (const auto& c : kClassNames) {
    if (c.code == class_code) return c.name;
  }
  return {};
}

int pcie_class_from_name(std::string_view text) {
  for (const auto& c : kClassNames) {
    if (text == c.name) return c.code;
  }
  return -1;
}

nlohmann::json to_json(const PcieDeviceFacts& d) {
  nlohmann::json j = {{"bus_id", d.bus_id},
                      {"kind", pcie_kind(d.class_code)},
                      {"class", fmt::format("0x{:04x}", d.class_code < 0 ? 0 : d.class_code)},
                      {"name", d.name},
                      {"numa_node", d.link.numa_node >= 0 ? nlohmann::json(d.link.numa_node) : nullptr},
                      {"has_link", d.has_link}};
  if (!d.vendor_id.empty()) j["vendor_id"] = d.vendor_id;
  if (!d.device_id.empty()) j["device_id"] = d.device_id;
  if (d.has_link) {
    add_link(j, d);
  } else {
    j["degraded"] = false;
  }
  if (d.source != "sysfs") j["lspci_downgraded"] = d.lspci_speed_downgraded || d.lspci_width_downgraded;
  j["source"] = d.source;
  return j;
}

}  // namespace movebench::facts
