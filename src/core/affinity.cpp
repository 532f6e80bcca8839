#include "core/affinity.hpp"

#include <fmt/format.h>
#include <hwloc.h>
#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <set>

#include "core/errors.hpp"
#include "core/sizes.hpp"

namespace movebench {
namespace {

int parse_cpu(std::string_view text, std::string_view whole) {
  int value = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < 0 || value >= CPU_SETSIZE) {
    throw UsageError(fmt::format("invalid CPU list '{}': expected e.g. 0-3,8", whole));
  }
  return value;
}

std::vector<int> cpus_of(const cpu_set_t& set) {
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  }
  return cpus;
}

}  // namespace

std::vector<int> parse_cpu_list(std::string_view text) {
  std::vector<int> cpus;
  for (const std::string& item : parse_name_list(text, "CPU")) {
    const auto dash = item.find('-');
    if (dash == std::string::npos) {
      cpus.push_back(parse_cpu(item, text));
    } else {
      const std::string_view range(item);
      int lo = parse_cpu(range.substr(0, dash), text), hi = parse_cpu(range.substr(dash + 1), text);
      if (lo > hi) throw UsageError(fmt::format("invalid CPU list '{}': range goes down", text));
      for (int c = lo; c <= hi; ++c) cpus.push_back(c);
    }
  }
  return cpus;
}

std::string format_cpu_list(const std::vector<int>& cpus) {
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j > i ? fmt::format("{}-{}", cpus[i], cpus[j]) : fmt::format("{}", cpus[i]);
    i = j + 1;
  }
  return out;
}

namespace {

std::vector<int> read_allowed_cpus() {
  // With OMP_PROC_BIND or OMP_PLACES set, libgomp binds the initial thread
  // to the first place before main() runs, so this thread's mask is no
  // longer the process's. OpenMP's places still cover the original mask.
  if (const int places = omp_get_num_places(); places > 0) {
    std::set<int> cpus;
    for (int p = 0; p < places; ++p) {
      std::vector<int> ids(static_cast<std::size_t>(omp_get_place_num_procs(p)));
      omp_get_place_proc_ids(p, ids.data());
      cpus.insert(ids.begin(), ids.end());
    }
    if (!cpus.empty()) return {cpus.begin(), cpus.end()};
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return {0};
  return cpus_of(set);
}

}  // namespace

std::vector<int> allowed_cpus() {
  // Read once, before any team pinned the main thread (it is OpenMP's
  // master): after that its mask is one CPU, not the process's.
  static const std::vector<int> cpus = read_allowed_cpus();
  return cpus;
}

ScopedAffinity::ScopedAffinity() : saved_(std::make_unique<cpu_set_t>()) {
  CPU_ZERO(saved_.get());
  ok_ = sched_getaffinity(0, sizeof(cpu_set_t), saved_.get()) == 0;
}

ScopedAffinity::~ScopedAffinity() {
  if (ok_) sched_setaffinity(0, sizeof(cpu_set_t), saved_.get());
}

bool openmp_binding_requested() {
  for (const char* var : {"OMP_PROC_BIND", "OMP_PLACES", "GOMP_CPU_AFFINITY", "KMP_AFFINITY"}) {
    if (std::getenv(var)) return true;
  }
  return false;
}

Placement Placement::parse(std::string_view text) {
  Placement p;
  if (text == "auto") text = openmp_binding_requested() ? "none" : "close";
  if (text == "close") {
    p.kind = Kind::kClose;
  } else if (text == "spread") {
    p.kind = Kind::kSpread;
  } else if (text == "none") {
    p.kind = Kind::kNone;
  } else {
    p.kind = Kind::kList;
    p.cpus = parse_cpu_list(text);
    const auto allowed = allowed_cpus();
    for (int c : p.cpus) {
      if (!std::binary_search(allowed.begin(), allowed.end(), c)) {
        throw UsageError(
            fmt::format("CPU {} is not in this process's affinity mask ({})", c, format_cpu_list(allowed)));
      }
    }
  }
  return p;
}

std::string Placement::describe() const {
  switch (kind) {
    case Kind::kClose: return "close";
    case Kind::kSpread: return "spread";
    case Kind::kNone: return "none";
    case Kind::kList: return format_cpu_list(cpus);
  }
  return "?";
}

std::vector<int> place_threads(int threads, const Placement& placement, const std::vector<std::vector<int>>& cores) {
  std::vector<int> out;
  if (placement.kind == Placement::Kind::kNone || threads <= 0) return out;
  if (placement.kind == Placement::Kind::kList) {
    for (int t = 0; t < threads; ++t) out.push_back(placement.cpus[t % placement.cpus.size()]);
    return out;
  }
  // First hardware thread of every core, then the second ones, and so on:
  // one thread per core before any core gets two.
  std::vector<int> order;
  for (std::size_t level = 0;; ++level) {
    std::size_t added = 0;
    for (const auto& core : cores) {
      if (level < core.size()) {
        order.push_back(core[level]);
        ++added;
      }
    }
    if (added == 0) break;
  }
  if (order.empty()) return out;
  const int ncores = static_cast<int>(cores.size());
  for (int t = 0; t < threads; ++t) {
    if (placement.kind == Placement::Kind::kSpread && threads <= ncores) {
      out.push_back(cores[static_cast<std::size_t>(t) * ncores / threads].front());
    } else {
      out.push_back(order[t % order.size()]);
    }
  }
  return out;
}

std::vector<std::vector<int>> core_ordered_cpus() {
  const auto allowed = allowed_cpus();
  std::set<int> allowed_set(allowed.begin(), allowed.end());
  std::vector<std::vector<int>> cores;
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) == 0 && hwloc_topology_load(topo) == 0) {
    const int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    for (int i = 0; i < n; ++i) {
      hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, i);
      std::vector<int> pus;
      unsigned pu = 0;
      hwloc_bitmap_foreach_begin(pu, core->cpuset) {
        if (allowed_set.count(static_cast<int>(pu))) pus.push_back(static_cast<int>(pu));
      }
      hwloc_bitmap_foreach_end();
      if (!pus.empty()) cores.push_back(pus);
    }
    hwloc_topology_destroy(topo);
  }
  if (cores.empty()) {  // no topology: every allowed CPU is its own core
    for (int c : allowed) cores.push_back({c});
  }
  return cores;
}

bool pin_current_thread(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof(set), &set) == 0;
}

int current_cpu() { return sched_getcpu(); }

std::string current_affinity_list() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return "?";
  return format_cpu_list(cpus_of(set));
}

}  // namespace movebench
