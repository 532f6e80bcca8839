// The OpenMP team that runs kernels: its arrays, its placement, the timed
// loop, and the check of what the arrays hold afterwards.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/buffer.hpp"
#include "mem/kernels.hpp"

namespace movebench::mem {

struct Team {
  int threads = 1;
  std::vector<int> cpus;                    // cpus[t] for thread t; empty: not pinned
  std::array<Shape, kKernelCount> shape{};  // the loop shape of each kernel (by Kernel)

  Shape shape_of(Kernel k) const { return shape[static_cast<std::size_t>(k)]; }
};

// Where each thread ran, read inside the team (TheBandwidthBenchmark's
// VERBOSE_AFFINITY).
struct ThreadPlacement {
  int thread = 0;
  int cpu = -1;
  std::string mask;
};

// The arrays a team works on. Shared: one set of four arrays, each thread
// owns a contiguous slice (default mode, seq). Private: every thread has its
// own four arrays of n elements (TheBandwidthBenchmark's throughput mode).
template <class T>
struct Workspace {
  std::vector<HostBuffer> buffers;
  std::vector<Arrays<T>> views;     // per thread
  std::vector<std::size_t> lo, hi;  // per thread element range
  std::size_t elements_per_view = 0;
  bool shared = true;

  // Elements one kernel call touches per array, over all threads.
  std::size_t total_elements() const { return shared ? elements_per_view : elements_per_view * views.size(); }
  // Uses only the first n elements (sweeps reuse the largest allocation).
  void resize(std::size_t n);
};

// Allocates (nothing touched yet) and lets every thread first-touch and
// initialise its own part with the initial values of each index.
template <class T>
Workspace<T> make_workspace(std::size_t n, bool shared, const Team& team, std::size_t alignment, bool huge_pages);
template <class T>
void initialise(Workspace<T>& ws, const Team& team);

// Timed execution: `reps` rounds of `sequence`, each kernel called `iters`
// times back to back per round; the calls are numbered from `first_call`
// (round r, iteration i: first_call + r * iters + i), which sets their
// scalars. Returns seconds per round per kernel (times[k][r], for all
// `iters` calls); after a signal, only the rounds completed before it. Only
// the kernel calls and one barrier per kernel are inside the timed region.
// `sum` receives the total of every sum call's result over all threads.
template <class T>
std::vector<std::vector<double>> time_sequence(const Workspace<T>& ws, const Team& team,
                                               std::span<const Kernel> sequence, int reps, std::size_t iters,
                                               std::uint64_t first_call, double& sum,
                                               std::vector<ThreadPlacement>* placement = nullptr);

// The calibration: every candidate shape of every kernel timed by the team
// on fresh windows of the arrays (each thread on its own slice), a few
// alternating rounds, the fastest kept. Bounded: every kernel gets an equal
// share of `budget` seconds, and at least one round of its candidates. It leaves the arrays changed: initialise them
// again after.
struct Calibration {
  std::array<Shape, kKernelCount> shape{};
  // Median seconds per window call of every candidate over its trials, by kernel.
  std::array<std::vector<std::pair<Shape, double>>, kKernelCount> timings;
  // Rounds of trials every kernel got (0 where it had one candidate):
  // kMinCalibrationRounds, more while its share of the budget lasts, at
  // most kMaxCalibrationRounds.
  std::array<int, kKernelCount> rounds{};
  // When every kernel's last round began, in seconds since its first: a
  // round begins only while the kernel's share of the budget lasts (past
  // the minimum rounds), so this is at most the share, whatever the CPU.
  std::array<double, kKernelCount> last_round_began{};
  std::array<double, kKernelCount> kernel_seconds{};  // wall time each kernel's trials took
  double share = 0;                                   // each kernel's share of the budget
  double seconds = 0;                                 // wall time it took
};
inline constexpr int kMinCalibrationRounds = 1;
inline constexpr int kMaxCalibrationRounds = 9;
template <class T>
Calibration calibrate_shapes(const Workspace<T>& ws, const Team& team, std::span<const Kernel> kernels,
                             const std::array<std::vector<Shape>, kKernelCount>& candidates, double budget);

struct Validation {
  bool passed = true;
  std::string message;  // what was wrong, first offence
};

// Replays calls 0 .. calls-1 of `sequence` (call j runs every kernel of the
// sequence in order) on every element from its initial values and compares
// every element of every array, and the total of all sum calls, with it.
template <class T>
Validation validate(const Workspace<T>& ws, std::span<const Kernel> sequence, std::uint64_t calls, double measured_sum);

}  // namespace movebench::mem
