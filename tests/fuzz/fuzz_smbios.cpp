// libFuzzer target: the binary SMBIOS structure-table parser
// (facts/smbios_table). Firmware tables are not trusted: any byte string
// must parse without reading out of bounds (AddressSanitizer) and give no
// more structures than bytes allow.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "facts/smbios.hpp"

using namespace movebench::facts;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto memory = parse_smbios_table(std::span<const std::uint8_t>(data, size));
  // Every structure takes at least its 4-byte header and 2 NULs.
  if ((memory.devices.size() + memory.processors.size() + memory.arrays.size()) * 6 > size) std::abort();
  return 0;
}
