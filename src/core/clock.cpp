#include "core/clock.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace movebench {

std::uint64_t calls_to_fill(double budget_s, double seconds, std::uint64_t calls, std::uint64_t least,
                            std::uint64_t most, Fill fill) {
  if (!(seconds > 0)) return most;
  const double wanted = static_cast<double>(calls) * budget_s / seconds;
  const double rounded = fill == Fill::kAtLeast ? std::ceil(wanted) : std::floor(wanted);
  // Clamped as a double first: a count beyond 2^64 cannot be converted.
  return static_cast<std::uint64_t>(std::clamp(rounded, static_cast<double>(least), static_cast<double>(most)));
}

const ClockCost& clock_read_cost() {
  static const ClockCost cost = [] {
    constexpr int kPairs = 1000;
    std::vector<double> differences(kPairs);
    for (auto& d : differences) {
      const double t0 = now_seconds();
      d = now_seconds() - t0;
    }
    std::sort(differences.begin(), differences.end());
    return ClockCost{differences[kPairs / 2], differences.front(), kPairs};
  }();
  return cost;
}

}  // namespace movebench
