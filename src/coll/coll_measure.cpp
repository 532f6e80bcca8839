// coll's timing: mpiBench's estimate and timed loop (coll_measure.hpp).
#include "coll/coll_measure.hpp"

#include <cstring>

#include "core/clock.hpp"

namespace movebench::net {
namespace {

// The timed loop: the collective (and the barrier unless --no-barrier),
// nothing else. Seconds per call on this rank. With --per-call, OSU's
// procedure: each call timed alone, the barrier outside the timer.
double time_loop(const CollCase& c, const CollOptions& o, int iters) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (o.per_call) {
    double total = 0;
    for (int i = 0; i < iters; ++i) {
      const double t0 = now_seconds();
      call_collective(c);
      total += now_seconds() - t0;
      MPI_Barrier(c.comm);
    }
    return total / iters;
  }
  const double t0 = now_seconds();
  if (o.no_barrier) {
    for (int i = 0; i < iters; ++i) call_collective(c);
  } else {
    for (int i = 0; i < iters; ++i) {
      call_collective(c);
      MPI_Barrier(c.comm);
    }
  }
  return (now_seconds() - t0) / iters;
}

}  // namespace

StepTiming measure_step(const CollCase& c, const CollOptions& o, const CollBuffers& buffers, FailMode fail) {
  const std::size_t elements = buffers.send.size() / c.elem;
  fill_send(c, elements, 0);
  std::memset(c.recv, 0, buffers.recv.size());
  time_loop(c, o, 1);
  const double estimate = time_loop(c, o, kEstimateIters);
  int iters = fit_iterations(estimate, o.time_limit_s, o.max_repetitions, kEstimateIters);
  // Rank 0's count for everyone, as mpiBench.
  MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
  StepTiming t;
  t.iters = iters;
  t.seconds_per_call = iters > kEstimateIters ? time_loop(c, o, iters) : estimate;
  if (o.checking()) t.check_error = check_calls(c, o.check_every ? iters : 1, buffers, fail);
  return t;
}

}  // namespace movebench::net
