// coll's timing: mpiBench's estimate and timed loop (coll_measure.hpp).
#include "coll/coll_measure.hpp"

#include <cstring>
#include <vector>

#include "core/clock.hpp"

namespace movebench::net {
namespace {

// The timed loop: the collective (and the barrier unless --no-barrier),
// nothing else. Seconds per call on this rank. With --per-call, OSU's
// procedure: each call timed alone, the barrier outside the timer. With
// `each` (--percentiles), every iteration's seconds there too: with
// --per-call the call's, else the clock read after every iteration (its
// call and barrier; the mean is still the loop's whole time over iters).
double time_loop(const CollCase& c, const CollOptions& o, int iters, std::vector<double>* each = nullptr) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (o.per_call) {
    double total = 0;
    if (each != nullptr) each->assign(static_cast<std::size_t>(iters), 0);
    for (int i = 0; i < iters; ++i) {
      const double t0 = now_seconds();
      call_collective(c);
      const double call = now_seconds() - t0;
      total += call;
      if (each != nullptr) (*each)[static_cast<std::size_t>(i)] = call;
      MPI_Barrier(c.comm);
    }
    return total / iters;
  }
  if (each != nullptr) {
    return timed_each(
               [&] {
                 call_collective(c);
                 if (!o.no_barrier) MPI_Barrier(c.comm);
               },
               iters, 1, *each) /
           iters;
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
  StepTiming t;
  std::vector<double>* each = o.percentiles ? &t.per_iteration : nullptr;
  const double estimate = time_loop(c, o, kEstimateIters, each);
  int iters = fit_iterations(estimate, o.time_limit_s, o.max_repetitions, kEstimateIters);
  // Rank 0's count for everyone, as mpiBench.
  MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
  t.iters = iters;
  // The estimate's iterations are those kept when it is the measurement.
  t.seconds_per_call = iters > kEstimateIters ? time_loop(c, o, iters, each) : estimate;
  if (o.checking()) t.check_error = check_calls(c, o.check_every ? iters : 1, buffers, fail);
  return t;
}

}  // namespace movebench::net
