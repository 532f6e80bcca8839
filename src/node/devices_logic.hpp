// The devices part's judging, apart from any device so unit tests check it
// (src/node/node_devices.cpp measures): which NUMA node serves a device
// best and whether that is the device's own, and whether all devices at
// once fall short of the sum of each alone (a shared switch or root port).
#pragma once
#include <span>
#include <string>
#include <vector>

namespace movebench::node {

// One figure of a device with its host memory on one NUMA node.
struct NodeFigure {
  int numa_node = -1;
  double value = 0;  // MB/s (higher is better)
};

// A NUMA node counts as serving a device as well as the best one when its
// figure is within this fraction of the best's: nearer than that, which
// node is best is the noise's choice (docs/node.md#devices).
inline constexpr double kSameAsBest = 0.05;

// The NUMA node with the highest figure; -1 when there is none.
int best_numa_node(std::span<const NodeFigure> figures);

// The device's own NUMA node (its PCI device's sysfs numa_node) against the
// figures: "match" when its node is the best or within kSameAsBest of it;
// "mismatch" when its node was measured and another serves it better by
// more; "unknown" when the device tells no node (-1, no PCI bus id, no
// sysfs file) or its node was not measured. text says which and why.
struct AffinityCheck {
  std::string verdict;  // "match", "mismatch", "unknown"
  std::string text;
};
AffinityCheck check_affinity(int device_node, const std::string& unknown_why, std::span<const NodeFigure> figures);

// All devices at once against the sum of each alone. Contention is named
// when the aggregate falls below the sum by more than the tolerance:
// max(kContentionFloor, 3 x noise), noise being the singles' own spread
// (the sum of their test-to-test MADs, scaled to sigma, over the sum of
// their medians).
inline constexpr double kContentionFloor = 0.10;
struct Single {
  double median = 0;  // MB/s, the device alone
  double mad = 0;     // of its tests' rates, scaled to sigma
};
struct AggregateCheck {
  double aggregate = 0, sum = 0;
  double drop = 0;       // 1 - aggregate / sum; below 0: the aggregate is higher
  double tolerance = 0;  // the drop beyond which contention is named
  bool contention = false;
};
AggregateCheck check_aggregate(double aggregate, std::span<const Single> singles);

}  // namespace movebench::node
