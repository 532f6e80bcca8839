#include "facts/lspci.hpp"

#include <fmt/format.h>

#include <cctype>
#include <fstream>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "facts/input_file.hpp"
#include "facts/pcie_device.hpp"

namespace movebench::facts {
namespace {

// One `lspci -vv` entry as read: the device and, for a bridge, the bus behind it.
struct Entry {
  PcieDeviceFacts device;
  int domain = 0, bus = 0;
  int secondary_bus = -1;  // a bridge's "Bus: ... secondary=NN"
};

struct Reader {
  std::string_view source;
  std::size_t line_number = 0;
  [[noreturn]] void fail(const std::string& what) const {
    throw UsageError(fmt::format("--lspci {}: line {}: {}", source, line_number, what));
  }
};

bool is_hex(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

int hex_value(std::string_view s) { return static_cast<int>(std::stol(std::string(s), nullptr, 16)); }

// Whether `s` is valid UTF-8 (RFC 3629: no overlong forms, surrogates or
// code points above U+10FFFF).
bool valid_utf8(std::string_view s) {
  constexpr unsigned kMinCodePoint[] = {0, 0x80, 0x800, 0x10000};
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t more = 0;
    unsigned cp = c;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if ((c & 0xe0) == 0xc0) {
      more = 1, cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      more = 2, cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      more = 3, cp = c & 0x07;
    } else {
      return false;
    }
    if (s.size() - i <= more) return false;
    for (std::size_t k = 1; k <= more; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if (cp < kMinCodePoint[more] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += more + 1;
  }
  return true;
}

// Text, not a binary or a terminal trick: no NUL, no control character but
// tab, newline and carriage return (an escape sequence could rewrite the
// user's terminal when a name is printed), valid UTF-8.
void check_text(std::string_view text, std::string_view source) {
  if (text.empty())
    throw UsageError(fmt::format("--lspci {}: the file is empty (give the output of `lspci -vv`)", source));
  if (text.size() > kMaxLspciBytes) {
    throw UsageError(fmt::format("--lspci {}: {} bytes, over the {} MiB an `lspci -vv` output can be", source,
                                 text.size(), kMaxLspciBytes >> 20));
  }
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == 0)
      throw UsageError(fmt::format("--lspci {}: a NUL byte at offset {}: a binary file, not text", source, i));
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
      throw UsageError(
          fmt::format("--lspci {}: control character 0x{:02x} at offset {}: not `lspci -vv` text", source, c, i));
    }
  }
  if (!valid_utf8(text)) throw UsageError(fmt::format("--lspci {}: not UTF-8 text (a binary file?)", source));
}

// Spaces and tabs off both ends, and a CRLF file's \r off the end.
std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// "17:00.0" or "0000:17:00.0" -> domain and bus; nullopt when the token is
// not a bus id (then the line is no entry header).
std::optional<std::pair<int, int>> parse_bus_id(std::string_view id) {
  int domain = 0;
  if (id.size() == 12 && id[4] == ':') {
    if (!is_hex(id.substr(0, 4))) return std::nullopt;
    domain = hex_value(id.substr(0, 4));
    id.remove_prefix(5);
  }
  if (id.size() != 7 || id[2] != ':' || id[5] != '.' || !is_hex(id.substr(0, 2)) || !is_hex(id.substr(3, 2)) ||
      id[6] < '0' || id[6] > '7' || hex_value(id.substr(3, 2)) > 0x1f) {
    return std::nullopt;
  }
  return std::make_pair(domain, hex_value(id.substr(0, 2)));
}

// "3D controller [0302]" -> 0x0302; "3D controller" -> the table's code.
int parse_class(std::string_view text) {
  const auto open = text.rfind(" [");
  if (open != std::string_view::npos && text.size() == open + 7 && text.back() == ']' &&
      is_hex(text.substr(open + 2, 4))) {
    return hex_value(text.substr(open + 2, 4));
  }
  return pcie_class_from_name(text);
}

// "NVIDIA Corporation GA100 [A100 PCIe 40GB] [10de:20b0] (rev a1)": the name
// without the revision and programming interface, and the ids `-nn` adds.
void parse_name(std::string_view text, PcieDeviceFacts& device) {
  for (const char* tail : {" (rev ", " (prog-if "}) {
    const auto at = text.find(tail);
    if (at != std::string_view::npos) text = text.substr(0, at);
  }
  const auto open = text.rfind(" [");
  if (open != std::string_view::npos && text.size() == open + 12 && text.back() == ']' && text[open + 6] == ':' &&
      is_hex(text.substr(open + 2, 4)) && is_hex(text.substr(open + 7, 4))) {
    device.vendor_id = std::string(text.substr(open + 2, 4));
    device.device_id = std::string(text.substr(open + 7, 4));
    text = text.substr(0, open);
  }
  device.name = std::string(text);
}

// An entry's first line: "<bus id> <class>: <name>"; nullopt when not one.
std::optional<Entry> parse_header(std::string_view line, const std::string& source) {
  const auto space = line.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const auto where = parse_bus_id(line.substr(0, space));
  const auto colon = line.find(": ", space);
  if (!where || colon == std::string_view::npos) return std::nullopt;
  Entry entry;
  entry.domain = where->first;
  entry.bus = where->second;
  entry.device.bus_id = normalize_bus_id(std::string(line.substr(0, space)));
  entry.device.link.bus_id = entry.device.bus_id;
  entry.device.class_code = parse_class(line.substr(space + 1, colon - space - 1));
  parse_name(line.substr(colon + 2), entry.device);
  entry.device.source = "lspci -vv " + source;
  return entry;
}

// The value after `key` ("Speed ", "Width ") up to the next comma; empty when absent.
std::string_view field(std::string_view line, std::string_view key) {
  const auto at = line.find(key);
  if (at == std::string_view::npos) return {};
  std::string_view value = line.substr(at + key.size());
  return trim_blanks(value.substr(0, value.find(',')));
}

// "16GT/s", "2.5GT/s (downgraded)", "unknown" -> GT/s (0: unknown) and the marker.
std::pair<double, bool> parse_speed_field(std::string_view value, const Reader& reader) {
  if (value.empty()) reader.fail("a link line without its Speed (a truncated file?)");
  const bool downgraded = value.find("(downgraded)") != std::string_view::npos;
  if (value.substr(0, 7) == "unknown") return {0, downgraded};
  std::size_t digits = 0;
  while (digits < value.size() && digits < 8 &&
         (std::isdigit(static_cast<unsigned char>(value[digits])) || value[digits] == '.')) {
    ++digits;
  }
  const double gts = parse_link_speed(std::string(value.substr(0, digits)));
  if (digits == 0 || value.substr(digits, 4) != "GT/s" || pcie_generation(gts) == 0) {
    reader.fail(fmt::format("link speed '{}' is not a PCIe rate (2.5 to 64 GT/s)", value.substr(0, 24)));
  }
  return {gts, downgraded};
}

// "x16", "x8 (downgraded)" -> lanes and the marker.
std::pair<int, bool> parse_width_field(std::string_view value, const Reader& reader) {
  if (value.size() < 2 || value[0] != 'x') reader.fail("a link line without its Width (a truncated file?)");
  std::size_t digits = 1;
  while (digits < value.size() && std::isdigit(static_cast<unsigned char>(value[digits]))) ++digits;
  const std::string number(value.substr(1, digits - 1));
  if (number.empty() || number.size() > 2 || std::stoi(number) > 32) {
    reader.fail(fmt::format("link width '{}' is not a PCIe width (x1 to x32)", value.substr(0, 24)));
  }
  return {std::stoi(number), value.find("(downgraded)") != std::string_view::npos};
}

// One indented line of an entry: the link, NUMA node and bridge lines.
void parse_body_line(std::string_view line, Entry& entry, const Reader& reader) {
  PcieDeviceFacts& d = entry.device;
  if (line.substr(0, 7) == "LnkCap:" || line.substr(0, 7) == "LnkSta:") {
    const auto [speed, slow] = parse_speed_field(field(line, "Speed "), reader);
    const auto [width, narrow] = parse_width_field(field(line, "Width "), reader);
    d.has_link = true;
    if (line[3] == 'C') {
      d.link.max_speed_gts = speed, d.link.max_width = width, d.link.max_gen = pcie_generation(speed);
    } else {
      d.link.speed_gts = speed, d.link.width = width, d.link.gen = pcie_generation(speed);
      d.lspci_speed_downgraded = slow, d.lspci_width_downgraded = narrow;
    }
  } else if (line.substr(0, 10) == "NUMA node:") {
    const std::string_view value = trim_blanks(line.substr(10));
    if (!value.empty() && value.size() <= 4 && value.find_first_not_of("0123456789") == value.npos) {
      d.link.numa_node = std::stoi(std::string(value));
    }
  } else if (line.substr(0, 4) == "Bus:") {
    const std::string_view secondary = field(line, "secondary=");
    if (secondary.size() == 2 && is_hex(secondary)) entry.secondary_bus = hex_value(secondary);
  }
}

// Each listed device's upstream port: the bridge whose secondary bus is the
// device's bus, in the same domain.
void link_upstream_ports(std::vector<Entry>& entries) {
  std::map<std::pair<int, int>, const Entry*> bridge_of_bus;
  for (const auto& e : entries) {
    if (e.secondary_bus >= 0) bridge_of_bus[{e.domain, e.secondary_bus}] = &e;
  }
  for (auto& e : entries) {
    const auto it = bridge_of_bus.find({e.domain, e.bus});
    if (it == bridge_of_bus.end() || !it->second->device.has_link || &e == it->second) continue;
    e.device.upstream_bus_id = it->second->device.bus_id;
    e.device.upstream_max_speed_gts = it->second->device.link.max_speed_gts;
    e.device.upstream_max_width = it->second->device.link.max_width;
  }
}

struct Parsed {
  std::vector<Entry> entries;
  bool indented_lines = false, access_denied = false;
};

Parsed parse_entries(std::string_view text, const std::string& source) {
  Parsed out;
  Reader reader{source};
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = std::min(text.find('\n', start), text.size());
    const std::string_view raw = text.substr(start, end - start);
    start = end + 1;
    ++reader.line_number;
    if (raw.size() > kMaxLspciLineBytes) reader.fail(fmt::format("a line over {} KiB", kMaxLspciLineBytes >> 10));
    const std::string_view line = trim_blanks(raw);
    if (line.empty()) continue;
    if (raw.front() != ' ' && raw.front() != '\t') {
      if (auto entry = parse_header(line, source)) {
        if (out.entries.size() == kMaxLspciEntries) reader.fail(fmt::format("over {} entries", kMaxLspciEntries));
        out.entries.push_back(std::move(*entry));
      }
      continue;
    }
    out.indented_lines = true;
    if (line.find("<access denied>") != std::string_view::npos) out.access_denied = true;
    if (!out.entries.empty()) parse_body_line(line, out.entries.back(), reader);
  }
  return out;
}

}  // namespace

// One reader for every saved tool output (facts/input_file): a FIFO, a
// folder or /dev/zero is one line, never a hang.
std::string read_lspci_file(const std::string& path) { return read_text_input(path, "--lspci"); }

nlohmann::json parse_lspci(std::string_view text, const std::string& source_name) {
  check_text(text, source_name);
  Parsed parsed = parse_entries(text, source_name);
  if (parsed.entries.empty()) {
    throw UsageError(
        fmt::format("--lspci {}: no device entry (\"17:00.0 3D controller: ...\"): not `lspci -vv` text", source_name));
  }
  if (!parsed.indented_lines) {
    throw UsageError(
        fmt::format("--lspci {}: no capability lines: give the output of `lspci -vv`, not `lspci`", source_name));
  }
  bool any_link = false;
  for (const auto& e : parsed.entries) any_link = any_link || e.device.has_link;
  if (!any_link && parsed.access_denied) {
    throw UsageError(
        fmt::format("--lspci {}: the capabilities read <access denied>: run `lspci -vv` as root", source_name));
  }
  link_upstream_ports(parsed.entries);
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& e : parsed.entries) {
    if (!pcie_kind(e.device.class_code).empty()) devices.push_back(to_json(e.device));
  }
  return devices;
}

}  // namespace movebench::facts
