// mem latency --backend opencl|cuda (device_latency.cpp).
#pragma once
#include "core/output.hpp"
#include "core/report.hpp"
#include "device/device.hpp"
#include "mem/mem_options.hpp"

namespace movebench::mem {

// The pointer chase over opt.latency_sizes in the memory of `device`, one
// work-item chasing, timed on the device's clock; validation: every ring
// one cycle, every probe ending where the host's walk of it does.
void run_device_latency(const MemOptions& opt, device::Device& device, Report& report, Output& out);

}  // namespace movebench::mem
