#include "device/pcie.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

namespace movebench::device {

nlohmann::json to_json(const PcieLink& link) {
  return {{"bus_id", link.bus_id},
          {"generation", link.gen},
          {"max_generation", link.max_gen},
          {"speed_gts", link.speed_gts},
          {"max_speed_gts", link.max_speed_gts},
          {"width", link.width},
          {"max_width", link.max_width},
          {"numa_node", link.numa_node},
          {"theoretical_bytes_per_second_per_direction", link.bytes_per_second()},
          {"source", "sysfs"}};
}

std::string below_max_warning(const PcieLink& link) {
  if (!link.below_max()) return {};
  return fmt::format(
      "warning: PCIe link {} runs at Gen{} x{} below its maximum Gen{} x{} (GPUs lower it when idle; "
      "a figure far below the theory may come from a slot, riser or BIOS setting)",
      link.bus_id, link.gen, link.width, link.max_gen, link.max_width);
}

namespace {

// The few NVML entry points used, by their documented C signatures.
struct Nvml {
  void* lib = nullptr;
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  int (*by_bus_id)(const char*, void**) = nullptr;
  int (*uint_query[4])(void*, unsigned*) = {};
  int (*driver)(char*, unsigned) = nullptr;
  bool load() {
    lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return false;
    init = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlInit_v2"));
    shutdown = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlShutdown"));
    by_bus_id = reinterpret_cast<int (*)(const char*, void**)>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    const char* names[4] = {"nvmlDeviceGetCurrPcieLinkGeneration", "nvmlDeviceGetMaxPcieLinkGeneration",
                            "nvmlDeviceGetCurrPcieLinkWidth", "nvmlDeviceGetMaxPcieLinkWidth"};
    for (int i = 0; i < 4; ++i) uint_query[i] = reinterpret_cast<int (*)(void*, unsigned*)>(dlsym(lib, names[i]));
    driver = reinterpret_cast<int (*)(char*, unsigned)>(dlsym(lib, "nvmlSystemGetDriverVersion"));
    return init && shutdown && by_bus_id && driver && uint_query[0] && uint_query[1] && uint_query[2] && uint_query[3];
  }
  ~Nvml() {
    if (lib) dlclose(lib);
  }
};

}  // namespace

std::optional<nlohmann::json> nvml_link_facts(const std::string& bus_id) {
  Nvml nvml;
  if (!nvml.load() || nvml.init() != 0) return std::nullopt;
  std::optional<nlohmann::json> out;
  void* handle = nullptr;
  if (nvml.by_bus_id(bus_id.c_str(), &handle) == 0) {
    const char* keys[4] = {"generation", "max_generation", "width", "max_width"};
    nlohmann::json j = {{"source", "nvml"}};
    for (int i = 0; i < 4; ++i) {
      unsigned v = 0;
      if (nvml.uint_query[i](handle, &v) == 0) j[keys[i]] = v;
    }
    char version[96] = {};
    if (nvml.driver(version, sizeof version) == 0) j["driver_version"] = version;
    out = j;
  }
  nvml.shutdown();
  return out;
}

}  // namespace movebench::device
