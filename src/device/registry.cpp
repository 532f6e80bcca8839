#include "device/registry.hpp"

#include <fmt/format.h>

#include <exception>

#include "core/errors.hpp"
#include "core/vocabulary.hpp"
#include "device/nvml_links.hpp"

namespace movebench::device {

std::vector<std::string> known_backends() {
  std::vector<std::string> out;
  for (const auto& b : backends()) out.emplace_back(b.name);
  return out;
}

std::vector<std::string> built_backends() {
  std::vector<std::string> out;
  const auto& all = backends();
  for (auto it = all.rbegin(); it != all.rend(); ++it) {
    if (it->built()) out.emplace_back(it->name);
  }
  return out;
}

namespace {

std::unique_ptr<Device> open_named(const std::string& backend, const DeviceChoice& choice) {
  for (const auto& b : backends()) {
    if (b.built() && backend == b.name) return b.open(choice, false);
  }
  std::string list;
  for (const auto& b : built_backends()) list += (list.empty() ? "" : ", ") + b;
  throw UsageError(fmt::format("backend '{}' is not built into this movebench (built: {})", backend, list));
}

}  // namespace

std::unique_ptr<Device> open_device(const DeviceChoice& choice) {
  if (!choice.backend.empty()) return open_named(choice.backend, choice);
  // No choice: an accelerator when one is built and present, else the host.
  // A CPU OpenCL device (PoCL) is not an accelerator: it is asked for by name.
  const auto& all = backends();
  for (auto it = all.rbegin(); it != all.rend(); ++it) {
    if (!it->built()) continue;
    try {
      return it->open(choice, true);
    } catch (const UsageError&) {
    }
  }
  return open_named(std::string(vocabulary::kHostBackend), choice);
}

nlohmann::json list_accelerators() {
  std::vector<const Backend*> listers;
  for (const auto& b : backends()) {
    if (b.list_accelerators) listers.push_back(&b);
  }
  if (listers.empty()) {
    nlohmann::json out = {{"status", "unknown"},
                          {"why", "no accelerator backend is built into this movebench (host only)"}};
    out.update(nvml_interconnect_facts());  // "nvlink", "c2c"
    return out;
  }
  nlohmann::json out = {{"status", "known"},
                        {"devices", nlohmann::json::array()},
                        {"cpu_devices", nlohmann::json::array()},
                        {"backends", nlohmann::json::array()}};
  for (const Backend* b : listers) {
    nlohmann::json row = {{"backend", b->name}, {"devices", 0}};
    try {
      const auto found = b->list_accelerators();
      for (const char* part : {"devices", "cpu_devices"}) {
        for (const auto& d : found.value(part, nlohmann::json::array())) out[part].push_back(d);
      }
      row["devices"] = found.value("devices", nlohmann::json::array()).size();
    } catch (const std::exception& e) {
      row["why"] = e.what();
    }
    out["backends"].push_back(row);
  }
  // NVML is read whatever backend is built: the driver's library, loaded
  // at run time (device/nvml_links.cpp).
  out.update(nvml_interconnect_facts());  // "nvlink", "c2c"
  return out;
}

}  // namespace movebench::device
