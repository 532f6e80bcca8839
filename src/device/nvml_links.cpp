#include "device/nvml_links.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <cstring>

#include "facts/pcie_link.hpp"

namespace movebench::device {
namespace {

constexpr int kNvmlSuccess = 0;
constexpr unsigned kNvlinkMaxLinks = 18;  // NVML_NVLINK_MAX_LINKS
// nvml.h's field ids (NVML API reference, "Field Value Enums"); the link's
// index goes in the scope id of _GET_STATUS and _GET_MAX_BW.
constexpr unsigned kFieldC2cLinkCount = 170;   // NVML_FI_DEV_C2C_LINK_COUNT
constexpr unsigned kFieldC2cLinkStatus = 171;  // NVML_FI_DEV_C2C_LINK_GET_STATUS: 0 inactive, 1 active
constexpr unsigned kFieldC2cLinkMaxBw = 172;   // NVML_FI_DEV_C2C_LINK_GET_MAX_BW: MB/s of an active link
// No GPU has more; a larger count is a broken answer, not links to ask about.
constexpr unsigned kC2cMaxLinks = 64;

// nvmlPciInfo_t as nvml.h lays it out (the _v3 query's).
struct NvmlPciInfo {
  char bus_id_legacy[16];
  unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
  char bus_id[32];
};

// nvmlFieldValue_t as nvml.h lays it out: the value is a union of 8 bytes
// whose member valueType names (nvmlValueType_t).
struct NvmlFieldValue {
  unsigned field_id;
  unsigned scope_id;
  long long timestamp;
  long long latency_usec;
  int value_type;
  int nvml_return;
  union {
    double d;
    unsigned ui;
    unsigned long ul;
    unsigned long long ull;
    long long sll;
    int si;
    unsigned short us;
  } value;
};
static_assert(sizeof(NvmlFieldValue) == 40, "nvmlFieldValue_t is 40 bytes in nvml.h");

// The value as a number, by its type (NVML_VALUE_TYPE_DOUBLE 0, UNSIGNED_INT
// 1, UNSIGNED_LONG 2, UNSIGNED_LONG_LONG 3, SIGNED_LONG_LONG 4, SIGNED_INT
// 5, UNSIGNED_SHORT 6); -1 for a type nvml.h does not define.
double field_number(const NvmlFieldValue& f) {
  switch (f.value_type) {
    case 0: return f.value.d;
    case 1: return f.value.ui;
    case 2: return static_cast<double>(f.value.ul);
    case 3: return static_cast<double>(f.value.ull);
    case 4: return static_cast<double>(f.value.sll);
    case 5: return f.value.si;
    case 6: return f.value.us;
    default: return -1;
  }
}

// The library, closed when done.
struct Library {
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  ~Library() {
    if (lib) dlclose(lib);
  }
  template <class F>
  void find(F& f, const char* name) const {
    f = reinterpret_cast<F>(dlsym(lib, name));
  }
};

// The entry points, by their documented C signatures. A library without
// the NVLink or the C2C ones (an older driver) leaves those null.
struct NvmlCalls {
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  int (*count)(unsigned*) = nullptr;
  int (*by_index)(unsigned, void**) = nullptr;
  int (*pci_info)(void*, NvmlPciInfo*) = nullptr;
  int (*name)(void*, char*, unsigned) = nullptr;
  int (*state)(void*, unsigned, int*) = nullptr;
  int (*version)(void*, unsigned, unsigned*) = nullptr;
  int (*fields)(void*, int, NvmlFieldValue*) = nullptr;
  int (*c2c_mode)(void*, unsigned*) = nullptr;  // nvmlC2cModeInfo_v1_t: one unsigned, isC2cEnabled
  void load(const Library& l) {
    l.find(init, "nvmlInit_v2");
    l.find(shutdown, "nvmlShutdown");
    l.find(count, "nvmlDeviceGetCount_v2");
    l.find(by_index, "nvmlDeviceGetHandleByIndex_v2");
    l.find(pci_info, "nvmlDeviceGetPciInfo_v3");
    l.find(name, "nvmlDeviceGetName");
    l.find(state, "nvmlDeviceGetNvLinkState");
    l.find(version, "nvmlDeviceGetNvLinkVersion");
    l.find(fields, "nvmlDeviceGetFieldValues");
    l.find(c2c_mode, "nvmlDeviceGetC2cModeInfoV");
  }
  bool lists() const { return init && shutdown && count && by_index && pci_info; }
  bool nvlink() const { return state && version; }
};

nlohmann::json unknown(const std::string& why) { return {{"status", "unknown"}, {"why", why}}; }

// One GPU's NVLink links: queried from link 0 up until NVML refuses the
// index (past the GPU's last link) or says the GPU has no NVLink.
nlohmann::json gpu_nvlink(const NvmlCalls& nvml, void* handle) {
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

// One field value of the GPU (scope: the link); false where NVML does not
// give it.
bool field(const NvmlCalls& nvml, void* handle, unsigned id, unsigned scope, double& value) {
  NvmlFieldValue f{};
  f.field_id = id;
  f.scope_id = scope;
  if (nvml.fields(handle, 1, &f) != kNvmlSuccess || f.nvml_return != kNvmlSuccess) return false;
  value = field_number(f);
  return value >= 0;
}

// C2C mode as NVML says it; a GPU without C2C answers NOT_SUPPORTED.
void c2c_mode(const NvmlCalls& nvml, void* handle, nlohmann::json& gpu) {
  if (!nvml.c2c_mode) {
    gpu["mode_why"] = "this NVML has no nvmlDeviceGetC2cModeInfoV";
    return;
  }
  unsigned enabled = 0;
  if (const int r = nvml.c2c_mode(handle, &enabled); r != kNvmlSuccess) {
    gpu["mode_why"] = fmt::format("nvmlDeviceGetC2cModeInfoV: NVML error {}", r);
  } else {
    gpu["mode_enabled"] = enabled != 0;
  }
}

// One GPU's C2C links from the field values: each link's status and, for
// an active one, its bandwidth where NVML gives it.
nlohmann::json gpu_c2c(const NvmlCalls& nvml, void* handle) {
  nlohmann::json gpu = {{"links_active", 0}, {"links", nlohmann::json::array()}};
  c2c_mode(nvml, handle, gpu);
  double count = 0;
  if (!field(nvml, handle, kFieldC2cLinkCount, 0, count) || count > kC2cMaxLinks) {
    gpu["link_count"] = nullptr;
    gpu["links_why"] = "NVML gives no NVML_FI_DEV_C2C_LINK_COUNT for this GPU (no C2C)";
    return gpu;
  }
  gpu["link_count"] = static_cast<unsigned>(count);
  int active_count = 0;
  for (unsigned link = 0; link < static_cast<unsigned>(count); ++link) {
    double status = 0, mb = 0;
    const bool active = field(nvml, handle, kFieldC2cLinkStatus, link, status) && status == 1;
    nlohmann::json row = {{"link", link}, {"active", active}};
    if (active && field(nvml, handle, kFieldC2cLinkMaxBw, link, mb) && mb > 0) row["max_mb_per_second"] = mb;
    active_count += active;
    gpu["links"].push_back(row);
  }
  gpu["links_active"] = active_count;
  return gpu;
}

// "known" where some GPU has an active link of the kind, else "none" and why.
void settle(nlohmann::json& part, int with_links, unsigned count, const std::string& kind) {
  if (with_links > 0) {
    part["status"] = "known";
  } else {
    part["why"] = fmt::format("NVML lists {} GPU(s), none with an active {} link", count, kind);
  }
}

nlohmann::json gpu_links(const NvmlCalls& nvml, unsigned count) {
  const std::string source = "nvml (libnvidia-ml.so.1)";
  nlohmann::json nvlink = {{"status", "none"}, {"source", source}, {"devices", nlohmann::json::array()}};
  nlohmann::json c2c = {{"status", "none"},
                        {"source", source + ": NVML_FI_DEV_C2C_LINK_* field values"},
                        {"devices", nlohmann::json::array()}};
  int nvlink_gpus = 0, c2c_gpus = 0;
  for (unsigned i = 0; i < count; ++i) {
    void* handle = nullptr;
    NvmlPciInfo pci{};
    if (nvml.by_index(i, &handle) != kNvmlSuccess || nvml.pci_info(handle, &pci) != kNvmlSuccess) continue;
    pci.bus_id[sizeof pci.bus_id - 1] = '\0';
    const std::string bus = facts::normalize_bus_id(pci.bus_id);
    if (nvml.nvlink()) {
      auto gpu = gpu_nvlink(nvml, handle);
      gpu["bus_id"] = bus;
      nvlink_gpus += gpu["links_active"].get<int>() > 0;
      nvlink["devices"].push_back(gpu);
    }
    if (nvml.fields) {
      auto gpu = gpu_c2c(nvml, handle);
      gpu["bus_id"] = bus;
      char name[96] = {};
      if (nvml.name && nvml.name(handle, name, sizeof name - 1) == kNvmlSuccess) gpu["name"] = std::string(name);
      c2c_gpus += gpu["links_active"].get<int>() > 0;
      c2c["devices"].push_back(gpu);
    }
  }
  settle(nvlink, nvlink_gpus, count, "NVLink");
  settle(c2c, c2c_gpus, count, "C2C");
  if (!nvml.nvlink()) nvlink = unknown("libnvidia-ml.so.1 has no NVLink queries (an older driver)");
  if (!nvml.fields) c2c = unknown("libnvidia-ml.so.1 has no nvmlDeviceGetFieldValues (an older driver)");
  return {{"nvlink", nvlink}, {"c2c", c2c}};
}

}  // namespace

nlohmann::json nvml_interconnect_facts() {
  const auto both = [](const nlohmann::json& part) { return nlohmann::json{{"nvlink", part}, {"c2c", part}}; };
  const Library library;
  if (!library.lib) return both(unknown("libnvidia-ml.so.1 not found"));
  NvmlCalls nvml;
  nvml.load(library);
  if (!nvml.lists()) return both(unknown("libnvidia-ml.so.1 has no device listing (nvmlDeviceGetCount_v2 ...)"));
  if (const int r = nvml.init(); r != kNvmlSuccess) {
    return both(unknown(fmt::format("nvmlInit_v2 failed (NVML error {})", r)));
  }
  unsigned count = 0;
  nlohmann::json out =
      nvml.count(&count) == kNvmlSuccess ? gpu_links(nvml, count) : both(unknown("nvmlDeviceGetCount_v2 failed"));
  nvml.shutdown();
  return out;
}

}  // namespace movebench::device
