// CPU time: the clock a loop is sized on where a wait must not shorten it.
// It stands still while the thread (or process) waits: for a CPU quota's
// next period, or for a CPU another process holds. Timed loops still use
// now_seconds (core/clock.hpp): a wait is part of what they measure.
#pragma once
#include <ctime>

namespace movebench {

inline double cpu_seconds(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}
// This thread's CPU time.
inline double thread_cpu_seconds() { return cpu_seconds(CLOCK_THREAD_CPUTIME_ID); }
// Every thread of this process, together.
inline double process_cpu_seconds() { return cpu_seconds(CLOCK_PROCESS_CPUTIME_ID); }

}  // namespace movebench
