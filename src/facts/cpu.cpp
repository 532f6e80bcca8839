// cpu_facts: this machine's CPU from host_info (hwloc, /proc: the same
// figures every result's "host" holds) and its model as cpu_model chooses it
// (cpuinfo, SMBIOS type 4, the MIDR), or another machine's from its dmidecode
// text (SMBIOS type 4), where only the model and the sockets are told.
#include <fmt/format.h>
#include <hwloc.h>

#include <fstream>
#include <sstream>

#include "core/host_info.hpp"
#include "facts/cpu_model.hpp"
#include "facts/facts.hpp"
#include "facts/smbios.hpp"
#include "facts/tlb.hpp"

namespace movebench::facts {
namespace {

// The whole of <proc_root>/cpuinfo ("" where it cannot be read).
CpuinfoFields read_cpuinfo(const std::string& proc_root) {
  const std::string path = proc_root + "/cpuinfo";
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  CpuinfoFields fields = parse_cpuinfo(text.str());
  fields.path = path;
  return fields;
}

// "vendor_id", "cpu family", "model" of the first CPU in cpuinfo.
nlohmann::json cpuinfo_ids(const CpuinfoFields& f) {
  nlohmann::json ids = {{"vendor", "unknown"}, {"family", "unknown"}, {"model_number", "unknown"}};
  if (!f.vendor_id.empty()) ids["vendor"] = f.vendor_id;
  if (!f.family.empty()) ids["family"] = f.family;
  if (!f.model_number.empty()) ids["model_number"] = f.model_number;
  if (!f.implementer.empty()) ids["vendor"] = "ARM implementer " + f.implementer;  // aarch64 cpuinfo
  return ids;
}

// This machine's model: cpuinfo's, else (arm64) SMBIOS type 4's, else the
// MIDR's core. The SMBIOS table is read only where cpuinfo names no model.
CpuModel live_cpu_model(const Sources& sources, const CpuinfoFields& cpuinfo) {
  if (!cpuinfo.model_name.empty()) return choose_cpu_model(cpuinfo, std::nullopt, "");
  std::string why;
  std::optional<SmbiosMemory> smbios = read_smbios(sources, why);
  return choose_cpu_model(cpuinfo, smbios, why);
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
  int sockets = 0;
  std::string vendor = "unknown";
  for (const auto& p : memory->processors) {
    if (!p.populated) continue;
    ++sockets;
    if (vendor == "unknown" && !p.manufacturer.empty()) vendor = p.manufacturer;
  }
  std::string field;
  const std::string model = smbios_cpu_model(*memory, field).value_or("");
  // The model's own word for the vendor where it has one ("Intel", not "Intel(R) Corporation").
  if (vendor_in(model) != "unknown") vendor = vendor_in(model);
  const std::string unknown = "unknown (not in dmidecode output)";
  nlohmann::json cpu = {{"model", model.empty() ? "unknown" : model},
                        {"vendor", vendor},
                        {"family", unknown},
                        {"model_number", unknown},
                        {"sockets", sockets > 0 ? nlohmann::json(sockets) : nlohmann::json("unknown")},
                        {"cores", unknown},
                        {"threads_per_core", unknown},
                        {"numa_nodes", unknown},
                        {"caches", nlohmann::json::array()},
                        {"source", memory->source + " (SMBIOS type 4)"}};
  cpu["model_source"] = model.empty() ? "none" : "smbios";
  cpu["model_from"] = model.empty() ? "no populated processor (SMBIOS type 4) names one" : "SMBIOS type 4 " + field;
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
  const CpuinfoFields cpuinfo = read_cpuinfo(sources.proc_root);
  const CpuModel model = live_cpu_model(sources, cpuinfo);
  nlohmann::json cpu = cpuinfo_ids(cpuinfo);
  const int cores = host.value("cores", 0);
  const int logical = host.value("logical_cpus", 0);
  cpu.update({{"model", model.model},
              {"model_source", model.source},
              {"model_from", model.from},
              {"sockets", host.value("packages", 0)},
              {"cores", cores},
              {"logical_cpus", logical},
              {"threads_per_core", cores > 0 ? nlohmann::json(logical / cores) : nlohmann::json("unknown")},
              {"numa_nodes", host.value("numa_nodes", 0)},
              {"caches", host["caches"]},
              {"tlb", tlb_facts()},
              {"package_numa_nodes", package_numa_nodes()},
              {"source", fmt::format("hwloc and {}/cpuinfo", sources.proc_root)}});
  return cpu;
}

}  // namespace movebench::facts
