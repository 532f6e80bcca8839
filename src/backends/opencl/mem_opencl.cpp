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
// `passes` calls in one launch: each work-item adds its share that many times.
kernel void sum(global const TYPE* a, ulong n, global ACC* partial, local ACC* scratch, uint passes) {
  ACC total = 0;
  for (uint p = 0; p < passes; ++p) {
#ifdef MOVEBENCH_CONTIGUOUS
    const size_t per = (n + get_global_size(0) - 1) / get_global_size(0);
    const size_t from = min((size_t)n, get_global_id(0) * per), to = min((size_t)n, from + per);
    for (size_t i = from; i < to; ++i) total += a[i];
#else
    for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) total += a[i];
#endif
  }
  const size_t l = get_local_id(0);
  scratch[l] = total;
  for (size_t step = get_local_size(0) / 2; step > 0; step /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < step) scratch[l] += scratch[l + step];
  }
  if (l == 0) partial[get_group_id(0)] += scratch[0];
}
)CLC";

// The program: the prelude, every element-wise row's kernels (one call, and
// many calls in one launch) generated from the table (kernel_rows.hpp), and
// the sum.
std::string program_source() {
  std::string source = kPrelude;
  for (const auto& k : kernel_table()) {
    if (k.writes == Slot::kNone) continue;  // sum: kSumSource
    source += '\n';
    source += elementwise_kernel_source(k);
    source += elementwise_passes_source(k);
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
      const KernelInfo& row = kernel_table()[k];
      kernels_[k] = make_kernel(program_, std::string(row.name).c_str());
      if (row.writes == Slot::kNone) continue;  // the sum takes its passes itself
      passes_[k] = make_kernel(program_, fmt::format("{}_passes", row.name).c_str());
      scalars_[k] = scalar_table(handles.context(), row.id);
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
    passes_global_ = std::size_t{units} * (cpu ? 256 : 2048);  // work-items resident at once, about
    max_alloc_ = device_value<cl_ulong>(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    global_mem_ = device_value<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_SIZE);
  }
  ~ClMemKernels() override {
    for (std::size_t k = 0; k < kKernelCount; ++k) {
      for (cl_kernel kernel : {kernels_[k], passes_[k]}) {
        if (kernel) clReleaseKernel(kernel);
      }
      if (scalars_[k]) clReleaseMemObject(scalars_[k]);
    }
    clReleaseProgram(program_);
  }

  void enqueue(device::Queue& queue, Kernel k, const DeviceArrays& x, std::size_t n, double s) override {
    const cl_kernel kernel = kernels_[index(k)];
    const cl_mem a = mem_of(*x.a), b = mem_of(*x.b), c = mem_of(*x.c), d = mem_of(*x.d);
    const cl_ulong count = n;
    if (k == Kernel::kSum) {
      enqueue_sum(queue, x, n, 1);
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

  void enqueue_passes(device::Queue& queue, Kernel k, const DeviceArrays& x, std::size_t n, std::uint64_t first_call,
                      std::uint32_t passes) override {
    if (k == Kernel::kSum) {
      enqueue_sum(queue, x, n, passes);
      return;
    }
    const cl_kernel kernel = passes_[index(k)];
    const cl_mem arrays[kSlotCount] = {mem_of(*x.a), mem_of(*x.b), mem_of(*x.c), mem_of(*x.d)};
    cl_uint arg = set_array_args(kernel, info(k), arrays, cl_ulong{n});
    const cl_uint first = static_cast<cl_uint>(first_call % kScalarPeriod);
    check(clSetKernelArg(kernel, arg++, sizeof(cl_mem), &scalars_[index(k)]), "clSetKernelArg");
    check(clSetKernelArg(kernel, arg++, sizeof first, &first), "clSetKernelArg");
    check(clSetKernelArg(kernel, arg, sizeof passes, &passes), "clSetKernelArg");
    const std::size_t global = std::max<std::size_t>(1, std::min(n, passes_global_));
    check(clEnqueueNDRangeKernel(queue_of(queue), kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
          fmt::format("{} kernel, {} passes", info(k).name, passes).c_str());
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

  // The sum's `passes` calls in one launch (enqueue's sum: one).
  void enqueue_sum(device::Queue& queue, const DeviceArrays& x, std::size_t n, std::uint32_t passes) {
    const cl_kernel kernel = kernels_[index(Kernel::kSum)];
    set_args(kernel, mem_of(*x.a), cl_ulong{n}, mem_of(*x.partial));
    check(clSetKernelArg(kernel, 3, group_size_ * (double_ ? 8 : 4), nullptr), "clSetKernelArg");
    check(clSetKernelArg(kernel, 4, sizeof passes, &passes), "clSetKernelArg");
    const std::size_t global = groups_ * group_size_;
    check(clEnqueueNDRangeKernel(queue_of(queue), kernel, 1, nullptr, &global, &group_size_, 0, nullptr, nullptr),
          "sum kernel");
  }

  // kernel_scalar's period for kernel k, in the element type, for its
  // _passes kernel: a read-only buffer filled once.
  cl_mem scalar_table(cl_context context, Kernel k) const {
    std::array<double, kScalarPeriod> wide{};
    std::array<float, kScalarPeriod> narrow{};
    for (std::uint32_t j = 0; j < kScalarPeriod; ++j) {
      wide[j] = kernel_scalar<double>(k, j);
      narrow[j] = kernel_scalar<float>(k, j);
    }
    void* values = single_ ? static_cast<void*>(narrow.data()) : static_cast<void*>(wide.data());
    cl_int err = CL_SUCCESS;
    cl_mem table = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  kScalarPeriod * (single_ ? sizeof(float) : sizeof(double)), values, &err);
    check(err, "clCreateBuffer (the scalars of many calls per launch)");
    return table;
  }

  // The arrays kernel k touches, in the order a, b, c, d, then the count, as
  // elementwise_kernel_source and elementwise_passes_source declare them.
  // Returns the index of the next argument.
  static cl_uint set_array_args(cl_kernel kernel, const KernelInfo& k, const cl_mem (&arrays)[kSlotCount], cl_ulong n) {
    cl_uint index = 0;
    for (std::size_t slot = 0; slot < kSlotCount; ++slot) {
      if (k.reads[slot] || k.writes == static_cast<Slot>(slot)) {
        check(clSetKernelArg(kernel, index++, sizeof(cl_mem), &arrays[slot]), "clSetKernelArg");
      }
    }
    check(clSetKernelArg(kernel, index++, sizeof n, &n), "clSetKernelArg");
    return index;
  }

  // One call's arguments: the arrays, the count, and the scalar when it has one.
  template <class T>
  static void set_elementwise_args(cl_kernel kernel, const KernelInfo& k, const cl_mem (&arrays)[kSlotCount],
                                   cl_ulong n, T s) {
    const cl_uint index = set_array_args(kernel, k, arrays, n);
    if (k.has_scalar()) check(clSetKernelArg(kernel, index, sizeof s, &s), "clSetKernelArg");
  }

  std::string name_;
  bool double_ = true, single_ = false;
  cl_program program_ = nullptr;
  std::array<cl_kernel, kKernelCount> kernels_{}, passes_{};
  std::array<cl_mem, kKernelCount> scalars_{};
  std::size_t groups_ = 1, group_size_ = 1, passes_global_ = 1;
  cl_ulong max_alloc_ = 0, global_mem_ = 0;
};

}  // namespace

std::unique_ptr<DeviceKernels> make_opencl_mem_kernels(device::Device& device, const std::string& type) {
  return std::make_unique<ClMemKernels>(device, type);
}

}  // namespace movebench::mem
