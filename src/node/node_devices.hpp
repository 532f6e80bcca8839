// movebench node's devices part (docs/node.md#devices): every accelerator
// the built backends find, link (host to device, device to host, duplex,
// latency) with the host buffer on each NUMA node in turn and mem in the
// device's own memory, the NUMA node that serves each best against the
// device's own, then all devices at once against the sum of each alone, and
// each device against its siblings.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace movebench::node {

struct NodeOptions;

// One device the part measures, as its backend's lister names it.
struct NodeDevice {
  int index = 0;  // in the part's list: what --devices counts
  std::string backend;
  int backend_index = 0;  // the backend's own --device index
  std::string name, type, bus_id;
};

// The GPUs and accelerators of every built backend, each once (a device two
// backends reach, the same PCI bus id, is kept under the backend preferred:
// device::built_backends' order); where there is none, the CPU devices of
// those backends (an OpenCL CPU runtime such as PoCL), so the path is still
// measured. The host backend is no device here: its "device" is host memory.
std::vector<NodeDevice> list_node_devices();
// The devices --devices names; every one when none. Throws UsageError
// naming the valid range.
std::vector<NodeDevice> pick_devices(const std::vector<NodeDevice>& all, const std::optional<std::vector<int>>& wanted);
// --devices and --device-bytes checked before anything is measured
// (UsageError).
void check_devices_options(const NodeOptions& opt);

}  // namespace movebench::node
