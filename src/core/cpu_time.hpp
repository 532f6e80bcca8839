// CPU time, beside core/clock.hpp's wall clock: what a piece of work cost
// in running time, which a stop (a CPU quota's throttling, a preemption)
// does not add to.
#pragma once
#include <ctime>

namespace movebench {

// Seconds of CPU this process has used, all its threads together
// (clock_gettime(CLOCK_PROCESS_CPUTIME_ID)).
inline double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace movebench
