// The one way link and stream wait for a device, a worker or a flag: spin
// for the first microseconds (a hand-off is then seen as soon as it
// happens), then sleep in short steps (so a waiter sharing a core with the
// thread it waits for does not starve it), and give up after a bound.
#pragma once
#include <chrono>
#include <thread>

#include "core/clock.hpp"

namespace movebench::device {

inline constexpr double kSpinSeconds = 20e-6;

// True when `ready()` became true, false after timeout_s.
template <class Ready>
bool wait_until(Ready&& ready, double timeout_s) {
  const double start = now_seconds();
  while (!ready()) {
    const double waited = now_seconds() - start;
    if (waited > timeout_s) return false;
    if (waited > kSpinSeconds) std::this_thread::sleep_for(std::chrono::microseconds(5));
  }
  return true;
}

}  // namespace movebench::device
