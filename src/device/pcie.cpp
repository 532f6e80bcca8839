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
    return init && shutdown && by_bus_id && driver && uint_query[0] && uint_query[1] && uint_query[2] &&
           uint_query[3];
  }
  ~Nvml() {
    if (lib) dlclose(lib);
  }
};

constexpr int kNvmlSuccess = 0;
constexpr unsigned kNvlinkMaxLinks = 18;  // NVML_NVLINK_MAX_LINKS

// nvmlPciInfo_t as nvml.h lays it out (the _v3 query's).
struct NvmlPciInfo {
  char bus_id_legacy[16];
  unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
  char bus_id[32];
};

// The NVLink queries; a library without them (an old driver) has none.
struct NvmlLinks {
  int (*count)(unsigned*) = nullptr;
  int (*by_index)(unsigned, void**) = nullptr;
  int (*pci_info)(void*, NvmlPciInfo*) = nullptr;
  int (*state)(void*, unsigned, int*) = nullptr;
  int (*version)(void*, unsigned, unsigned*) = nullptr;
  template <class F>
  static void find(void* lib, F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(lib, name));
  }
  bool load(void* lib) {
    find(lib, count, "nvmlDeviceGetCount_v2");
    find(lib, by_index, "nvmlDeviceGetHandleByIndex_v2");
    find(lib, pci_info, "nvmlDeviceGetPciInfo_v3");
    find(lib, state, "nvmlDeviceGetNvLinkState");
    find(lib, version, "nvmlDeviceGetNvLinkVersion");
    return count && by_index && pci_info && state && version;
  }
};

// One GPU's links: queried from link 0 up until NVML refuses the index
// (past the GPU's last link) or says the GPU has no NVLink.
nlohmann::json gpu_links(const NvmlLinks& nvml, void* handle) {
  nlohmann::json links = nlohmann::json::array();
  int active_count = 0;
  for (unsigned link = 0; link < kNvlinkMaxLinks; ++link) {
    int active = 0;
    if (nvml.state(handle, link, &active) != kNvmlSuccess) break;
    nlohmann::json row = {{"link", link}, {"active", active != 0}};
    unsigned version = 0;
    if (nvml.version(handle, link, &version) == kNvmlSuccess) row["version"] = version;
    active_count += active != 0;
    links.push_back(row);
  }
  return {{"links_active", active_count}, {"links", links}};
}

nlohmann::json nvlink_devices(const NvmlLinks& nvml, unsigned count) {
  nlohmann::json out = {{"status", "none"}, {"source", "nvml (libnvidia-ml.so.1)"}, {"devices", nlohmann::json::array()}};
  int with_links = 0;
  for (unsigned i = 0; i < count; ++i) {
    void* handle = nullptr;
    NvmlPciInfo pci{};
    if (nvml.by_index(i, &handle) != kNvmlSuccess || nvml.pci_info(handle, &pci) != kNvmlSuccess) continue;
    pci.bus_id[sizeof pci.bus_id - 1] = '\0';
    auto gpu = gpu_links(nvml, handle);
    gpu["bus_id"] = normalize_bus_id(pci.bus_id);
    with_links += gpu["links_active"].get<int>() > 0;
    out["devices"].push_back(gpu);
  }
  if (with_links > 0) {
    out["status"] = "known";
  } else {
    out["why"] = fmt::format("NVML lists {} GPU(s), none with an active NVLink link", count);
  }
  return out;
}

}  // namespace

nlohmann::json nvlink_facts() {
  Nvml nvml;
  nvml.lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!nvml.lib) return {{"status", "unknown"}, {"why", "libnvidia-ml.so.1 not found"}};
  NvmlLinks links;
  nvml.init = reinterpret_cast<int (*)()>(dlsym(nvml.lib, "nvmlInit_v2"));
  nvml.shutdown = reinterpret_cast<int (*)()>(dlsym(nvml.lib, "nvmlShutdown"));
  if (!nvml.init || !nvml.shutdown || !links.load(nvml.lib)) {
    return {{"status", "unknown"}, {"why", "libnvidia-ml.so.1 has no NVLink queries (an older driver)"}};
  }
  if (const int r = nvml.init(); r != kNvmlSuccess) {
    return {{"status", "unknown"}, {"why", fmt::format("nvmlInit_v2 failed (NVML error {})", r)}};
  }
  unsigned count = 0;
  nlohmann::json out = links.count(&count) == kNvmlSuccess
                           ? nvlink_devices(links, count)
                           : nlohmann::json{{"status", "unknown"}, {"why", "nvmlDeviceGetCount_v2 failed"}};
  nvml.shutdown();
  return out;
}

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
