// Limits on this process and where it runs: pinned-memory limit, VM,
// container, cgroup CPU and memory limits (v2 unified or v1 hierarchies).
#include <fmt/format.h>
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "facts/settings.hpp"

namespace movebench::facts {
namespace {

// cgroup v1 reports "no limit" as a huge page-rounded number.
constexpr std::uint64_t kNoLimit = std::uint64_t{1} << 62;

// The cgroup path of this process for `controller` ("cpu", "memory") from
// /proc/self/cgroup; v2's "0::/path" when there is no v1 line for it.
std::pair<std::string, bool> cgroup_path(const Sources& s, const std::string& controller) {
  std::ifstream in(s.proc_root + "/self/cgroup");
  std::string line, unified;
  while (std::getline(in, line)) {
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    std::stringstream controllers(line.substr(a + 1, b - a - 1));
    for (std::string c; std::getline(controllers, c, ',');) {
      if (c == controller) return {line.substr(b + 1), false};
    }
    if (line.substr(0, b + 1) == "0::") unified = line.substr(b + 1);
  }
  return {unified, true};
}

// The first of the limit files that exists: in this process's cgroup, then
// at the hierarchy's root (inside a container, its own cgroup is the root).
std::optional<std::pair<std::string, std::string>> limit_file(const Sources& s, const std::string& controller,
                                                              const std::string& v2_file, const std::string& v1_file) {
  auto [path, v2] = cgroup_path(s, controller);
  if (path == "/") path.clear();
  const std::string base = s.sysfs_root + "/fs/cgroup" + (v2 ? "" : "/" + controller);
  const std::string file = v2 ? v2_file : v1_file;
  for (const std::string& dir : {base + path, base}) {
    const std::string candidate = dir + "/" + file;
    if (auto line = first_line_of(candidate)) return std::make_pair(candidate, *line);
  }
  return std::nullopt;
}

}  // namespace

nlohmann::json memlock_setting() {
  rlimit limit{};
  if (getrlimit(RLIMIT_MEMLOCK, &limit) != 0) return unknown_setting("getrlimit failed", "getrlimit(RLIMIT_MEMLOCK)");
  if (limit.rlim_cur == RLIM_INFINITY) return setting("unlimited", "getrlimit(RLIMIT_MEMLOCK) (ulimit -l)");
  const auto bytes = static_cast<std::uint64_t>(limit.rlim_cur);
  return setting(bytes, "getrlimit(RLIMIT_MEMLOCK) (ulimit -l)",
                 bytes < (64u << 20) ? fmt::format("ulimit -l is {} KiB: pinned host buffers (link, stream, MPI over "
                                                   "RDMA) are limited",
                                                   bytes >> 10)
                                     : "");
}

nlohmann::json virtualization_setting(const Sources& s) {
  std::vector<std::string> signs;
  std::ifstream cpuinfo(s.proc_root + "/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.starts_with("flags") && line.find(" hypervisor") != std::string::npos) {
      signs.push_back("cpuinfo hypervisor flag");
      break;
    }
  }
  if (auto type = first_line_of(s.sysfs_root + "/hypervisor/type")) signs.push_back("/sys/hypervisor/type " + *type);
  if (auto product = first_line_of(s.sysfs_root + "/class/dmi/id/product_name")) {
    for (const char* vm :
         {"KVM", "VMware", "VirtualBox", "Virtual Machine", "HVM domU", "QEMU", "Google Compute Engine"}) {
      if (product->find(vm) != std::string::npos) signs.push_back("DMI product " + *product);
    }
  }
  const std::string source =
      s.proc_root + "/cpuinfo, " + s.sysfs_root + "/hypervisor, " + s.sysfs_root + "/class/dmi/id";
  if (signs.empty()) return setting("none found", source);
  return setting(fmt::format("vm ({})", fmt::join(signs, "; ")), source,
                 "a virtual machine: memory and device figures depend on the host and its other guests");
}

nlohmann::json container_setting(const Sources& s) {
  std::vector<std::string> signs;
  for (const char* marker : {"/.dockerenv", "/run/.containerenv"}) {
    std::error_code ec;
    if (std::filesystem::exists(s.root_dir + marker, ec)) signs.push_back(marker);
  }
  const std::string source = s.root_dir + "/.dockerenv, " + s.root_dir + "/run/.containerenv";
  return setting(signs.empty() ? "none found" : fmt::format("container ({})", fmt::join(signs, ", ")), source);
}

nlohmann::json cgroup_cpu_setting(const Sources& s) {
  auto v2 = limit_file(s, "cpu", "cpu.max", "cpu.max");
  if (v2 && v2->first.ends_with("cpu.max")) {
    std::stringstream words(v2->second);
    std::string quota;
    double period = 0;
    words >> quota >> period;
    if (quota == "max" || period <= 0) return setting("no limit", v2->first);
    const double cpus = std::atof(quota.c_str()) / period;
    if (!(cpus > 0)) return unknown_setting("cpu.max not 'QUOTA PERIOD': " + v2->second, v2->first);
    return setting(cpus, v2->first,
                   cpus < std::thread::hardware_concurrency()
                       ? fmt::format("cgroup CPU quota of {:.2f} CPUs: more threads than that are throttled", cpus)
                       : "");
  }
  auto quota = limit_file(s, "cpu", "cpu.max", "cpu.cfs_quota_us");
  auto period = limit_file(s, "cpu", "cpu.max", "cpu.cfs_period_us");
  if (!quota || !period) return unknown_setting("no cgroup cpu.max nor cpu.cfs_quota_us", s.sysfs_root + "/fs/cgroup");
  const double q = std::atof(quota->second.c_str()), p = std::atof(period->second.c_str());
  if (q <= 0 || p <= 0) return setting("no limit", quota->first);
  const double cpus = q / p;
  return setting(cpus, quota->first,
                 cpus < std::thread::hardware_concurrency()
                     ? fmt::format("cgroup CPU quota of {:.2f} CPUs: more threads than that are throttled", cpus)
                     : "");
}

nlohmann::json cgroup_memory_setting(const Sources& s) {
  auto file = limit_file(s, "memory", "memory.max", "memory.limit_in_bytes");
  if (!file) return unknown_setting("no cgroup memory.max nor memory.limit_in_bytes", s.sysfs_root + "/fs/cgroup");
  if (file->second == "max") return setting("no limit", file->first);
  const auto bytes = std::strtoull(file->second.c_str(), nullptr, 10);
  if (bytes == 0 || bytes >= kNoLimit) return setting("no limit", file->first);
  return setting(bytes, file->first);
}

}  // namespace movebench::facts
