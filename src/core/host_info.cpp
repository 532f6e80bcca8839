#include "core/host_info.hpp"

#include <hwloc.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <thread>

#include "build_info.hpp"
#include "core/affinity.hpp"
#include "core/sizes.hpp"

extern char** environ;

namespace movebench {
namespace {

std::uint64_t total_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kib = 0;
  while (in >> key >> kib >> unit) {
    if (key == "MemTotal:") return kib * 1024;
  }
  return 0;
}

struct Topology {
  hwloc_topology_t topo{};
  bool ok = false;
  Topology() { ok = hwloc_topology_init(&topo) == 0 && hwloc_topology_load(topo) == 0; }
  ~Topology() { hwloc_topology_destroy(topo); }
  int count(hwloc_obj_type_t type) const { return ok ? hwloc_get_nbobjs_by_type(topo, type) : 0; }
};

}  // namespace

std::vector<CacheLevel> data_caches() {
  Topology t;
  std::vector<CacheLevel> levels;
  if (!t.ok) return levels;
  static constexpr std::array<hwloc_obj_type_t, 5> types = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE,
                                                            HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L5CACHE};
  for (std::size_t i = 0; i < types.size(); ++i) {
    const int n = t.count(types[i]);
    if (n <= 0) continue;
    hwloc_obj_t obj = hwloc_get_obj_by_type(t.topo, types[i], 0);
    levels.push_back({static_cast<int>(i + 1), obj->attr->cache.size, n});
  }
  return levels;
}

nlohmann::json cache_facts(const std::vector<CacheLevel>& levels) {
  nlohmann::json caches = nlohmann::json::array();
  for (const auto& c : levels) {
    caches.push_back({{"level", c.level}, {"bytes", c.bytes}, {"instances", c.instances}});
  }
  return caches;
}

std::uint64_t last_level_cache_bytes() {
  auto levels = data_caches();
  return levels.empty() ? 0 : levels.back().bytes;
}

std::uint64_t last_level_caches_total_bytes() {
  auto levels = data_caches();
  return levels.empty() ? 0 : levels.back().bytes * static_cast<std::uint64_t>(std::max(levels.back().instances, 1));
}

bool exceeds_last_level_cache(double bytes) {
  const std::uint64_t llc = last_level_cache_bytes();
  return llc > 0 && bytes > static_cast<double>(llc);
}

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown CPU";
}

nlohmann::json host_facts() {
  Topology t;
  utsname uts{};
  uname(&uts);
  std::array<char, 256> hostname{};
  gethostname(hostname.data(), hostname.size() - 1);
  const nlohmann::json caches = cache_facts(data_caches());
  return {
      {"hostname", hostname.data()},
      {"cpu_model", cpu_model_name()},
      {"logical_cpus", std::thread::hardware_concurrency()},
      {"allowed_cpus", format_cpu_list(allowed_cpus())},
      {"cores", t.count(HWLOC_OBJ_CORE)},
      {"packages", t.count(HWLOC_OBJ_PACKAGE)},
      {"numa_nodes", t.count(HWLOC_OBJ_NUMANODE)},
      {"caches", caches},
      {"memory_bytes", total_memory_bytes()},
      {"os", uts.sysname},
      {"kernel", uts.release},
      {"machine", uts.machine},
      {"transparent_hugepages", first_line_or_empty("/sys/kernel/mm/transparent_hugepage/enabled")},
  };
}

nlohmann::json environment_facts() {
  static constexpr std::array<std::string_view, 12> prefixes = {
      "OMP_",      "GOMP_",          "KMP_",      "MOVEBENCH_",   "OMPI_COMM_WORLD_",
      "PMIX_RANK", "PMI_",           "SLURM_JOB", "SLURM_NTASKS", "CUDA_VISIBLE_DEVICES",
      "POCL_",     "LD_LIBRARY_PATH"};
  nlohmann::json env = nlohmann::json::object();
  for (char** e = environ; *e; ++e) {
    std::string_view entry(*e);
    auto eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    auto key = entry.substr(0, eq);
    for (auto p : prefixes) {
      if (key.starts_with(p)) {
        env[std::string(key)] = std::string(entry.substr(eq + 1));
        break;
      }
    }
  }
  return env;
}

nlohmann::json build_facts() {
  nlohmann::json backends = nlohmann::json::array();
  const std::string_view list = build::backends;
  if (!list.empty()) backends = parse_name_list(list, "backend");
  return {{"compiler", build::compiler},
          {"cxx_flags", build::cxx_flags},
          {"build_type", build::build_type},
          {"backends", backends}};
}

std::string utc_timestamp() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace movebench
