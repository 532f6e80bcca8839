// What movebench knows of a machine, and the theoretical peak of each path
// data moves on (docs/facts.md): CPU, DRAM, PCIe links, NICs, memory tiers
// and the settings that change the figures. Read from the machine itself
// (hwloc, /proc, sysfs, the SMBIOS table) or from another machine's saved
// outputs (`dmidecode`, `lspci -vv`), so an admin can check a node from its
// files and the tests can use real ones.
//
// Every part is a JSON object of the result document's `facts` (schema 3).
// A fact that cannot be read is never guessed: its object says
// "status": "unknown" and "why" (e.g. "SMBIOS table not readable: run as
// root or give --dmidecode FILE"). Every figure names its "source".
// Peaks are bytes per second per direction (decimal), like every bandwidth
// movebench records before scaling.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace movebench::facts {

// A fact as the text output shows it: a string as it is, null as "unknown",
// anything else as its JSON.
std::string fact_text(const nlohmann::json& v);

// Where the facts come from. Every root is a parameter so the tests can point
// at committed real outputs and at a made-up sysfs tree.
struct Sources {
  std::string dmidecode_file;  // text of `dmidecode`, `dmidecode -t memory` or `-t 17`; empty: this machine
  std::string lspci_file;      // text of `lspci -vv` (as root); empty: this machine's sysfs
  std::string sysfs_root = "/sys";
  std::string proc_root = "/proc";
  // Where "/.dockerenv" and "/run/.containerenv" are looked for (setting_facts).
  std::string root_dir = "";
};

// A malformed, truncated, binary, empty or hostile --dmidecode/--lspci file is
// a UsageError (core/errors.hpp): one line, exit 2.

// {"model", "model_source": "cpuinfo"|"smbios"|"midr"|"none", "model_from"
//  (in words; facts/cpu_model.hpp), "vendor", "family", "model_number",
//  "sockets", "cores", "threads_per_core", "numa_nodes", "caches": [...], "source"}
nlohmann::json cpu_facts(const Sources& sources);

// {"status": "known"|"unknown", "why", "source",
//  "dimms": [{"locator", "bank_locator", "socket", "channel", "slot", "type",
//             "size_bytes", "rated_mts", "configured_mts", "data_width_bits",
//             "manufacturer", "part_number"}],
//  "empty_slots": [{"locator", "bank_locator", "socket", "channel"}],
//  "channels_per_socket", "channels_source" (the CPU table's row and its source),
//  "sockets": [{"socket", "channels_total", "channels_populated",
//               "dimms_per_channel", "configured_mts", "peak_bytes_per_second",
//               "numa_nodes"}],
//  "peak_bytes_per_second" (all sockets), "peak_formula",
//  "faults": [{"kind": "empty_channels"|"clocked_down"|"mixed_speeds"|
//              "dimms_per_channel"|"unknown_cpu"..., "text"}]}
nlohmann::json dram_facts(const Sources& sources, const nlohmann::json& cpu);

// [{"bus_id", "kind": "gpu"|"accelerator"|"nic"|..., "name", "numa_node",
//   "speed_gts", "width", "max_speed_gts", "max_width", "gen", "max_gen",
//   "encoding": "8b/10b"|"128b/130b"|"flit",
//   "peak_bytes_per_second", "max_peak_bytes_per_second",
//   "degraded": bool, "why", "source": "sysfs"|"lspci -vv FILE"}]
nlohmann::json pcie_facts(const Sources& sources);

// [{"name", "kind": "ethernet"|"infiniband", "port", "rate_bits_per_second",
//   "peak_bytes_per_second", "bus_id", "source"}]
nlohmann::json nic_facts(const Sources& sources);

// hwloc's memory attributes (HMAT) per initiator and target where the
// firmware gives them: [{"target", "kind": "dram"|"hbm"|"cxl"|"far",
//   "initiator", "bandwidth_bytes_per_second", "latency_ns", "source"}],
// or {"status": "unknown", "why"}.
nlohmann::json memory_tier_facts(const Sources& sources);

// {"thp": {"value", "warning"}, "governor", "boost", "smt",
//  "numa_balancing", "memlock_bytes", "iommu", "virtualization",
//  "cgroup_cpu", "cgroup_memory", ...}: each {"value", "source"} and, where
// it lowers the figures, "warning" (one line, printed once per run).
nlohmann::json setting_facts(const Sources& sources);

// Whose machine each part describes, keyed by part ("cpu", "dram", "pcie",
// "accelerators", "nics", "memory_tiers", "settings"):
//   {"machine": "this"}: no file given, every part is this machine's;
//   {"machine": "file", "option": "--dmidecode", "file"}: read from that file;
//   {"machine": "none", "why": "not in the file (--lspci F): ..."}: files were
//   given and none of them describes the part (CPU and DRAM: --dmidecode;
//   PCIe: --lspci; accelerators, NICs, memory tiers, settings: no file).
// With a file given the facts are the file's machine's: a part no file tells
// is never filled with this machine's.
nlohmann::json fact_origins(const Sources& sources);

// All of the above: {"origin" (fact_origins), "cpu", "dram", "pcie",
// "accelerators" (facts/accelerators.hpp), "nics", "memory_tiers",
// "settings", "warnings": [...]}. A part whose origin is "none" is
// {"status": "unknown", "why": its origin's why} (the CPU's also with
// "model": "unknown"; the settings {}, and so no warnings).
nlohmann::json collect(const Sources& sources);

// The entries of a list part of `facts` ("pcie", "nics"): [] where the part
// is absent or unknown (an object), so every reader can loop over it.
nlohmann::json listed(const nlohmann::json& facts, const char* part);

}  // namespace movebench::facts
