// libFuzzer target: CPU lists ("0-3,8") and placements (--bind). A list
// that parses holds CPU numbers a cpu_set_t can hold and formats back into
// a list that parses to the same CPUs; anything else throws UsageError.
#include <sched.h>

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/affinity.hpp"
#include "core/errors.hpp"

using namespace movebench;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto cpus = parse_cpu_list(text);
    for (int c : cpus) {
      if (c < 0 || c >= CPU_SETSIZE) std::abort();
    }
    if (!cpus.empty() && parse_cpu_list(format_cpu_list(cpus)).size() != cpus.size()) std::abort();
  } catch (const UsageError&) {
  }
  try {
    Placement::parse(text);
  } catch (const UsageError&) {
  }
  return 0;
}
