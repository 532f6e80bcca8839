// Loaded latency (what Intel MLC --loaded_latency and multichase's multiload
// measure): the pointer chase on one CPU while the other CPUs run a
// streaming kernel, each call followed by a delay that sets the injection
// rate, from idle to full. The schedule and the knee, kept apart from the
// threads so the tests can check them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace movebench::mem {

// A delay that means "no load at all": the loaders sleep.
inline constexpr std::int64_t kIdleLoad = -1;
// Its name in --delays and in the text.
inline constexpr std::string_view kIdleLoadName = "idle";
// A delay as --delays takes it: "idle" or the count of spin iterations.
std::string delay_text(std::int64_t delay);

// Idle, then spin iterations after each chunk from long to none (full load).
std::vector<std::int64_t> default_load_delays();

// Thread 0 chases on cpus[0]; threads 1.. load on the CPUs after it. With
// no CPU list (placement none) nobody is pinned (-1). Throws UsageError
// below two threads.
struct LoadedLatencyPlan {
  int chaser_cpu = -1;
  std::vector<int> loader_cpus;  // one per loader, -1 when not pinned
};
LoadedLatencyPlan plan_loaded_latency(int threads, const std::vector<int>& cpus);

// A loader's next kernel call: `chunk` elements on from `from`, cut at n;
// from n on it wraps to 0.
struct ElementRange {
  std::size_t lo = 0, hi = 0;
};
ElementRange next_chunk(std::size_t from, std::size_t n, std::size_t chunk);

// One point of the curve.
struct LoadedPoint {
  std::int64_t delay = kIdleLoad;
  double bandwidth = 0;  // bytes/s the loaders moved while the chase was timed
  double latency = 0;    // seconds per load (the min of the samples)
};
// The knee: in order of bandwidth, the last point before the first whose
// latency exceeds `rise` times the least-loaded point's. None when no point
// does (the load never reached it).
std::optional<std::size_t> knee_index(const std::vector<LoadedPoint>& points, double rise);
inline constexpr double kKneeRise = 1.2;

}  // namespace movebench::mem
