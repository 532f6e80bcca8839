// A stand-in for NVIDIA's libnvidia-ml.so.1 (built with that soname in the
// build's tests/nvml/), so the NVLink facts (src/device/pcie.cpp) are
// tested where no NVIDIA driver is: tests/integration/test_facts.py puts
// its folder on LD_LIBRARY_PATH. Only the entry points nvlink_facts()
// loads, with nvml.h's C signatures. What it reports is read from
// MOVEBENCH_NVML_STANDIN: GPUs separated by ';', each "BUS_ID=L0,L1,...":
// a link value above 0 is an active link of that NVLink version, 0 an
// inactive one; a GPU with no values has no NVLink (NOT_SUPPORTED).
// MOVEBENCH_NVML_STANDIN_INIT=N makes nvmlInit_v2 return N.
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int kSuccess = 0, kInvalidArgument = 2, kNotSupported = 3;

struct Gpu {
  std::string bus_id;
  std::vector<unsigned> links;
};

const std::vector<Gpu>& gpus() {
  static const std::vector<Gpu> all = [] {
    std::vector<Gpu> out;
    const char* spec = std::getenv("MOVEBENCH_NVML_STANDIN");
    std::stringstream in(spec ? spec : "");
    std::string item;
    while (std::getline(in, item, ';')) {
      const auto eq = item.find('=');
      Gpu g{item.substr(0, eq), {}};
      std::stringstream links(eq == std::string::npos ? "" : item.substr(eq + 1));
      std::string v;
      while (std::getline(links, v, ',')) g.links.push_back(static_cast<unsigned>(std::stoul(v)));
      out.push_back(g);
    }
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

}  // extern "C"
