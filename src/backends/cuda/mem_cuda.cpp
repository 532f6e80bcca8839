// mem's kernels on the CUDA backend: device pointers and streams from the
// backend's own header, launches from mem_kernels.cu.
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <array>

#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/mem_kernels.hpp"
#include "core/errors.hpp"
#include "mem/device_kernels.hpp"

namespace movebench::mem {
namespace {

using device::cuda::cb;
using device::cuda::check;
using device::cuda::CudaQueue;

class CudaMemKernels : public DeviceKernels {
 public:
  CudaMemKernels(device::Device& dev, const std::string& type) : name_(dev.name()), single_(type == "float") {
    int index = 0, sms = 1;
    check(cudaGetDevice(&index), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, index), "SM count");
    blocks_ = 4 * sms;    // BabelStream's reduction: four blocks per SM
    resident_ = 8 * sms;  // blocks of 256 resident at once: 2048 threads per SM (sm_70 and later)
    for (std::uint32_t j = 0; j < kScalarPeriod; ++j) {
      for (std::size_t k = 0; k < kKernelCount; ++k) {
        wide_[k][j] = kernel_scalar<double>(static_cast<Kernel>(k), j);
        narrow_[k][j] = kernel_scalar<float>(static_cast<Kernel>(k), j);
      }
    }
  }

  void enqueue(device::Queue& queue, Kernel k, const DeviceArrays& x, std::size_t n, double s) override {
    const cudaStream_t stream = static_cast<CudaQueue&>(queue).get();
    auto* partial = reinterpret_cast<double*>(cb(*x.partial).kernel_ptr());
    const int kernel = static_cast<int>(k);
    if (single_) {
      check(cuda::launch<float>(kernel, ptr<float>(*x.a), ptr<float>(*x.b), ptr<float>(*x.c), ptr<float>(*x.d), n,
                                static_cast<float>(s), partial, blocks_, stream),
            "mem kernel");
    } else {
      check(cuda::launch<double>(kernel, ptr<double>(*x.a), ptr<double>(*x.b), ptr<double>(*x.c), ptr<double>(*x.d), n,
                                 s, partial, blocks_, stream),
            "mem kernel");
    }
  }
  void enqueue_passes(device::Queue& queue, Kernel k, const DeviceArrays& x, std::size_t n, std::uint64_t first_call,
                      std::uint32_t passes) override {
    const cudaStream_t stream = static_cast<CudaQueue&>(queue).get();
    auto* partial = reinterpret_cast<double*>(cb(*x.partial).kernel_ptr());
    const int kernel = static_cast<int>(k);
    const auto first = static_cast<std::uint32_t>(first_call % kScalarPeriod);
    const std::size_t row = static_cast<std::size_t>(k);
    if (single_) {
      check(cuda::launch_passes<float>(kernel, ptr<float>(*x.a), ptr<float>(*x.b), ptr<float>(*x.c), ptr<float>(*x.d),
                                       n, narrow_[row].data(), first, passes, partial, blocks_, resident_, stream),
            "mem kernel, many calls");
    } else {
      check(cuda::launch_passes<double>(kernel, ptr<double>(*x.a), ptr<double>(*x.b), ptr<double>(*x.c),
                                        ptr<double>(*x.d), n, wide_[row].data(), first, passes, partial, blocks_,
                                        resident_, stream),
            "mem kernel, many calls");
    }
  }
  std::size_t partial_slots() const override { return static_cast<std::size_t>(blocks_); }
  bool double_partials() const override { return true; }
  std::string reduction() const override {
    return fmt::format("{} blocks of {}, double accumulators", blocks_, cuda::kSumThreads);
  }
  void check_fits(std::uint64_t array_bytes) const override {
    std::size_t free = 0, total = 0;
    check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    if (4 * array_bytes > free) {
      throw UsageError(fmt::format("four arrays of {} bytes do not fit in the {} bytes free on {}: use a smaller -n",
                                   array_bytes, free, name_));
    }
  }

 private:
  template <class T>
  static T* ptr(device::Buffer& b) {
    return reinterpret_cast<T*>(cb(b).kernel_ptr());
  }

  std::string name_;
  bool single_;
  int blocks_ = 4, resident_ = 8;
  // kernel_scalar's period of every kernel, in both element types.
  std::array<std::array<double, kScalarPeriod>, kKernelCount> wide_{};
  std::array<std::array<float, kScalarPeriod>, kKernelCount> narrow_{};
};

}  // namespace

std::unique_ptr<DeviceKernels> make_cuda_mem_kernels(device::Device& device, const std::string& type) {
  return std::make_unique<CudaMemKernels>(device, type);
}

}  // namespace movebench::mem
