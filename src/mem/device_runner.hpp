// mem --backend opencl|cuda (device_runner.cpp).
#pragma once
#include "core/output.hpp"
#include "core/report.hpp"
#include "device/device.hpp"
#include "mem/mem_options.hpp"

namespace movebench::mem {

// Opens opt.choice's device and runs opt.mode there: bandwidth or seq on
// four arrays in its memory, or latency's chase (device_latency.hpp). Throws UsageError when the backend is not built,
// has no such device, or has no mem kernels. The text goes to `out`.
void run_on_device(const MemOptions& opt, Report& report, Output& out);
// The same on a device already open (movebench node measures each device
// it opened once); throws UsageError when its backend has no mem kernels.
void run_on_device(const MemOptions& opt, device::Device& device, Report& report, Output& out);

}  // namespace movebench::mem
