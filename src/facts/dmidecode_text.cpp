// The text dmidecode prints. Its wording changed across versions (2.x to
// 3.6), so each field is looked up under every name it had:
//   "Configured Memory Speed" (3.1+) / "Configured Clock Speed" (before),
//   speeds in "MT/s" (3.2+) or "MHz" (before: the same number, the transfer
//   rate, which SMBIOS before 3.1.1 called a clock),
//   sizes in kB, MB, GB or TB, and "No Module Installed" for an empty slot,
//   types it does not know (DDR5 before 3.3) printed as "<OUT OF SPEC>".
#include <fmt/format.h>

#include <charconv>
#include <map>

#include "core/errors.hpp"
#include "facts/smbios.hpp"

namespace movebench::facts {
namespace {

using Fields = std::map<std::string, std::string, std::less<>>;

struct Block {
  int type = -1;
  Fields fields;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// "Handle 0x0011, DMI type 17, 84 bytes" -> 17; -1 when the line is not one.
int handle_type(std::string_view line) {
  if (!line.starts_with("Handle 0x")) return -1;
  const auto at = line.find("DMI type ");
  if (at == std::string_view::npos) return -1;
  int type = -1;
  const char* begin = line.data() + at + 9;
  auto [end, ec] = std::from_chars(begin, line.data() + line.size(), type);
  return ec == std::errc() && end != begin ? type : -1;
}

// One structure per "Handle" line; its one-tab "Key: Value" lines are its
// fields (two-tab lines are list items of the key before: not needed here).
std::vector<Block> split_blocks(std::string_view text) {
  std::vector<Block> blocks;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (const int type = handle_type(line); type >= 0) {
      blocks.push_back({type, {}});
      continue;
    }
    if (blocks.empty() || line.size() < 2 || line[0] != '\t' || line[1] == '\t') continue;
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    blocks.back().fields.emplace(std::string(trim(line.substr(1, colon - 1))),
                                 std::string(trim(line.substr(colon + 1))));
  }
  return blocks;
}

std::string field(const Fields& fields, std::initializer_list<std::string_view> names) {
  for (auto name : names) {
    if (auto it = fields.find(name); it != fields.end()) return it->second;
  }
  return "";
}

// The leading whole number and the word after it: "3200 MT/s" -> 3200, "MT/s".
std::optional<std::uint64_t> leading_number(std::string_view value, std::string_view& unit) {
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || end == value.data()) return std::nullopt;
  unit = trim(std::string_view(end, value.data() + value.size() - end));
  return n;
}

// "3200 MT/s" or "1600 MHz" -> 3200 / 1600; "Unknown", "0 MT/s" -> none.
std::optional<std::uint32_t> parse_speed(std::string_view value) {
  std::string_view unit;
  auto n = leading_number(value, unit);
  if (!n || *n == 0 || *n > 1'000'000 || (unit != "MT/s" && unit != "MHz")) return std::nullopt;
  return static_cast<std::uint32_t>(*n);
}

std::optional<std::uint32_t> parse_bits(std::string_view value) {
  std::string_view unit;
  auto n = leading_number(value, unit);
  if (!n || *n == 0 || *n > 4096 || unit != "bits") return std::nullopt;
  return static_cast<std::uint32_t>(*n);
}

// "16384 MB", "32 GB", "512 kB", "1 TB" (binary units, as dmidecode means them).
std::optional<std::uint64_t> parse_size_value(std::string_view value) {
  std::string_view unit;
  auto n = leading_number(value, unit);
  if (!n) return std::nullopt;
  int shift = -1;
  if (unit == "bytes") shift = 0;
  if (unit == "kB" || unit == "KB") shift = 10;
  if (unit == "MB") shift = 20;
  if (unit == "GB") shift = 30;
  if (unit == "TB") shift = 40;
  if (shift < 0 || *n > (std::uint64_t{1} << (63 - shift))) return std::nullopt;
  return *n << shift;
}

std::string known_text(const std::string& value) {
  if (value == "Not Specified" || value == "Unknown" || value == "None" || value.starts_with("<")) return "";
  return value;
}

MemoryDevice memory_device(const Fields& f) {
  MemoryDevice d;
  d.locator = field(f, {"Locator"});
  d.bank_locator = field(f, {"Bank Locator"});
  const std::string size = field(f, {"Size"});
  d.size_bytes = parse_size_value(size);
  const bool empty = size.starts_with("No Module") || size == "Not Installed" || (d.size_bytes && *d.size_bytes == 0);
  d.installed = !empty && !size.empty();
  if (empty) d.size_bytes.reset();
  const std::string type = field(f, {"Type"});
  if (type != "Unknown" && type != "Other" && !type.empty() && type != "<OUT OF SPEC>") d.type = type;
  if (type == "<OUT OF SPEC>") d.type_note = "dmidecode printed <OUT OF SPEC> (a type newer than it knows)";
  d.rated_mts = parse_speed(field(f, {"Speed", "Maximum Speed"}));
  d.configured_mts = parse_speed(field(f, {"Configured Memory Speed", "Configured Clock Speed", "Configured Speed"}));
  d.data_width_bits = parse_bits(field(f, {"Data Width"}));
  d.total_width_bits = parse_bits(field(f, {"Total Width"}));
  d.form_factor = known_text(field(f, {"Form Factor"}));
  d.manufacturer = known_text(field(f, {"Manufacturer"}));
  d.part_number = known_text(field(f, {"Part Number"}));
  if (d.installed) infer_memory_type(d);
  return d;
}

Processor processor(const Fields& f) {
  Processor p;
  p.socket = field(f, {"Socket Designation"});
  p.version = known_text(field(f, {"Version"}));
  p.manufacturer = known_text(field(f, {"Manufacturer"}));
  p.family = known_text(field(f, {"Family"}));  // "<OUT OF SPEC>" (a family newer than dmidecode): ""
  const std::string status = field(f, {"Status"});
  p.populated = status.starts_with("Populated");
  return p;
}

MemoryArray memory_array(const Fields& f) {
  MemoryArray a;
  a.location = field(f, {"Location"});
  std::string_view unit;
  if (auto n = leading_number(field(f, {"Number Of Devices"}), unit); n && *n < 100000) {
    a.devices = static_cast<std::uint32_t>(*n);
  }
  return a;
}

}  // namespace

SmbiosMemory parse_dmidecode_text(std::string_view text) {
  const auto blocks = split_blocks(text);
  if (blocks.empty()) throw UsageError("no DMI structure (no 'Handle 0x..., DMI type N' line): not dmidecode output");
  SmbiosMemory out;
  for (const auto& b : blocks) {
    // "Memory Device Mapped Address" (type 20) also says "Memory Device": the type decides.
    if (b.type == 17) out.devices.push_back(memory_device(b.fields));
    if (b.type == 4) out.processors.push_back(processor(b.fields));
    if (b.type == 16 && field(b.fields, {"Use"}) == "System Memory") out.arrays.push_back(memory_array(b.fields));
  }
  return out;
}

}  // namespace movebench::facts
