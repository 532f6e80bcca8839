// libFuzzer target: the dmidecode text parser and the DIMM slot-name
// patterns (facts/dmidecode_text, facts/locator). Every input either parses
// or throws UsageError (not dmidecode output); a crash, a sanitizer report or
// another exception is a finding. Inputs that read_text_input would refuse
// (NUL, not UTF-8, escapes) are still parsed: the parser must not rely on it.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/errors.hpp"
#include "facts/locator.hpp"
#include "facts/smbios.hpp"

using namespace movebench;
using namespace movebench::facts;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto memory = parse_dmidecode_text(text);
    for (const auto& d : memory.devices) {
      const auto place = place_of(d.locator, d.bank_locator);
      if (place.slot && *place.slot < 0) std::abort();
      if (d.installed && d.size_bytes && *d.size_bytes == 0) std::abort();
    }
  } catch (const UsageError&) {
  }
  return 0;
}
