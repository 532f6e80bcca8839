#include "facts/tlb.hpp"

#include <unistd.h>

#include <cstdint>
#include <exception>
#include <optional>
#include <string>

#include "core/system_file.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace movebench::facts {
namespace {

nlohmann::json unknown_tlb(const std::string& why) { return {{"status", "unknown"}, {"why", why}}; }

void add_tlb_level(nlohmann::json& levels, int level, const char* kind, std::uint64_t page, std::uint64_t entries) {
  if (entries == 0) return;
  levels.push_back(
      {{"level", level}, {"kind", kind}, {"page_bytes", page}, {"entries", entries}, {"reach_bytes", entries * page}});
}

#if defined(__x86_64__) || defined(__i386__)
struct CpuidRegs {
  unsigned a = 0, b = 0, c = 0, d = 0;
};

std::optional<CpuidRegs> cpuid_leaf(unsigned leaf, unsigned sub = 0) {
  CpuidRegs r;
  const unsigned top = __get_cpuid_max(leaf & 0x80000000u, nullptr);
  if (top < leaf) return std::nullopt;
  __cpuid_count(leaf, sub, r.a, r.b, r.c, r.d);
  return r;
}

// Intel's deterministic address translation leaf: one sub-leaf per TLB.
nlohmann::json intel_tlb_levels() {
  nlohmann::json levels = nlohmann::json::array();
  const auto first = cpuid_leaf(0x18);
  if (!first) return levels;
  for (unsigned sub = 0; sub <= first->a && sub < 64; ++sub) {
    const CpuidRegs r = *cpuid_leaf(0x18, sub);
    const unsigned type = r.d & 0x1f;  // 1 data, 3 unified, 4 load-only
    if (type != 1 && type != 3 && type != 4) continue;
    const int level = static_cast<int>((r.d >> 5) & 0x7);
    const std::uint64_t entries = std::uint64_t{(r.b >> 16) & 0xffff} * r.c;
    const char* kind = type == 3 ? "unified" : "data";
    if (r.b & 1) add_tlb_level(levels, level, kind, 4096, entries);
    if (r.b & 2) add_tlb_level(levels, level, kind, 2u << 20, entries);
  }
  return levels;
}

// AMD's L1 and L2 TLB leaves: data TLB entries for 4 KiB and 2 MiB pages.
nlohmann::json amd_tlb_levels() {
  nlohmann::json levels = nlohmann::json::array();
  if (const auto l1 = cpuid_leaf(0x80000005)) {
    add_tlb_level(levels, 1, "data", 4096, (l1->b >> 16) & 0xff);
    add_tlb_level(levels, 1, "data", 2u << 20, (l1->a >> 16) & 0xff);
  }
  if (const auto l2 = cpuid_leaf(0x80000006)) {
    add_tlb_level(levels, 2, "data", 4096, (l2->b >> 16) & 0xfff);
    add_tlb_level(levels, 2, "data", 2u << 20, (l2->a >> 16) & 0xfff);
  }
  return levels;
}

std::string cpuid_vendor() {
  const auto r = cpuid_leaf(0);
  if (!r) return "";
  char id[13] = {};
  for (int i = 0; i < 4; ++i) {
    id[i] = static_cast<char>(r->b >> (8 * i));
    id[4 + i] = static_cast<char>(r->d >> (8 * i));
    id[8 + i] = static_cast<char>(r->c >> (8 * i));
  }
  return id;
}
#endif

}  // namespace

nlohmann::json tlb_facts() {
#if defined(__x86_64__) || defined(__i386__)
  const std::string v = cpuid_vendor();
  const bool amd = v == "AuthenticAMD" || v == "HygonGenuine";
  if (!amd && v != "GenuineIntel") return unknown_tlb("CPUID vendor '" + v + "': its TLB leaves are not read");
  const nlohmann::json levels = amd ? amd_tlb_levels() : intel_tlb_levels();
  if (levels.empty()) {
    return unknown_tlb(amd ? "CPUID leaves 0x80000005/6 give no data TLB" : "CPUID leaf 0x18 absent or empty");
  }
  return {{"levels", levels}, {"source", amd ? "CPUID 0x80000005, 0x80000006" : "CPUID 0x18"}};
#else
  return unknown_tlb("no CPUID on this architecture, and Linux's sysfs has no TLB sizes");
#endif
}

nlohmann::json page_size_setting() {
  const long page = sysconf(_SC_PAGESIZE);
  if (page <= 0) return {{"value", "unknown"}, {"why", "sysconf failed"}, {"source", "sysconf(_SC_PAGESIZE)"}};
  nlohmann::json j = {{"value", page}, {"source", "sysconf(_SC_PAGESIZE)"}};
  // THP's huge page, where the kernel has THP.
  const std::string pmd = "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size";
  if (const auto line = first_line_of(pmd)) {
    try {
      j["huge_bytes"] = std::stoull(*line);
      j["source"] = "sysconf(_SC_PAGESIZE), " + pmd;
    } catch (const std::exception&) {
    }
  }
  return j;
}

}  // namespace movebench::facts
