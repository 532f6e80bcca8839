// The GPUs' NVLink and NVLink-C2C links from NVML (libnvidia-ml.so.1 by
// dlopen at run time, never a build or link dependency), for the facts'
// accelerators section (docs/facts.md#nvlink, #nvlink-c2c).
#pragma once
#include <nlohmann/json.hpp>

namespace movebench::device {

// Both read in one NVML session: {"nvlink": ..., "c2c": ...}.
//
// nvlink: per GPU its bus id and, for links 0..17, whether each is active
// and NVML's NVLink version number, as NVML gives it:
//   {"status": "known", "source", "devices": [{"bus_id", "links_active",
//     "links": [{"link", "active", "version"}]}]}
// "status": "none" (with "why") where NVML lists no GPU or no GPU has an
// NVLink; "unknown" where the library is missing or does not start.
//
// c2c: per GPU its bus id, NVML's name, whether C2C mode is on
// (nvmlDeviceGetC2cModeInfoV) and its C2C links from the field values
// NVML_FI_DEV_C2C_LINK_COUNT, _GET_STATUS and _GET_MAX_BW (per link, in MB/s):
//   {"status": "known", "source", "devices": [{"bus_id", "name",
//     "mode_enabled" (or "mode_why"), "link_count" (or "links_why"),
//     "links_active", "links": [{"link", "active", "max_mb_per_second"}]}]}
// with "none" and "unknown" as for nvlink. The peak is the facts layer's
// (facts/c2c.hpp).
nlohmann::json nvml_interconnect_facts();

}  // namespace movebench::device
