#include "core/clock.hpp"

#include <algorithm>
#include <cmath>

namespace movebench {

std::uint64_t calls_to_fill(double budget_s, double seconds, std::uint64_t calls, std::uint64_t least,
                            std::uint64_t most, Fill fill) {
  if (!(seconds > 0)) return most;
  const double wanted = static_cast<double>(calls) * budget_s / seconds;
  const double rounded = fill == Fill::kAtLeast ? std::ceil(wanted) : std::floor(wanted);
  // Clamped as a double first: a count beyond 2^64 cannot be converted.
  return static_cast<std::uint64_t>(std::clamp(rounded, static_cast<double>(least), static_cast<double>(most)));
}

}  // namespace movebench
