// The backends of this build and how one is opened. The table is written by
// CMake (cmake/Registry.cmake) from the backend folders it built: a backend
// is a folder under src/device/ whose CMakeLists.txt calls
// movebench_device_backend(<name> ...) and whose code defines
//   std::unique_ptr<Device> open_<name>_device(const DeviceChoice&, bool accelerators_only);
// Nothing here names a backend but host, which is always built.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "device/device.hpp"

namespace movebench::device {

// One part a backend adds to a registry (here its factory; stream and mem
// keep registries of their own of the same shape): the backend's name and
// its function, in the order of src/device/CMakeLists.txt.
template <class Function>
struct Registered {
  const char* backend;
  Function* function;
};

// Opens the backend's device that `choice` names. accelerators_only: GPUs
// and accelerators only (used when no backend was named); a backend
// without one throws UsageError.
using BackendFactory = std::unique_ptr<Device>(const DeviceChoice& choice, bool accelerators_only);
// The backends built, in the order src/device/CMakeLists.txt adds them (generated).
const std::vector<Registered<BackendFactory>>& backend_factories();
// Lists the backend's devices for the facts' accelerators section
// (facts/accelerators.hpp): {"devices": [GPU and accelerator entries],
// "cpu_devices": [CPU device entries]}, each made by
// facts::accelerator_entry, without opening any (no context, no kernels).
// Throws with the reason when the backend finds none (no driver, no
// platform). Every built backend but host defines
//   nlohmann::json list_<name>_accelerators();
using AcceleratorLister = nlohmann::json();
// The built backends' listers, host left out (generated).
const std::vector<Registered<AcceleratorLister>>& accelerator_listers();
// Every lister's devices in one facts section: {"status": "known",
// "devices", "cpu_devices", "backends": [{"backend", "devices", "why"}]},
// or {"status": "unknown", "why"} in a build with no accelerator backend.
// What main.cpp gives facts::set_accelerator_lister.
nlohmann::json list_accelerators();
// Every backend movebench has a folder for, built or not (generated): a
// name among them that is not built is "not built", not "unknown".
const std::vector<std::string>& known_backends();

// The backends compiled into this build, in preference order: the last
// added first (accelerators are added after host).
std::vector<std::string> built_backends();
// "host, opencl or cuda": `names` for help and error text.
std::string or_list(const std::vector<std::string>& names);
// Opens the chosen device. With no backend named: the first backend, in
// preference order, that has an accelerator here, else the host backend.
// Throws UsageError (one clear line, exit 2) when the backend is not built
// or has no such device.
std::unique_ptr<Device> open_device(const DeviceChoice& choice);

}  // namespace movebench::device
