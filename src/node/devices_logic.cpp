#include "node/devices_logic.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace movebench::node {

int best_numa_node(std::span<const NodeFigure> figures) {
  const auto best = std::max_element(figures.begin(), figures.end(),
                                     [](const NodeFigure& a, const NodeFigure& b) { return a.value < b.value; });
  return best == figures.end() ? -1 : best->numa_node;
}

AffinityCheck check_affinity(int device_node, const std::string& unknown_why, std::span<const NodeFigure> figures) {
  if (device_node < 0) return {"unknown", "the device tells no NUMA node (" + unknown_why + ")"};
  const int best = best_numa_node(figures);
  const auto own =
      std::find_if(figures.begin(), figures.end(), [&](const NodeFigure& f) { return f.numa_node == device_node; });
  if (own == figures.end()) {
    return {"unknown", fmt::format("its NUMA node {} was not measured", device_node)};
  }
  const auto best_value =
      std::find_if(figures.begin(), figures.end(), [&](const NodeFigure& f) { return f.numa_node == best; })->value;
  if (own->numa_node == best || own->value >= best_value * (1 - kSameAsBest)) {
    return {"match", fmt::format("its own NUMA node {} serves it best", device_node)};
  }
  return {"mismatch", fmt::format("NUMA node {} serves it best ({:.0f}% faster), not its own node {}", best,
                                  (best_value / own->value - 1) * 100, device_node)};
}

AggregateCheck check_aggregate(double aggregate, std::span<const Single> singles) {
  AggregateCheck c;
  c.aggregate = aggregate;
  double mads = 0;
  for (const auto& s : singles) {
    c.sum += s.median;
    mads += s.mad;
  }
  if (c.sum <= 0) return c;
  c.drop = 1 - aggregate / c.sum;
  c.tolerance = std::max(kContentionFloor, 3 * mads / c.sum);
  c.contention = singles.size() > 1 && c.drop > c.tolerance;
  return c;
}

}  // namespace movebench::node
