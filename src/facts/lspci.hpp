// The text of `lspci -vv` (run as root: without root, lspci hides the
// capabilities and so the links), read into the same JSON as sysfs gives.
#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace movebench::facts {

// Bounds on what is read: the largest real outputs are a few MiB (a big
// server prints ~100 KiB per 100 devices); 65536 entries is every function
// of every device on 256 buses.
inline constexpr std::size_t kMaxLspciBytes = 64u << 20;
inline constexpr std::size_t kMaxLspciLineBytes = 64u << 10;
inline constexpr std::size_t kMaxLspciEntries = 65536;

// The file's text; UsageError (one line) when it cannot be read, is empty
// or over kMaxLspciBytes.
std::string read_lspci_file(const std::string& path);

// The listed devices of `lspci -vv` text, as pcie_facts gives them, with
// "source": "lspci -vv <source_name>". A text that is binary (NUL bytes,
// invalid UTF-8), holds terminal control characters, is empty, over the
// bounds above, truncated inside a link line, has absurd link numbers or no
// device entry at all is a UsageError naming the line.
nlohmann::json parse_lspci(std::string_view text, const std::string& source_name);

}  // namespace movebench::facts
