// mem's kernels in OpenCL C (BabelStream's OpenCL model, with
// TheBandwidthBenchmark's kernels): one work-item per element, and the sum
// as a work-group reduction in local memory. Built once per run for the
// element type asked for, in a program of their own, so that link and stream
// never pay for compiling them.
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "backends/opencl/opencl_device.hpp"
#include "core/errors.hpp"
#include "mem/device_kernels.hpp"

namespace movebench::mem {
namespace {

using namespace device::opencl;

// TYPE is the element type, ACC the reduction's accumulator (double where
// the device has it, so that a long share of floats adds up exactly enough).
// Contraction is off: every product and sum is rounded on its own, as on the
// host, so the arrays can be compared with the host's replay bit for bit.
constexpr const char* kPrelude = R"CLC(
#ifdef MOVEBENCH_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#pragma OPENCL FP_CONTRACT OFF

)CLC";

// The reduction, sum: BabelStream's dot on one array.
constexpr const char* kSumSource = R"CLC(
// Each work-item adds up its share, the work-group halves its scratch
// until one value is left, and work-group g adds it to partial[g]. The
// share is contiguous on a CPU (a stream its core's prefetchers follow: 20
// times faster on PoCL than the strided one) and strided on a GPU, where
// neighbouring work-items then read neighbouring elements (coalesced).
kernel void sum(global const TYPE* a, ulong n, global ACC* partial, local ACC* scratch) {
  ACC total = 0;
#ifdef MOVEBENCH_CONTIGUOUS
  const size_t per = (n + get_global_size(0) - 1) / get_global_size(0);
  const size_t from = min((size_t)n, get_global_id(0) * per), to = min((size_t)n, from + per);
  for (size_t i = from; i < to; ++i) total += a[i];
#else
  for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) total += a[i];
#endif
  const size_t l = get_local_id(0);
  scratch[l] = total;
  for (size_t step = get_local_size(0) / 2; step > 0; step /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < step) scratch[l] += scratch[l + step];
  }
  if (l == 0) partial[get_group_id(0)] += scratch[0];
}
)CLC";

// The program: the prelude, every element-wise row's kernel generated from
// the table (kernel_rows.hpp), and the sum.
std::string program_source() {
  std::string source = kPrelude;
  for (const auto& k : kernel_table()) {
    if (k.writes == Slot::kNone) continue;  // sum: kSumSource
    source += '\n';
    source += elementwise_kernel_source(k);
  }
  return source + kSumSource;
}

std::size_t power_of_two_below(std::size_t x) {
  std::size_t p = 1;
  while (p * 2 <= x) p *= 2;
  return p;
}

class ClMemKernels : public DeviceKernels {
 public:
  ClMemKernels(device::Device& dev, const std::string& type) : name_(dev.name()) {
    const auto& handles = *device::capability<Handles>(dev);
    const cl_device_id id = handles.id();
    const bool fp64 = device_value<cl_device_fp_config>(id, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
    if (type == "double" && !fp64) {
      throw UsageError(fmt::format("the OpenCL device {} has no double precision: use --type float", name_));
    }
    double_ = fp64;
    single_ = type == "float";
    const bool cpu = (device_value<cl_device_type>(id, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) != 0;
    const std::string options = fmt::format("-cl-std=CL1.2 -DTYPE={} -DACC={}{}{}", type, fp64 ? "double" : "float",
                                            fp64 ? " -DMOVEBENCH_FP64" : "", cpu ? " -DMOVEBENCH_CONTIGUOUS" : "");
    program_ = build_program(handles.context(), id, program_source().c_str(), options);
    for (std::size_t k = 0; k < kKernelCount; ++k) {
      kernels_[k] = make_kernel(program_, std::string(kernel_table()[k].name).c_str());
    }
    // BabelStream's reduction shape: on a CPU one work-group per compute
    // unit, of twice the native vector width; elsewhere four per compute
    // unit, as large as the device allows (a power of two, for the halving).
    const auto units = device_value<cl_uint>(id, CL_DEVICE_MAX_COMPUTE_UNITS);
    std::size_t most = 0;
    clGetKernelWorkGroupInfo(kernels_[index(Kernel::kSum)], id, CL_KERNEL_WORK_GROUP_SIZE, sizeof most, &most, nullptr);
    const auto width =
        device_value<cl_uint>(id, single_ ? CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT : CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE);
    groups_ = std::max<std::size_t>(1, cpu ? units : 4 * std::size_t{units});
    group_size_ = power_of_two_below(
        std::clamp<std::size_t>(cpu ? 2 * std::max<cl_uint>(width, 1) : 1024, 1, std::max<std::size_t>(most, 1)));
    max_alloc_ = device_value<cl_ulong>(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    global_mem_ = device_value<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_SIZE);
  }
  ~ClMemKernels() override {
    for (cl_kernel k : kernels_) {
      if (k) clReleaseKernel(k);
    }
    clReleaseProgram(program_);
  }

  void enqueue(device::Queue& queue, Kernel k, const DeviceArrays& x, std::size_t n, double s) override {
    const cl_kernel kernel = kernels_[index(k)];
    const cl_mem a = mem_of(*x.a), b = mem_of(*x.b), c = mem_of(*x.c), d = mem_of(*x.d);
    const cl_ulong count = n;
    if (k == Kernel::kSum) {
      set_args(kernel, a, count, mem_of(*x.partial));
      check(clSetKernelArg(kernel, 3, group_size_ * (double_ ? 8 : 4), nullptr), "clSetKernelArg");
      const std::size_t global = groups_ * group_size_;
      check(clEnqueueNDRangeKernel(queue_of(queue), kernel, 1, nullptr, &global, &group_size_, 0, nullptr, nullptr),
            "sum kernel");
      return;
    }
    const cl_mem arrays[kSlotCount] = {a, b, c, d};
    if (single_) {
      set_elementwise_args(kernel, info(k), arrays, count, static_cast<cl_float>(s));
    } else {
      set_elementwise_args(kernel, info(k), arrays, count, static_cast<cl_double>(s));
    }
    const std::size_t global = n;
    check(clEnqueueNDRangeKernel(queue_of(queue), kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
          fmt::format("{} kernel", info(k).name).c_str());
  }

  std::size_t partial_slots() const override { return groups_; }
  bool double_partials() const override { return double_; }
  std::string reduction() const override {
    return fmt::format("{} groups of {}, {} accumulators", groups_, group_size_, double_ ? "double" : "float");
  }
  void check_fits(std::uint64_t array_bytes) const override {
    if (array_bytes > max_alloc_ || 4 * array_bytes > global_mem_) {
      throw UsageError(
          fmt::format("four arrays of {} do not fit on {} ({} in all, at most {} per array): use a "
                      "smaller -n",
                      array_bytes, name_, global_mem_, max_alloc_));
    }
  }

 private:
  static std::size_t index(Kernel k) { return static_cast<std::size_t>(k); }

  // The arguments of every kernel but sum, as elementwise_kernel_source
  // declares them: the arrays it touches in the order a, b, c, d, the
  // count, and the scalar when it has one.
  template <class T>
  static void set_elementwise_args(cl_kernel kernel, const KernelInfo& k, const cl_mem (&arrays)[kSlotCount],
                                   cl_ulong n, T s) {
    cl_uint index = 0;
    for (std::size_t slot = 0; slot < kSlotCount; ++slot) {
      if (k.reads[slot] || k.writes == static_cast<Slot>(slot)) {
        check(clSetKernelArg(kernel, index++, sizeof(cl_mem), &arrays[slot]), "clSetKernelArg");
      }
    }
    check(clSetKernelArg(kernel, index++, sizeof n, &n), "clSetKernelArg");
    if (k.has_scalar()) check(clSetKernelArg(kernel, index, sizeof s, &s), "clSetKernelArg");
  }

  std::string name_;
  bool double_ = true, single_ = false;
  cl_program program_ = nullptr;
  std::array<cl_kernel, kKernelCount> kernels_{};
  std::size_t groups_ = 1, group_size_ = 1;
  cl_ulong max_alloc_ = 0, global_mem_ = 0;
};

}  // namespace

std::unique_ptr<DeviceKernels> make_opencl_mem_kernels(device::Device& device, const std::string& type) {
  return std::make_unique<ClMemKernels>(device, type);
}

}  // namespace movebench::mem
