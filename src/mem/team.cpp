#include "mem/team.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/affinity.hpp"
#include "core/clock.hpp"
#include "core/interrupt.hpp"

namespace movebench::mem {
namespace {

// Each thread's slice starts on a 64-byte boundary, so streaming stores run
// aligned on every thread and no cache line is shared by two threads.
std::pair<std::size_t, std::size_t> slice(std::size_t n, int t, int threads, std::size_t elem_bytes) {
  const std::size_t quantum = std::max<std::size_t>(1, 64 / elem_bytes);
  const std::size_t per = (n / threads + quantum - 1) / quantum * quantum;
  const std::size_t lo = std::min(n, per * static_cast<std::size_t>(t));
  return {lo, std::min(n, lo + per)};
}

void enter_team(const Team& team, int t) {
  if (!team.cpus.empty()) pin_current_thread(team.cpus[static_cast<std::size_t>(t)]);
  set_flush_denormals();
}

template <class T>
bool close_enough(T value, T expected, T tolerance) {
  return std::abs(value - expected) <= tolerance * std::max<T>(std::abs(expected), std::numeric_limits<T>::min());
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
Workspace<T> make_workspace(std::size_t n, bool shared, const Team& team, std::size_t alignment,
                            bool huge_pages) {
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
      v.a[i] = static_cast<T>(kInitA);
      v.b[i] = static_cast<T>(kInitB);
      v.c[i] = static_cast<T>(kInitC);
      v.d[i] = static_cast<T>(kInitD);
    }
  }
}

template <class T>
std::vector<std::vector<double>> time_sequence(const Workspace<T>& ws, const Team& team,
                                               std::span<const Kernel> sequence, int reps,
                                               std::size_t iters, T& sum,
                                               std::vector<ThreadPlacement>* placement) {
  const std::size_t nk = sequence.size();
  std::vector<std::vector<double>> times(nk, std::vector<double>(static_cast<std::size_t>(reps)));
  constexpr std::size_t kPad = 64 / sizeof(T);  // one cache line per thread's partial sum
  std::vector<T> partial(static_cast<std::size_t>(team.threads) * kPad, T{});
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
    T last_sum{};
#pragma omp barrier
#pragma omp master
    previous = now_seconds();
    for (int r = 0; r < reps; ++r) {
      for (std::size_t k = 0; k < nk; ++k) {
        const Kernel kernel = sequence[k];
        for (std::size_t it = 0; it < iters; ++it) {
          const T s = run_kernel(kernel, view, lo, hi, team.nt);
          if (kernel == Kernel::kSum) last_sum = s;
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
    partial[static_cast<std::size_t>(t) * kPad] = last_sum;
  }
  for (auto& kernel_times : times) kernel_times.resize(static_cast<std::size_t>(completed));
  sum = T{};
  for (int t = 0; t < team.threads; ++t) sum += partial[static_cast<std::size_t>(t) * kPad];
  return times;
}

template <class T>
Validation validate(const Workspace<T>& ws, std::span<const Kernel> sequence, std::size_t rounds,
                    T measured_sum) {
  set_flush_denormals();  // the replay must round as the team did
  Element<T> e, before;
  T a_at_sum = e.a;
  bool has_sum = false;
  for (std::size_t r = 0; r < rounds; ++r) {
    before = e;
    for (Kernel k : sequence) {
      if (k == Kernel::kSum) {
        a_at_sum = e.a;
        has_sum = true;
      }
      replay(k, e);
    }
    // A fixed point: further rounds change nothing.
    if (e.a == before.a && e.b == before.b && e.c == before.c && e.d == before.d && r > 0) break;
  }
  // Kernels are bit-exact with the replay (no contraction, same rounding);
  // a few ulps of room only guard against a compiler that fuses anyway.
  const T tolerance = 4 * std::numeric_limits<T>::epsilon();
  const char* names[] = {"a", "b", "c", "d"};
  const T expected[] = {e.a, e.b, e.c, e.d};
  Validation result;
  for (std::size_t v = 0; v < ws.views.size() && result.passed; ++v) {
    if (ws.shared && v > 0) break;
    const T* arrays[] = {ws.views[v].a, ws.views[v].b, ws.views[v].c, ws.views[v].d};
    for (int x = 0; x < 4 && result.passed; ++x) {
      const std::size_t n = ws.elements_per_view;
      std::size_t bad = n;
#pragma omp parallel for reduction(min : bad)
      for (std::size_t i = 0; i < n; ++i) {
        if (!close_enough(arrays[x][i], expected[x], tolerance)) bad = std::min(bad, i);
      }
      if (bad < n) {
        result = {false, fmt::format("array {}[{}] holds {} but must hold {}", names[x], bad,
                                     static_cast<double>(arrays[x][bad]), static_cast<double>(expected[x]))};
      }
    }
  }
  if (result.passed && has_sum) {
    // Partial sums are added in another order than the replay's product;
    // the room is that of summing n terms.
    const T expected_sum = a_at_sum * static_cast<T>(ws.total_elements());
    const T sum_tolerance = sizeof(T) == 4 ? T(1e-4) : T(1e-10);
    if (!close_enough(measured_sum, expected_sum, sum_tolerance)) {
      result = {false, fmt::format("sum returned {} but must return {}", static_cast<double>(measured_sum),
                                   static_cast<double>(expected_sum))};
    }
  }
  return result;
}

#define MOVEBENCH_MEM_INSTANTIATE(T)                                                              \
  template struct Workspace<T>;                                                                   \
  template Workspace<T> make_workspace<T>(std::size_t, bool, const Team&, std::size_t, bool);     \
  template void initialise<T>(Workspace<T>&, const Team&);                                        \
  template std::vector<std::vector<double>> time_sequence<T>(                                     \
      const Workspace<T>&, const Team&, std::span<const Kernel>, int, std::size_t, T&,            \
      std::vector<ThreadPlacement>*);                                                             \
  template Validation validate<T>(const Workspace<T>&, std::span<const Kernel>, std::size_t, T);
MOVEBENCH_MEM_INSTANTIATE(double)
MOVEBENCH_MEM_INSTANTIATE(float)

}  // namespace movebench::mem
