#include "core/clock.hpp"

namespace movebench {

double clock_resolution_seconds() {
  double best = 1.0;
  for (int i = 0; i < 20; ++i) {
    const double t0 = now_seconds();
    double t1 = now_seconds();
    while (t1 == t0) t1 = now_seconds();
    best = std::min(best, t1 - t0);
  }
  return best;
}

}  // namespace movebench
