// The backends movebench has a folder for, and how one is opened: one table,
// written by CMake (cmake/Registry.cmake) from the folders under
// src/backends/ (one per backend: its device, mem's kernels on it, the
// stream designs only it has). Nothing here names a backend but host, which
// is always built.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/named_values.hpp"
#include "device/device.hpp"

// The parts a backend gives the layers above this one are columns of the
// same table, so their types are named here; the device layer neither
// includes nor calls them (mem/device_kernels.hpp, stream/designs.hpp).
namespace movebench::mem {
class DeviceKernels;
}
namespace movebench::stream {
struct Design;
}

namespace movebench::device {

// Opens the backend's device that `choice` names. accelerators_only: GPUs
// and accelerators only (used when no backend was named); a backend
// without one throws UsageError. Every built backend defines
//   std::unique_ptr<Device> open_<name>_device(const DeviceChoice&, bool accelerators_only);
using BackendFactory = std::unique_ptr<Device>(const DeviceChoice& choice, bool accelerators_only);
// Lists the backend's devices for the facts' accelerators section
// (facts/accelerators.hpp): {"devices": [GPU and accelerator entries],
// "cpu_devices": [CPU device entries]}, each made by
// facts::accelerator_entry, without opening any (no context, no kernels).
// Throws with the reason when the backend finds none (no driver, no
// platform). A backend with accelerators defines
//   nlohmann::json list_<name>_accelerators();
using AcceleratorLister = nlohmann::json();
// mem's kernels (mem/device_kernels.hpp) for `device`, of this backend, and
// element type ("double" or "float"): `mem --backend <name>`. A backend
// with them defines mem::make_<name>_mem_kernels.
using MemKernelsMaker = std::unique_ptr<mem::DeviceKernels>(Device& device, const std::string& type);
// Appends the stream designs only this backend has to the design table
// (stream/designs.hpp). A backend with them defines stream::add_<name>_designs.
using DesignsAdder = void(std::vector<stream::Design>& table);

// One backend's row: what it gives each layer that asks a backend for
// something, null where it gives nothing, and every part null when the
// backend is not built (its toolkit missing or turned off).
struct Backend {
  const char* name;
  BackendFactory* open;
  AcceleratorLister* list_accelerators;
  MemKernelsMaker* mem_kernels;
  DesignsAdder* add_designs;
  bool built() const { return open != nullptr; }
};
// Every backend movebench has a folder for, built or not, in the order of
// src/backends/CMakeLists.txt (generated; defined in the backends layer,
// which every binary that opens a device links: movebench_backend_registry).
const std::vector<Backend>& backends();
// Their names: a name among them that is not built is "not built", not
// "unknown".
std::vector<std::string> known_backends();
// Every built backend's lister, in one facts section: {"status": "known",
// "devices", "cpu_devices", "backends": [{"backend", "devices", "why"}]},
// or {"status": "unknown", "why"} in a build with no accelerator backend.
// What main.cpp gives facts::set_accelerator_lister.
nlohmann::json list_accelerators();

// The backends compiled into this build, in preference order: the last
// added first (accelerators are added after host).
std::vector<std::string> built_backends();
// "host, opencl or cuda" (core/named_values.hpp), as device::or_list too.
using movebench::or_list;
// Opens the chosen device. With no backend named: the first backend, in
// preference order, that has an accelerator here, else the host backend.
// Throws UsageError (one clear line, exit 2) when the backend is not built
// or has no such device.
std::unique_ptr<Device> open_device(const DeviceChoice& choice);

}  // namespace movebench::device
