// mem's kernels in one programming model, on arrays in a device's own
// memory: what a backend's folder under src/backends/ (opencl/, cuda/) gives
// the device runner (device_runner.cpp), as BabelStream's models give its one
// driver, through its row of the backend registry (device/registry.hpp:
// mem_kernels). A backend without them has no `mem --backend`.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "device/device.hpp"
#include "mem/kernels.hpp"

namespace movebench::mem {

// The four arrays of TheBandwidthBenchmark (kernels.hpp binds them) and the
// reduction's partial sums, all device memory.
struct DeviceArrays {
  device::Buffer* a = nullptr;
  device::Buffer* b = nullptr;
  device::Buffer* c = nullptr;
  device::Buffer* d = nullptr;
  device::Buffer* partial = nullptr;  // partial_slots() accumulators
};

class DeviceKernels {
 public:
  virtual ~DeviceKernels() = default;
  // Enqueues one call of kernel k over elements [0, n) with scalar s (the
  // call's kernel_scalar, exact in double; unused by copy, sum, striad and
  // sdaxpy). Element i of every array is touched by the same arithmetic, in
  // the same order and rounding, as run_kernel and replay on the host: no
  // fused multiply-add. sum is a reduction on the device (BabelStream's
  // dot): each work-group adds up its share in its accumulator's type and
  // adds its total to its own slot of `partial`, so that the slots hold the
  // total of every sum call since they were cleared.
  virtual void enqueue(device::Queue& queue, Kernel k, const DeviceArrays& x, std::size_t n, double s) = 0;
  // Enqueues calls first_call .. first_call + passes - 1 of kernel k in one
  // launch (mem seq --backend: a cache-resident array measured, not the
  // launch), each call as enqueue's with its own kernel_scalar. A grid of
  // the device's resident size walks the arrays once per pass, each
  // work-item the same elements every pass, so no pass waits for another
  // work-item's elements; sum adds `passes` totals to its slots.
  virtual void enqueue_passes(device::Queue& queue, Kernel k, const DeviceArrays& x, std::size_t n,
                              std::uint64_t first_call, std::uint32_t passes) = 0;
  // The reduction's work-groups, one accumulator slot each.
  virtual std::size_t partial_slots() const = 0;
  // True when the accumulators are double (else float: a device without
  // double precision).
  virtual bool double_partials() const = 0;
  // "2 groups of 8, double accumulators": the reduction's shape, for the
  // header and the result file.
  virtual std::string reduction() const = 0;
  // Throws UsageError when four arrays of `array_bytes` do not fit.
  virtual void check_fits(std::uint64_t array_bytes) const = 0;
};

}  // namespace movebench::mem
