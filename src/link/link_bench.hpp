// `movebench link`: bandwidth (read, write, duplex; by copy and by kernel)
// and latency (device-side pointer chase through host memory, small-copy
// round trip) between host memory and a device.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/output.hpp"
#include "core/report.hpp"
#include "device/device.hpp"
#include "device/options.hpp"
#include "link/link_cases.hpp"

namespace movebench::link {

// The device layer's names link is written in.
using device::Buffer;
using device::CommonOptions;
using device::Device;
using device::Event;
using device::kind_name;
using device::MemKind;
using device::Probe;
using device::Queue;
using device::Timed;

// Where link's host buffers lie: wherever the backend allocates them (no
// placement given), or where a caller binds them (movebench node: on one
// NUMA node in turn, src/node/node_devices.cpp). alloc makes a host buffer
// there; misplaced, asked once the buffer's pages are written, says why
// some lie elsewhere ("" when none does): then the figure is not recorded,
// the run fails its validation.
class HostPlacement {
 public:
  virtual ~HostPlacement() = default;
  virtual std::unique_ptr<Buffer> alloc(Device& device, MemKind kind, std::size_t bytes) const = 0;
  virtual std::string misplaced(const Buffer& host) const = 0;
};

struct LinkOptions {
  CommonOptions common;
  const HostPlacement* placement = nullptr;  // null: the backend's own placement
  // Called once a size's buffers are allocated, before its warm-up (movebench
  // node starts every device's tests together at a barrier); empty: nothing.
  std::function<void()> ready;
  std::vector<Direction> directions{Direction::kRead, Direction::kWrite, Direction::kDuplex};
  std::vector<Path> paths{Path::kCopy, Path::kKernel};
  std::vector<MemKind> kinds;        // empty: every host kind the backend has
  std::vector<std::uint64_t> sizes;  // bytes per transfer
  int repetitions = 10;              // tests per size (hdl_single_engine's -c)
  // Seconds per size of each combination, the checks included: after the
  // first test, only the tests that fit are run (at least one). What bounds
  // the default run on a slow device (PoCL on two cores: 402 s unbounded).
  double time_budget = 0.1;
  int batch = 8;  // transfers queued behind the gate per test
  bool bandwidth = true, latency = true;
  std::uint64_t ring_bytes = 4ull << 20;  // latency: host memory chased
  std::uint64_t steps = 256;              // latency: dependent loads per chase
  bool chase_per_unit = true;             // latency: the chase from each SM or work-group slot too
  std::uint64_t write_bytes = 4096;       // latency: the device's write burst (hdl_single_engine's 4 KiB)
  std::vector<std::uint64_t> roundtrip_sizes{4, 64, 4096};
  int roundtrip_repetitions = 100;
};

// The destination slots of one direction of a batch of `batch` transfers of
// `bytes`: one per transfer while they fit kSlotBytes, else as many as fit
// (at least two), transfer b landing in slot b mod slots.
constexpr std::size_t kSlotBytes = std::size_t{1} << 30;
std::size_t slots_for(std::size_t bytes, int batch);

// A host buffer where o.placement puts it (else the backend's alloc), and
// why its pages are not all there ("" when they are, or no placement asked).
std::unique_ptr<Buffer> alloc_host(Device& device, const LinkOptions& o, MemKind kind, std::size_t bytes);
std::string misplaced(const LinkOptions& o, const Buffer& host);

// Every measurement of the options; records go to `report`, the text to
// `out` (link_output.hpp writes it).
void run_link(Device& device, const LinkOptions& o, Report& report, Output& out);
void run_link_bandwidth(Device& device, const LinkOptions& o, Report& report, Output& out);
void run_link_latency(Device& device, const LinkOptions& o, Report& report, Output& out);

}  // namespace movebench::link
