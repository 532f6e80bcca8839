// Facts about the machine, environment and build that explain a figure.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/system_file.hpp"  // first_line_of

namespace movebench {

struct CacheLevel {
  int level = 0;            // 1, 2, 3 ...
  std::uint64_t bytes = 0;  // size of one instance
  int instances = 0;
};

// Data/unified caches from hwloc, smallest level first.
std::vector<CacheLevel> data_caches();
// Cache levels as result files hold them (host.caches, and a device's own
// under <benchmark>_device.caches): [{level, bytes, instances}, ...].
nlohmann::json cache_facts(const std::vector<CacheLevel>& levels);
// Size of one instance of the last-level cache; 0 when unknown.
std::uint64_t last_level_cache_bytes();
// All instances of the last-level cache together (STREAM's "sum of the
// last-level caches"); 0 when unknown.
std::uint64_t last_level_caches_total_bytes();
// True when `bytes` are known to exceed it (false when its size is unknown).
bool exceeds_last_level_cache(double bytes);

std::string cpu_model_name();

// Everything above plus hostname, CPU and core counts, NUMA nodes, memory,
// OS, kernel and transparent-huge-page mode.
nlohmann::json host_facts();
// The environment variables that change how a run behaves (OpenMP, MPI
// launchers, Slurm, CUDA, LD_LIBRARY_PATH), as the HPCC dump keeps them.
nlohmann::json environment_facts();
// Compiler, flags, build type and the backends compiled in.
nlohmann::json build_facts();

// "2026-11-21T06:10:00Z"
std::string utc_timestamp();

}  // namespace movebench
