// The one clock every timed loop uses, and how to size a loop to a budget.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>

namespace movebench {

// Seconds on the monotonic clock (clock_gettime(CLOCK_MONOTONIC) on Linux).
inline double now_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// The smallest non-zero step the clock shows, measured.
double clock_resolution_seconds();

// How many calls of `call` fill `budget_s`: one priming call (untimed, it
// pays for first touch and warm-up), then a few timed calls to estimate the
// cost of one; clamped to [min_calls, max_calls].
template <class Call>
std::size_t calls_for_budget(Call&& call, double budget_s, std::size_t min_calls,
                             std::size_t max_calls) {
  call();
  std::size_t probes = 0;
  const double start = now_seconds();
  double elapsed = 0;
  do {
    call();
    ++probes;
    elapsed = now_seconds() - start;
  } while (elapsed < budget_s / 20 && probes < max_calls);
  const double per_call = elapsed / static_cast<double>(probes);
  const double wanted = per_call > 0 ? budget_s / per_call : static_cast<double>(max_calls);
  return std::clamp(static_cast<std::size_t>(std::ceil(wanted)), min_calls, max_calls);
}

}  // namespace movebench
