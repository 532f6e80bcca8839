// The OpenMP team that runs kernels: its arrays, its placement, the timed
// loop, and the check of what the arrays hold afterwards.
#pragma once
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "core/buffer.hpp"
#include "mem/kernels.hpp"

namespace movebench::mem {

struct Team {
  int threads = 1;
  std::vector<int> cpus;  // cpus[t] for thread t; empty: not pinned
  bool nt = false;        // streaming stores
};

// Where each thread ran, read inside the team (the seed's VERBOSE_AFFINITY).
struct ThreadPlacement {
  int thread = 0;
  int cpu = -1;
  std::string mask;
};

// The arrays a team works on. Shared: one set of four arrays, each thread
// owns a contiguous slice (default mode, seq). Private: every thread has its
// own four arrays of n elements (the seed's throughput mode).
template <class T>
struct Workspace {
  std::vector<HostBuffer> buffers;
  std::vector<Arrays<T>> views;  // per thread
  std::vector<std::size_t> lo, hi;  // per thread element range
  std::size_t elements_per_view = 0;
  bool shared = true;

  // Elements one kernel call touches per array, over all threads.
  std::size_t total_elements() const { return shared ? elements_per_view : elements_per_view * views.size(); }
  // Uses only the first n elements (sweeps reuse the largest allocation).
  void resize(std::size_t n);
};

// Allocates (nothing touched yet) and lets every thread first-touch and
// initialise its own part with the seed's initial values.
template <class T>
Workspace<T> make_workspace(std::size_t n, bool shared, const Team& team, std::size_t alignment,
                            bool huge_pages);
template <class T>
void initialise(Workspace<T>& ws, const Team& team);

// Timed execution: `reps` rounds of `sequence`, each kernel called `iters`
// times back to back per round. Returns seconds per round per kernel
// (times[k][r], for all `iters` calls); after a signal, only the rounds
// completed before it. Only the kernel calls and one barrier
// per kernel are inside the timed region. `sum` receives the total of the
// last sum call over all threads.
template <class T>
std::vector<std::vector<double>> time_sequence(const Workspace<T>& ws, const Team& team,
                                               std::span<const Kernel> sequence, int reps,
                                               std::size_t iters, T& sum,
                                               std::vector<ThreadPlacement>* placement = nullptr);

struct Validation {
  bool passed = true;
  std::string message;  // what was wrong, first offence
};

// Replays `rounds` rounds of `sequence` on one element and compares every
// element of every array (and the last sum) with it.
template <class T>
Validation validate(const Workspace<T>& ws, std::span<const Kernel> sequence, std::size_t rounds,
                    T measured_sum);

}  // namespace movebench::mem
