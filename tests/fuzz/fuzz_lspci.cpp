// libFuzzer target: the `lspci -vv` parser of the facts layer (--lspci FILE).
// Every input must either give a JSON array of listed devices that keeps the
// documented promises, or throw UsageError; anything else (a crash, a
// sanitizer report, another exception, a hang) is a finding.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/errors.hpp"
#include "facts/lspci.hpp"

namespace {
void require(bool ok) {
  if (!ok) std::abort();
}

bool peak_ok(const nlohmann::json& v) {
  return v.is_null() || (v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() > 0 &&
                         v.get<double>() <= 64e9 * 32 / 8);  // Gen6 x32, before encoding
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto devices = movebench::facts::parse_lspci(text, "fuzz");
    require(devices.is_array());
    for (const auto& d : devices) {
      require(d.contains("bus_id") && d.contains("kind") && d.contains("degraded"));
      if (d["has_link"].get<bool>()) {
        require(peak_ok(d["peak_bytes_per_second"]) && peak_ok(d["max_peak_bytes_per_second"]));
        require(d["width"].get<int>() >= 0 && d["width"].get<int>() <= 32);
        require(!d["degraded"].get<bool>() || !d["why"].get<std::string>().empty());
      }
      d.dump();  // the names must serialise (valid UTF-8)
    }
  } catch (const movebench::UsageError&) {
  }
  return 0;
}
