// The OpenCL backend's handles, for its part above the device layer (mem's
// kernels, mem_opencl.cpp): a device's context and id, a
// buffer's cl_mem, a queue's command queue, and the program build the
// backend's own kernels use. Everything else goes through the Device
// interface.
#pragma once
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <string>

#include "device/device.hpp"

namespace movebench::device::opencl {

// Throws std::runtime_error naming `what` and the error code.
void check(cl_int err, const char* what);

// A string property through clGet*Info: ask its length, then its text.
template <class Object, class Info>
std::string info_text(cl_int (*get)(Object, Info, std::size_t, void*, std::size_t*), Object object, Info what) {
  std::size_t n = 0;
  get(object, what, 0, nullptr, &n);
  std::string s(n, '\0');
  get(object, what, n, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}
std::string platform_text(cl_platform_id p, cl_platform_info what);
std::string device_text(cl_device_id d, cl_device_info what);

template <class T>
T device_value(cl_device_id d, cl_device_info what) {
  T v{};
  clGetDeviceInfo(d, what, sizeof v, &v, nullptr);
  return v;
}

// Sets a kernel's arguments, in order.
template <class... Args>
void set_args(cl_kernel kernel, const Args&... args) {
  cl_uint index = 0;
  (check(clSetKernelArg(kernel, index++, sizeof(Args), &args), "clSetKernelArg"), ...);
}

// Builds `source` for `device`; throws with the build log when it fails.
cl_program build_program(cl_context context, cl_device_id device, const char* source, const std::string& options);
cl_kernel make_kernel(cl_program program, const char* name);

// What an OpenCL device is made of, found with capability<Handles>(device).
class Handles {
 public:
  virtual ~Handles() = default;
  virtual cl_context context() const = 0;
  virtual cl_device_id id() const = 0;
};
// The cl_mem of a buffer of this backend (device memory, or host memory its
// kernels are given); the command queue of one of its queues.
cl_mem mem_of(Buffer& buffer);
cl_command_queue queue_of(Queue& queue);

}  // namespace movebench::device::opencl
