#include "node/core_topology.hpp"

#include <hwloc.h>

namespace movebench::node {
namespace {

CpuPlace place_of(hwloc_topology_t topo, int cpu) {
  CpuPlace p;
  p.cpu = cpu;
  for (hwloc_obj_t obj = hwloc_get_pu_obj_by_os_index(topo, static_cast<unsigned>(cpu)); obj; obj = obj->parent) {
    const int id = static_cast<int>(obj->logical_index);
    switch (obj->type) {
      case HWLOC_OBJ_CORE: p.core = id; break;
      case HWLOC_OBJ_L2CACHE: p.l2 = id; break;
      case HWLOC_OBJ_L3CACHE: p.l3 = id; break;
      case HWLOC_OBJ_PACKAGE: p.package = id; break;
      default: break;
    }
  }
  return p;
}

}  // namespace

std::vector<CpuPlace> cpu_places(const std::vector<int>& cpus) {
  std::vector<CpuPlace> places;
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) {
    for (int cpu : cpus) places.push_back(CpuPlace{cpu});
    return places;
  }
  const bool loaded = hwloc_topology_load(topo) == 0;
  for (int cpu : cpus) places.push_back(loaded ? place_of(topo, cpu) : CpuPlace{cpu});
  hwloc_topology_destroy(topo);
  return places;
}

}  // namespace movebench::node
