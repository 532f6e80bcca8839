// cpu_facts: this machine's CPU from host_info (hwloc, /proc: the same
// figures every result's "host" holds), or another machine's from its
// dmidecode text (SMBIOS type 4), where only the model and the sockets are told.
#include <fmt/format.h>
#include <hwloc.h>

#include <fstream>

#include "core/host_info.hpp"
#include "facts/facts.hpp"
#include "facts/smbios.hpp"

namespace movebench::facts {
namespace {

// "vendor_id", "cpu family", "model" of the first CPU in cpuinfo.
nlohmann::json cpuinfo_ids(const std::string& proc_root) {
  std::ifstream in(proc_root + "/cpuinfo");
  nlohmann::json ids = {{"vendor", "unknown"}, {"family", "unknown"}, {"model_number", "unknown"}};
  std::string line;
  while (std::getline(in, line) && !line.empty()) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, line.find_last_not_of(" \t", colon - 1) + 1);
    std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
    if (key == "vendor_id") ids["vendor"] = value;
    if (key == "cpu family") ids["family"] = value;
    if (key == "model") ids["model_number"] = value;
    if (key == "CPU implementer") ids["vendor"] = "ARM implementer " + value;  // aarch64 cpuinfo
  }
  return ids;
}

// The vendor as the model string itself names it; "unknown" otherwise.
std::string vendor_in(const std::string& model) {
  for (const char* vendor : {"Intel", "AMD", "Ampere"}) {
    if (model.find(vendor) != std::string::npos) return vendor;
  }
  return "unknown";
}

nlohmann::json from_dmidecode(const Sources& sources) {
  std::string why;
  const auto memory = read_smbios(sources, why);
  std::string model;
  int sockets = 0;
  for (const auto& p : memory->processors) {
    if (!p.populated) continue;
    ++sockets;
    if (model.empty()) model = p.version;
  }
  const std::string unknown = "unknown (not in dmidecode output)";
  nlohmann::json cpu = {{"model", model.empty() ? "unknown" : model}, {"vendor", vendor_in(model)},
                        {"family", unknown}, {"model_number", unknown},
                        {"sockets", sockets > 0 ? nlohmann::json(sockets) : nlohmann::json("unknown")},
                        {"cores", unknown}, {"threads_per_core", unknown}, {"numa_nodes", unknown},
                        {"caches", nlohmann::json::array()}, {"source", memory->source + " (SMBIOS type 4)"}};
  if (model.empty()) cpu["why"] = "no populated processor (type 4) in the dmidecode output";
  return cpu;
}

// The NUMA nodes of each package (socket), from hwloc: [[0], [1]], or
// [[0, 1, 2, 3], ...] with sub-NUMA clustering. The DRAM peak per node
// follows from it where a socket has one node.
nlohmann::json package_numa_nodes() {
  nlohmann::json packages = nlohmann::json::array();
  hwloc_topology_t topo{};
  if (hwloc_topology_init(&topo) != 0) return packages;
  if (hwloc_topology_load(topo) == 0) {
    const int count = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
    for (int i = 0; i < count; ++i) {
      hwloc_obj_t package = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, i);
      nlohmann::json nodes = nlohmann::json::array();
      unsigned node = 0;
      hwloc_bitmap_foreach_begin(node, package->nodeset) nodes.push_back(node);
      hwloc_bitmap_foreach_end();
      packages.push_back(nodes);
    }
  }
  hwloc_topology_destroy(topo);
  return packages;
}

}  // namespace

nlohmann::json cpu_facts(const Sources& sources) {
  if (!sources.dmidecode_file.empty()) return from_dmidecode(sources);
  const nlohmann::json host = host_facts();
  nlohmann::json cpu = cpuinfo_ids(sources.proc_root);
  const int cores = host.value("cores", 0);
  const int logical = host.value("logical_cpus", 0);
  cpu.update({{"model", host.value("cpu_model", std::string("unknown"))},
              {"sockets", host.value("packages", 0)},
              {"cores", cores},
              {"logical_cpus", logical},
              {"threads_per_core", cores > 0 ? nlohmann::json(logical / cores) : nlohmann::json("unknown")},
              {"numa_nodes", host.value("numa_nodes", 0)},
              {"caches", host["caches"]},
              {"package_numa_nodes", package_numa_nodes()},
              {"source", fmt::format("hwloc and {}/cpuinfo", sources.proc_root)}});
  return cpu;
}

}  // namespace movebench::facts
