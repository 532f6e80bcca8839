// The peak of each kind of path, for judge/peaks.cpp. Each returns a peak
// object in bytes per second per direction ({"path", "kind", "label",
// "bytes_per_second", "source"}), or one with "status" "unknown" or "none"
// and "why" (peaks.hpp).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace movebench::judge {

// A figure with no peak by its nature, and why ({"status": "none", "why"}).
nlohmann::json peak_none(const std::string& why);

// mem.<kernel>.<N>t (host memory) or mem.<kernel>.<backend> (a device's).
nlohmann::json mem_peak(const nlohmann::json& doc, const nlohmann::json& facts, const std::string& rest);
// link.*: the NVLink-C2C peak of the document's link_device where it is on C2C,
// else its PCIe link at its maximum.
nlohmann::json link_peak(const nlohmann::json& doc, const nlohmann::json& facts);
// p2p, coll, beff: the NIC rate when the ranks are on more than one host.
nlohmann::json network_peak(const nlohmann::json& doc, const nlohmann::json& facts, const std::string& name);

}  // namespace movebench::judge
