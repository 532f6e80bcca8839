#include "mem/team.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/affinity.hpp"
#include "core/clock.hpp"
#include "core/interrupt.hpp"
#include "core/stats.hpp"

namespace movebench::mem {
namespace {

// Each thread's slice starts on a 64-byte boundary, so streaming stores run
// aligned on every thread and no cache line is shared by two threads. The
// slices cover [0, n) exactly: the share is rounded up, the last one ends at n.
std::pair<std::size_t, std::size_t> slice(std::size_t n, int t, int threads, std::size_t elem_bytes) {
  const std::size_t quantum = std::max<std::size_t>(1, 64 / elem_bytes);
  const auto count = static_cast<std::size_t>(threads);
  const std::size_t per = ((n + count - 1) / count + quantum - 1) / quantum * quantum;
  const std::size_t lo = std::min(n, per * static_cast<std::size_t>(t));
  return {lo, t + 1 == threads ? n : std::min(n, lo + per)};
}

void enter_team(const Team& team, int t) {
  if (!team.cpus.empty()) pin_current_thread(team.cpus[static_cast<std::size_t>(t)]);
  set_flush_denormals();
}

template <class T>
bool close_enough(T value, T expected, T tolerance) {
  return std::abs(value - expected) <= tolerance * std::max<T>(std::abs(expected), std::numeric_limits<T>::min());
}

// After a team's timed rounds: drops the rounds a signal left unmeasured
// and returns the total of the threads' sums (one every `pad` elements).
double keep_completed(std::vector<std::vector<double>>& times, int completed, const std::vector<double>& partial,
                      std::size_t pad) {
  for (auto& kernel_times : times) kernel_times.resize(static_cast<std::size_t>(completed));
  double sum = 0;
  for (std::size_t at = 0; at < partial.size(); at += pad) sum += partial[at];
  return sum;
}

// One calibration trial: every thread runs `calls` calls of kernel k in
// `shape` on its window of at most `window` elements, which then moves on
// (offset[t]); returns the seconds between the barriers.
template <class T>
double time_trial(const Workspace<T>& ws, const Team& team, Kernel k, Shape shape, std::size_t calls,
                  std::size_t window, std::vector<std::size_t>& offset) {
  double seconds = 0;
#pragma omp parallel num_threads(team.threads)
  {
    const int t = omp_get_thread_num();
    enter_team(team, t);
    const std::size_t lo = ws.lo[t], hi = ws.hi[t], len = hi - lo;
    const std::size_t w = std::min(len, window);
    const std::size_t at = len > w ? lo + offset[t] % (len - w + 1) / 64 * 64 : lo;
#pragma omp barrier
    const double t0 = now_seconds();
    for (std::size_t i = 0; i < calls; ++i) run_kernel(k, ws.views[t], at, at + w, shape, i);
#pragma omp barrier
#pragma omp master
    { seconds = now_seconds() - t0; }
    offset[t] += w;
  }
  return seconds;
}

}  // namespace

template <class T>
void Workspace<T>::resize(std::size_t n) {
  elements_per_view = n;
  const int threads = static_cast<int>(views.size());
  for (int t = 0; t < threads; ++t) {
    if (shared) {
      std::tie(lo[t], hi[t]) = slice(n, t, threads, sizeof(T));
    } else {
      lo[t] = 0;
      hi[t] = n;
    }
  }
}

template <class T>
Workspace<T> make_workspace(std::size_t n, bool shared, const Team& team, std::size_t alignment, bool huge_pages) {
  Workspace<T> ws;
  ws.shared = shared;
  const int sets = shared ? 1 : team.threads;
  for (int s = 0; s < 4 * sets; ++s) ws.buffers.emplace_back(n * sizeof(T), alignment, huge_pages);
  for (int t = 0; t < team.threads; ++t) {
    const int s = shared ? 0 : t;
    ws.views.push_back({ws.buffers[4 * s].template as<T>(), ws.buffers[4 * s + 1].template as<T>(),
                        ws.buffers[4 * s + 2].template as<T>(), ws.buffers[4 * s + 3].template as<T>()});
  }
  ws.lo.resize(team.threads);
  ws.hi.resize(team.threads);
  ws.resize(n);
  return ws;
}

template <class T>
void initialise(Workspace<T>& ws, const Team& team) {
#pragma omp parallel num_threads(team.threads)
  {
    const int t = omp_get_thread_num();
    enter_team(team, t);
    const auto& v = ws.views[t];
    for (std::size_t i = ws.lo[t]; i < ws.hi[t]; ++i) {
      const Element<T> e = initial_element<T>(i);
      v.a[i] = e.a;
      v.b[i] = e.b;
      v.c[i] = e.c;
      v.d[i] = e.d;
    }
  }
}

template <class T>
std::vector<std::vector<double>> time_sequence(const Workspace<T>& ws, const Team& team,
                                               std::span<const Kernel> sequence, int reps, std::size_t iters,
                                               std::uint64_t first_call, double& sum,
                                               std::vector<ThreadPlacement>* placement) {
  const std::size_t nk = sequence.size();
  std::vector<std::vector<double>> times(nk, std::vector<double>(static_cast<std::size_t>(reps)));
  constexpr std::size_t kPad = 64 / sizeof(double);  // one cache line per thread's partial sum
  std::vector<double> partial(static_cast<std::size_t>(team.threads) * kPad, 0.0);
  if (placement) placement->assign(static_cast<std::size_t>(team.threads), {});
  double previous = 0;
  bool stop = false;
  int completed = 0;
#pragma omp parallel num_threads(team.threads)
  {
    const int t = omp_get_thread_num();
    enter_team(team, t);
    if (placement) (*placement)[t] = {t, current_cpu(), current_affinity_list()};
    const Arrays<T> view = ws.views[t];
    const std::size_t lo = ws.lo[t], hi = ws.hi[t];
    double sums = 0;
#pragma omp barrier
#pragma omp master
    previous = now_seconds();
    for (int r = 0; r < reps; ++r) {
      for (std::size_t k = 0; k < nk; ++k) {
        const Kernel kernel = sequence[k];
        const Shape shape = team.shape_of(kernel);
        const std::uint64_t call = first_call + static_cast<std::uint64_t>(r) * iters;
        if (kernel == Kernel::kSum) {
          for (std::size_t it = 0; it < iters; ++it)
            sums += static_cast<double>(run_kernel(kernel, view, lo, hi, shape, call + it));
        } else {
          for (std::size_t it = 0; it < iters; ++it) run_kernel(kernel, view, lo, hi, shape, call + it);
        }
#pragma omp barrier
#pragma omp master
        {
          const double now = now_seconds();
          times[k][static_cast<std::size_t>(r)] = now - previous;
          previous = now;
        }
      }
      // Between rounds, all threads agree on whether a signal asked to
      // stop; the check is outside every timed region.
#pragma omp master
      {
        completed = r + 1;
        stop = interrupted();
      }
#pragma omp barrier
      if (stop) break;
#pragma omp master
      previous = now_seconds();
    }
    partial[static_cast<std::size_t>(t) * kPad] = sums;
  }
  sum = keep_completed(times, completed, partial, kPad);
  return times;
}

template <class T>
Calibration calibrate_shapes(const Workspace<T>& ws, const Team& team, std::span<const Kernel> kernels,
                             const std::array<std::vector<Shape>, kKernelCount>& candidates, double budget) {
  Calibration result;
  const double start = now_seconds();
  // A window per thread of at most 16 MiB per array: long enough to reach
  // the memory's sustained pace (with 4 MiB windows, trials of 0.2-0.6 ms,
  // the 512- and 256-bit streaming shapes came out in the opposite order to
  // the full run on the Intel Xeon of docs/performance.md, so the runs
  // split between them), short enough that every candidate gets fresh
  // windows (not left in cache by the one before) on large arrays. On arrays
  // that fit in cache the window is the whole slice, warm, as the
  // measurement sees it.
  //
  // Rounds alternate the candidates and go on while the kernel's share of
  // the budget lasts (kMinCalibrationRounds to kMaxCalibrationRounds); the
  // median trial decides, since a trial's best case is luck (a quiet
  // moment of the other tenants) more than pace.
  const std::size_t window = std::max<std::size_t>(1, (std::size_t{16} << 20) / sizeof(T));
  std::vector<std::size_t> offset(ws.views.size(), 0);
  // Every kernel gets an equal share of the budget and at least the minimum rounds.
  const double share = budget / static_cast<double>(std::max<std::size_t>(1, kernels.size()));
  result.share = share;
  for (Kernel k : kernels) {
    const auto& shapes = candidates[static_cast<std::size_t>(k)];
    auto& timings = result.timings[static_cast<std::size_t>(k)];
    for (Shape s : shapes) timings.push_back({s, 1e300});
    if (shapes.size() == 1) {
      result.shape[static_cast<std::size_t>(k)] = shapes.front();
      continue;
    }
    const double kernel_start = now_seconds();
    std::vector<std::vector<double>> trials(shapes.size());
    // Calls per trial so that a trial lasts about 200 us (one call on big
    // windows), sized by a first trial that counts for no candidate and
    // warms the code.
    constexpr double kTrialSeconds = 200e-6;
    std::size_t calls = 1;
    for (int r = -1; r < kMaxCalibrationRounds; ++r) {
      if (r >= 0) result.last_round_began[static_cast<std::size_t>(k)] = now_seconds() - kernel_start;
      for (std::size_t c = 0; c < (r < 0 ? 1 : shapes.size()); ++c) {
        const double seconds = time_trial(ws, team, k, shapes[c], calls, window, offset);
        if (r < 0) {
          if (seconds < kTrialSeconds) calls = calls_to_fill(kTrialSeconds, seconds, calls, 1, 100'000);
        } else {
          trials[c].push_back(seconds / static_cast<double>(calls));
        }
      }
      if (r < 0) continue;
      result.rounds[static_cast<std::size_t>(k)] = r + 1;
      if (r + 1 >= kMinCalibrationRounds && now_seconds() - kernel_start > share) break;
    }
    result.kernel_seconds[static_cast<std::size_t>(k)] = now_seconds() - kernel_start;
    for (std::size_t c = 0; c < shapes.size(); ++c) timings[c].second = summarize(trials[c]).median;
    auto fastest = std::min_element(timings.begin(), timings.end(),
                                    [](const auto& x, const auto& y) { return x.second < y.second; });
    result.shape[static_cast<std::size_t>(k)] = fastest->first;
  }
  result.seconds = now_seconds() - start;
  return result;
}

template <class T>
Validation validate(const Workspace<T>& ws, std::span<const Kernel> sequence, std::uint64_t calls,
                    double measured_sum) {
  set_flush_denormals();  // the replay must round as the team did
  // Every shape is bit-identical to the replay (no contraction, same
  // rounding, flush-to-zero on both sides): the comparison is exact, so a
  // value off by one ulp fails too.
  const char* names[] = {"a", "b", "c", "d"};
  const std::size_t n = ws.elements_per_view;
  const std::size_t views = ws.shared ? 1 : ws.views.size();
  constexpr std::size_t kBlock = 256;
  // First offence: the lowest (view, array, index) that differs.
  std::size_t bad_key = SIZE_MAX;
  double expected_sum = 0;
  for (std::size_t v = 0; v < views; ++v) {
    const T* arrays[] = {ws.views[v].a, ws.views[v].b, ws.views[v].c, ws.views[v].d};
    const std::size_t blocks = (n + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(static) reduction(min : bad_key) reduction(+ : expected_sum)
    for (std::size_t blk = 0; blk < blocks; ++blk) {
      T e[4][kBlock];
      double sum_a[kBlock];
      const std::size_t first = blk * kBlock, count = std::min(kBlock, n - first);
      replay_block<T>(sequence.data(), sequence.size(), calls, first, count, e[0], e[1], e[2], e[3], sum_a);
      for (std::size_t i = 0; i < count; ++i) expected_sum += sum_a[i];
      for (std::size_t x = 0; x < 4; ++x) {
        for (std::size_t i = 0; i < count; ++i) {
          if (!(arrays[x][first + i] == e[x][i])) {
            bad_key = std::min(bad_key, (v * 4 + x) * n + first + i);
            break;
          }
        }
      }
    }
    if (bad_key != SIZE_MAX) break;
  }
  Validation result;
  if (bad_key != SIZE_MAX) {
    const std::size_t v = bad_key / (4 * n), x = bad_key / n % 4, i = bad_key % n;
    T ea[1], eb[1], ec[1], ed[1];
    double s[1];
    replay_block<T>(sequence.data(), sequence.size(), calls, i, 1, ea, eb, ec, ed, s);
    const T expected[] = {ea[0], eb[0], ec[0], ed[0]};
    const T* arrays[] = {ws.views[v].a, ws.views[v].b, ws.views[v].c, ws.views[v].d};
    result = {false, fmt::format("array {}[{}]{} holds {} but must hold {}", names[x], i,
                                 views > 1 ? fmt::format(" of thread {}", v) : "", static_cast<double>(arrays[x][i]),
                                 static_cast<double>(expected[x]))};
    return result;
  }
  const bool has_sum = std::find(sequence.begin(), sequence.end(), Kernel::kSum) != sequence.end();
  if (has_sum) {
    // Partial sums are added in another order than the replay's; the room
    // is that of summing n terms of T, calls times over.
    const double sum_tolerance = sizeof(T) == 4 ? 1e-4 : 1e-10;
    if (!close_enough(measured_sum, expected_sum, sum_tolerance)) {
      result = {false, fmt::format("sum returned {} in all but must return {}", measured_sum, expected_sum)};
    }
  }
  return result;
}

#define MOVEBENCH_MEM_INSTANTIATE(T)                                                                                   \
  template struct Workspace<T>;                                                                                        \
  template Workspace<T> make_workspace<T>(std::size_t, bool, const Team&, std::size_t, bool);                          \
  template void initialise<T>(Workspace<T>&, const Team&);                                                             \
  template std::vector<std::vector<double>> time_sequence<T>(const Workspace<T>&, const Team&,                         \
                                                             std::span<const Kernel>, int, std::size_t, std::uint64_t, \
                                                             double&, std::vector<ThreadPlacement>*);                  \
  template Calibration calibrate_shapes<T>(const Workspace<T>&, const Team&, std::span<const Kernel>,                  \
                                           const std::array<std::vector<Shape>, kKernelCount>&, double);               \
  template Validation validate<T>(const Workspace<T>&, std::span<const Kernel>, std::uint64_t, double);
MOVEBENCH_MEM_INSTANTIATE(double)
MOVEBENCH_MEM_INSTANTIATE(float)

}  // namespace movebench::mem
