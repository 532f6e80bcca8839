// The factories of the backends compiled in (device.cpp picks among them).
#pragma once
#include <memory>

#include "link/device.hpp"

namespace movebench::link {

std::unique_ptr<Device> open_host_device(const DeviceChoice& choice);
#ifdef MOVEBENCH_HAVE_OPENCL
// accelerators_only: skip CPU devices (used when no backend was named).
std::unique_ptr<Device> open_opencl_device(const DeviceChoice& choice, bool accelerators_only);
#endif
#ifdef MOVEBENCH_HAVE_CUDA
std::unique_ptr<Device> open_cuda_device(const DeviceChoice& choice);
#endif

// Picks index `rank mod count` when `wanted` is empty and a launcher set a
// local rank, else index 0; `wanted` is an index or a name substring.
// Throws UsageError naming `what` when nothing matches.
int pick_index(const std::string& wanted, const std::vector<std::string>& names, const char* what);

}  // namespace movebench::link
