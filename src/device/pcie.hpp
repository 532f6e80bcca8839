// The facts that explain a link figure: PCIe generation and width (sysfs,
// and NVML when the driver has it, loaded at run time with dlopen so it is
// never a build or link dependency) and the device's NUMA node.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "facts/pcie_link.hpp"

namespace movebench::device {

// The link arithmetic and the sysfs reader live in the facts layer
// (facts/pcie_link.hpp): one copy of the speed parser, generation table and
// peak formula. Named here too, so link's code and tests keep their spelling.
using facts::normalize_bus_id;
using facts::parse_link_speed;
using facts::pcie_generation;
using facts::PcieLink;
using facts::read_pcie_link;

// The same from NVML (libnvidia-ml.so.1 via dlopen), plus the driver
// version; nullopt when NVML is absent or does not know the device.
std::optional<nlohmann::json> nvml_link_facts(const std::string& bus_id);

// JSON of a link, and one warning line when it runs below its maximum
// (empty when not).
nlohmann::json to_json(const PcieLink& link);
std::string below_max_warning(const PcieLink& link);

}  // namespace movebench::device
