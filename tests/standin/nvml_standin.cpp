// A stand-in for NVIDIA's libnvidia-ml.so.1 (built with that soname in the
// build's tests/nvml/), so the NVLink and C2C facts
// (src/device/nvml_links.cpp) are tested where no NVIDIA driver is:
// tests/integration/test_facts.py puts its folder on LD_LIBRARY_PATH. Only
// the entry points nvml_interconnect_facts() loads, with nvml.h's C
// signatures. What it reports is read from MOVEBENCH_NVML_STANDIN: GPUs
// separated by ';', each "BUS_ID=L0,L1,...[/c2c=C0,C1,...][/name=NAME]":
// an NVLink value above 0 is an active link of that NVLink version, 0 an
// inactive one; a GPU with no values has no NVLink (NOT_SUPPORTED). A C2C
// value is an active link of that many MB/s (NVML_FI_DEV_C2C_LINK_GET_MAX_BW),
// 0 an inactive one, '-' an active one whose bandwidth NVML does not give;
// a GPU without "/c2c=" has no C2C (C2C mode and the link count
// NOT_SUPPORTED, as on a PCIe GPU). NAME is nvmlDeviceGetName's.
// MOVEBENCH_NVML_STANDIN_INIT=N makes nvmlInit_v2 return N.
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int kSuccess = 0, kInvalidArgument = 2, kNotSupported = 3;
constexpr long kBandwidthNotGiven = -1;

struct Gpu {
  std::string bus_id;
  std::vector<unsigned> links;
  bool c2c = false;
  std::vector<long> c2c_links;  // MB/s; 0 inactive; kBandwidthNotGiven
  std::string name = "NVIDIA Stand-in GPU";
};

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, by)) out.push_back(item);
  return out;
}

// "BUS=L0,L1/c2c=C0,C1/name=NAME"
Gpu gpu_of_spec(const std::string& item) {
  const auto parts = split(item, '/');
  const auto eq = parts[0].find('=');
  Gpu g;
  g.bus_id = parts[0].substr(0, eq);
  if (eq != std::string::npos) {
    for (const auto& v : split(parts[0].substr(eq + 1), ',')) g.links.push_back(static_cast<unsigned>(std::stoul(v)));
  }
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (parts[i].rfind("name=", 0) == 0) g.name = parts[i].substr(5);
    if (parts[i].rfind("c2c=", 0) != 0) continue;
    g.c2c = true;
    for (const auto& v : split(parts[i].substr(4), ',')) {
      g.c2c_links.push_back(v == "-" ? kBandwidthNotGiven : std::stol(v));
    }
  }
  return g;
}

const std::vector<Gpu>& gpus() {
  static const std::vector<Gpu> all = [] {
    std::vector<Gpu> out;
    const char* spec = std::getenv("MOVEBENCH_NVML_STANDIN");
    for (const auto& item : split(spec ? spec : "", ';')) out.push_back(gpu_of_spec(item));
    return out;
  }();
  return all;
}

const Gpu* gpu_of(void* handle) { return static_cast<const Gpu*>(handle); }

int link_of(void* handle, unsigned link, unsigned& value) {
  const Gpu* g = gpu_of(handle);
  if (!g) return kInvalidArgument;
  if (g->links.empty()) return kNotSupported;
  if (link >= g->links.size()) return kInvalidArgument;
  value = g->links[link];
  return kSuccess;
}

}  // namespace

struct PciInfo {
  char bus_id_legacy[16];
  unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
  char bus_id[32];
};

// nvmlFieldValue_t (nvml.h).
struct FieldValue {
  unsigned field_id, scope_id;
  long long timestamp, latency_usec;
  int value_type, nvml_return;
  union {
    double d;
    unsigned ui;
    unsigned long long ull;
  } value;
};

namespace {

// One C2C field of a GPU: NVML_FI_DEV_C2C_LINK_COUNT (170), _GET_STATUS
// (171), _GET_MAX_BW (172), each link's in the scope id.
int c2c_field(const Gpu& g, FieldValue& f) {
  f.value_type = 1;  // NVML_VALUE_TYPE_UNSIGNED_INT
  if (!g.c2c) return kNotSupported;
  const bool in_range = f.scope_id < g.c2c_links.size();
  switch (f.field_id) {
    case 170: f.value.ui = static_cast<unsigned>(g.c2c_links.size()); return kSuccess;
    case 171:
      if (!in_range) return kInvalidArgument;
      f.value.ui = g.c2c_links[f.scope_id] != 0;
      return kSuccess;
    case 172:
      if (!in_range || g.c2c_links[f.scope_id] <= 0) return kNotSupported;
      f.value.ui = static_cast<unsigned>(g.c2c_links[f.scope_id]);
      return kSuccess;
    default: return kNotSupported;
  }
}

}  // namespace

extern "C" {

int nvmlInit_v2() {
  const char* r = std::getenv("MOVEBENCH_NVML_STANDIN_INIT");
  return r ? std::atoi(r) : kSuccess;
}
int nvmlShutdown() { return kSuccess; }
int nvmlDeviceGetCount_v2(unsigned* count) {
  *count = static_cast<unsigned>(gpus().size());
  return kSuccess;
}
int nvmlDeviceGetHandleByIndex_v2(unsigned index, void** handle) {
  if (index >= gpus().size()) return kInvalidArgument;
  *handle = const_cast<Gpu*>(&gpus()[index]);
  return kSuccess;
}
int nvmlDeviceGetPciInfo_v3(void* handle, PciInfo* pci) {
  std::memset(pci, 0, sizeof *pci);
  std::strncpy(pci->bus_id, gpu_of(handle)->bus_id.c_str(), sizeof pci->bus_id - 1);
  return kSuccess;
}
int nvmlDeviceGetNvLinkState(void* handle, unsigned link, int* active) {
  unsigned v = 0;
  const int r = link_of(handle, link, v);
  if (r == kSuccess) *active = v > 0;
  return r;
}
int nvmlDeviceGetNvLinkVersion(void* handle, unsigned link, unsigned* version) {
  unsigned v = 0;
  const int r = link_of(handle, link, v);
  if (r != kSuccess) return r;
  if (v == 0) return kNotSupported;  // an inactive link: no version
  *version = v;
  return kSuccess;
}

int nvmlDeviceGetName(void* handle, char* name, unsigned length) {
  if (!gpu_of(handle) || length == 0) return kInvalidArgument;
  std::strncpy(name, gpu_of(handle)->name.c_str(), length - 1);
  name[length - 1] = '\0';
  return kSuccess;
}
int nvmlDeviceGetFieldValues(void* handle, int count, FieldValue* values) {
  if (!gpu_of(handle) || count < 0) return kInvalidArgument;
  for (int i = 0; i < count; ++i) values[i].nvml_return = c2c_field(*gpu_of(handle), values[i]);
  return kSuccess;
}
int nvmlDeviceGetC2cModeInfoV(void* handle, unsigned* enabled) {
  if (!gpu_of(handle)) return kInvalidArgument;
  if (!gpu_of(handle)->c2c) return kNotSupported;
  *enabled = 1;
  return kSuccess;
}

}  // extern "C"
