// The persistent kernel (stream's persistent design): an optional interface
// of a backend's device, found with capability<PersistentKernel>(device).
// Launched once, it serves `chunks` chunks of `chunk_words` words from `in`
// to `out` (x * 3 + 1), each released by the host through a flag in mapped
// memory, so that no launch lies on a chunk's path.
#pragma once
#include <cstddef>
#include <memory>

#include "device/device.hpp"

namespace movebench::device {

// `flags` is mapped host memory of chunks * (1 + groups) + groups words:
//   flags[c]                          the host sets it to release chunk c
//   flags[chunks + c * groups + g]    group g sets it when its part of c is done
//   flags[chunks * (1 + groups) + g]  group g sets it when it is running
// A group gives up after timeout_s waiting for one flag.
struct PersistentJob {
  Buffer* in = nullptr;
  Buffer* out = nullptr;
  Buffer* flags = nullptr;
  std::size_t chunk_words = 0;
  std::size_t chunks = 0;
  double timeout_s = 10;
};

class PersistentKernel {
 public:
  virtual ~PersistentKernel() = default;
  // False where this device cannot run it (an OpenCL device without host
  // unified memory, a GPU without cooperative launch).
  virtual bool has_persistent() const = 0;
  // Starts the kernel and returns at once; wait with the event.
  virtual std::shared_ptr<Event> launch_persistent(const PersistentJob& job) = 0;
  // Worker groups of the persistent kernel for chunks of `chunk_words`: the
  // host waits for every group's done flag, so a small chunk gets only the
  // groups it has work for.
  virtual int persistent_groups(std::size_t /*chunk_words*/) const { return 1; }
};

}  // namespace movebench::device
