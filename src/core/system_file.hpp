// The first line of a small system file (/proc, /sys): the one reader every
// layer uses (host facts, the facts layer's settings, PCIe and NICs). No
// dependency beyond the standard library, so the parsers' fuzz targets link it.
#pragma once
#include <optional>
#include <string>

namespace movebench {

// At most 4 KiB of the first line; nullopt when the file cannot be read.
std::optional<std::string> first_line_of(const std::string& path);
// The same, "" when the file cannot be read (sysfs attributes a driver may
// not have: the callers treat empty as unknown).
std::string first_line_or_empty(const std::string& path);

}  // namespace movebench
