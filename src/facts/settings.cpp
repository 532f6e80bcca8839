// setting_facts: the kernel's and the CPU's settings that change what the
// benchmarks measure; each with the file it came from, and a warning where
// the setting lowers the figures (printed once per run by `facts` and `run`).
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "facts/settings.hpp"
#include "facts/tlb.hpp"

namespace movebench::facts {
namespace {

// "always [madvise] never" -> "madvise".
std::string bracketed(const std::string& line) {
  const auto open = line.find('['), close = line.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return line;
  return line.substr(open + 1, close - open - 1);
}

nlohmann::json thp(const Sources& s) {
  const std::string path = s.sysfs_root + "/kernel/mm/transparent_hugepage/enabled";
  auto line = first_line_of(path);
  if (!line) return unknown_setting("not readable (a kernel without transparent huge pages)", path);
  const std::string mode = bracketed(*line);
  return setting(mode, path,
                 mode == "never" ? "transparent huge pages are off (never): TLB misses lower the memory "
                                   "figures of large arrays"
                                 : "");
}

nlohmann::json governor(const Sources& s) {
  const std::string dir = s.sysfs_root + "/devices/system/cpu/cpufreq";
  std::set<std::string> governors;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!entry.path().filename().string().starts_with("policy")) continue;
    if (auto g = first_line_of(entry.path().string() + "/scaling_governor")) governors.insert(*g);
  }
  if (governors.empty()) return unknown_setting("no cpufreq policy (a VM, or no frequency driver loaded)", dir);
  const std::string value = fmt::format("{}", fmt::join(governors, ","));
  const bool slow = governors.contains("powersave") || governors.contains("conservative");
  return setting(value, dir + "/policy*/scaling_governor",
                 slow ? "CPU frequency governor " + value + ": cores may run below their base clock" : "");
}

nlohmann::json boost(const Sources& s) {
  const std::string no_turbo = s.sysfs_root + "/devices/system/cpu/intel_pstate/no_turbo";
  if (auto v = first_line_of(no_turbo)) {
    return setting(*v == "1" ? "off" : "on", no_turbo, *v == "1" ? "turbo boost off (intel_pstate/no_turbo=1)" : "");
  }
  const std::string cpufreq_boost = s.sysfs_root + "/devices/system/cpu/cpufreq/boost";
  if (auto v = first_line_of(cpufreq_boost)) {
    return setting(*v == "0" ? "off" : "on", cpufreq_boost, *v == "0" ? "CPU boost off (cpufreq/boost=0)" : "");
  }
  return unknown_setting("neither intel_pstate/no_turbo nor cpufreq/boost exists", no_turbo);
}

nlohmann::json smt(const Sources& s) {
  const std::string path = s.sysfs_root + "/devices/system/cpu/smt/active";
  auto v = first_line_of(path);
  if (!v) return unknown_setting("not readable", path);
  return setting(*v == "1" ? "on" : "off", path);
}

nlohmann::json numa_balancing(const Sources& s) {
  const std::string path = s.proc_root + "/sys/kernel/numa_balancing";
  auto v = first_line_of(path);
  if (!v) return unknown_setting("not readable (a kernel without automatic NUMA balancing)", path);
  return setting(*v == "0" ? "off" : "on", path,
                 *v == "0" ? "" : "automatic NUMA balancing is on: pages may move between nodes during a run");
}

// The IOMMU: its units in sysfs, and how the kernel command line sets it.
nlohmann::json iommu(const Sources& s) {
  const std::string dir = s.sysfs_root + "/class/iommu";
  std::vector<std::string> units;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    units.push_back(entry.path().filename().string());
  std::string cmdline_options;
  std::ifstream cmdline(s.proc_root + "/cmdline");
  for (std::string word; cmdline >> word;) {
    if (word.starts_with("iommu=") || word.starts_with("intel_iommu=") || word.starts_with("amd_iommu=")) {
      cmdline_options += (cmdline_options.empty() ? "" : " ") + word;
    }
  }
  std::string value = units.empty() ? "off (no IOMMU unit in sysfs)" : fmt::format("on ({})", fmt::join(units, ","));
  if (!cmdline_options.empty()) value += "; kernel command line: " + cmdline_options;
  const bool translating = !units.empty() && cmdline_options.find("iommu=pt") == std::string::npos;
  return setting(value, dir + " and " + s.proc_root + "/cmdline",
                 translating ? "the IOMMU translates DMA (no iommu=pt): host-device transfers may be slower" : "");
}

}  // namespace

nlohmann::json setting(nlohmann::json value, const std::string& source, const std::string& warning) {
  nlohmann::json j = {{"value", std::move(value)}, {"source", source}};
  if (!warning.empty()) j["warning"] = warning;
  return j;
}

nlohmann::json unknown_setting(const std::string& why, const std::string& source) {
  return {{"value", "unknown"}, {"why", why}, {"source", source}};
}

nlohmann::json setting_facts(const Sources& sources) {
  return {{"thp", thp(sources)},
          {"governor", governor(sources)},
          {"boost", boost(sources)},
          {"smt", smt(sources)},
          {"numa_balancing", numa_balancing(sources)},
          {"memlock_bytes", memlock_setting()},
          {"page_bytes", page_size_setting()},
          {"iommu", iommu(sources)},
          {"virtualization", virtualization_setting(sources)},
          {"container", container_setting(sources)},
          {"cgroup_cpu", cgroup_cpu_setting(sources)},
          {"cgroup_memory", cgroup_memory_setting(sources)}};
}

}  // namespace movebench::facts
