// The data TLBs and the base page size (docs/facts.md, cpu.tlb and
// settings.page_bytes): what a step in a sweep at a TLB's reach (entries x
// page size) is named after (judge/steps).
#pragma once
#include <nlohmann/json.hpp>

namespace movebench::facts {

// {"levels": [{"level", "kind": "data"|"unified", "page_bytes", "entries",
//   "reach_bytes"}], "source"}: from CPUID, leaf 0x18 on Intel, leaves
// 0x80000005 and 0x80000006 on AMD and Hygon; else {"status": "unknown",
// "why"} (another CPU or architecture: Linux's sysfs has no TLB sizes).
nlohmann::json tlb_facts();

// {"value": the base page size in bytes, "huge_bytes": THP's huge page
// (hpage_pmd_size) where the kernel has THP, "source"}.
nlohmann::json page_size_setting();

}  // namespace movebench::facts
