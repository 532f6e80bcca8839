#include "node/node_parts.hpp"

namespace movebench::node {

// One row per part, in the order they run: numa, then cores
// (node_cores.cpp), then devices (node_devices.cpp).
const std::vector<NodePart>& node_parts() {
  static const std::vector<NodePart> table = {
      numa_part(),
      cores_part(),
      devices_part(),
  };
  return table;
}

}  // namespace movebench::node
