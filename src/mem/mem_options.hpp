// Everything `movebench mem` can be told, shared by its modes.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/affinity.hpp"
#include "core/named_values.hpp"
#include "core/repetitions.hpp"
#include "core/vocabulary.hpp"
#include "device/device.hpp"
#include "mem/kernels.hpp"

namespace movebench::mem {

enum class Mode { kBandwidth, kSeq, kTp, kLatency, kLoadedLatency };
enum class ElementType { kDouble, kFloat };
enum class RateUnit { kMegabytes, kGigabytes };  // MB/s, GB/s
// How a device's kernel calls are timed (--timing): on the device's own
// clock with the queue kept full (markers between calls), or BabelStream's
// way, on the host's clock around each call, the queue finished after every
// one (its src/main.cpp and CUDAStream.cu: a launch, cudaStreamSynchronize).
enum class DeviceTiming { kDevice, kHostSync };

// The name each value has on the command line and in the output, once
// (core/named_values.hpp).
inline constexpr std::array<NamedValue<Mode>, 5> kModeNames = {{{"bandwidth", Mode::kBandwidth},
                                                                {"seq", Mode::kSeq},
                                                                {"tp", Mode::kTp},
                                                                {"latency", Mode::kLatency},
                                                                {"loaded-latency", Mode::kLoadedLatency}}};
inline constexpr std::array<NamedValue<ElementType>, 2> kElementTypeNames = {
    {{"double", ElementType::kDouble}, {"float", ElementType::kFloat}}};
inline constexpr std::array<NamedValue<NtStores>, 3> kNtStoresNames = {
    {{"auto", NtStores::kAuto}, {"on", NtStores::kOn}, {"off", NtStores::kOff}}};
inline constexpr std::array<NamedValue<RateUnit>, 2> kRateUnitNames = {
    {{"MB/s", RateUnit::kMegabytes}, {"GB/s", RateUnit::kGigabytes}}};
inline constexpr std::array<NamedValue<DeviceTiming>, 2> kDeviceTimingNames = {
    {{"device", DeviceTiming::kDevice}, {"host-sync", DeviceTiming::kHostSync}}};

// The timed count, one option for every mode (core/repetitions.hpp):
// bandwidth's calls of each kernel, recorded as `repetitions`; the other
// modes' samples per point, recorded as `samples`, which the older
// --samples also sets (and wins).
inline constexpr Repetitions kRounds{"--repetitions (-r)", "repetitions"};
inline constexpr Repetitions kSamples{"--repetitions (-r)", "samples"};
inline constexpr Repetitions kOlderSamples{"--samples", "samples"};

// loaded-latency's defaults: the load's kernel, each loader's array length
// (32 MiB of doubles per array, 128 MiB per loader), the bytes per array of
// each of its calls (or the array, when smaller), and the bounds of the
// chase's working set (four times the last-level cache within them).
inline constexpr Kernel kDefaultLoadKernel = Kernel::kTriad;
inline constexpr std::uint64_t kLoadedLatencyElements = std::uint64_t{4} << 20;
inline constexpr std::uint64_t kDefaultLoadChunkBytes = 16384;
inline constexpr std::uint64_t kLoadedChaseLeastBytes = std::uint64_t{64} << 20;
inline constexpr std::uint64_t kLoadedChaseMostBytes = std::uint64_t{512} << 20;

struct MemOptions {
  Mode mode = Mode::kBandwidth;
  // Where the arrays live: backend empty or host, host memory and the
  // OpenMP team; else that device backend's own memory (device_runner.cpp).
  device::DeviceChoice choice;
  DeviceTiming timing = DeviceTiming::kDevice;  // a device's calls: --timing
  // seq on a device: the most calls one launch makes (--passes-per-launch);
  // 0: all the calls of a sample in one launch.
  std::uint32_t passes_per_launch = 0;
  std::uint64_t elements = 0;  // 0: the default (TheBandwidthBenchmark's size, limited to memory)
  ElementType element_type = ElementType::kDouble;
  int repetitions = 10;      // TheBandwidthBenchmark's NTIMES
  std::vector<int> threads;  // empty: all allowed CPUs; several: a scaling run
  Placement placement;
  bool verbose_affinity = false;
  std::uint64_t alignment = 64;  // TheBandwidthBenchmark's ARRAY_ALIGNMENT
  NtStores nt_stores = NtStores::kAuto;
  std::optional<Shape> shape;   // none: auto, calibrated per kernel; or plain, nt, page, page-nt
  std::vector<Kernel> kernels;  // empty: every kernel (loaded-latency: kDefaultLoadKernel)
  bool write_allocate = false;
  RateUnit unit = RateUnit::kMegabytes;
  bool huge_pages = false;
  // seq / tp sweeps
  std::vector<std::uint64_t> sweep_sizes;  // elements; empty: 128 .. elements, 4 per octave
  double point_time = 0.1;                 // seconds per kernel and size
  int samples = 0;                         // 0: 5 per sweep point, 20 per latency point
  std::string outdir = "dat";
  // latency
  std::vector<std::uint64_t> latency_sizes;  // bytes; empty: 4 KiB .. 4 x LLC
  std::uint64_t stride = 64;
  std::uint64_t seed = 42;
  std::uint64_t tlb_window = 0;  // bytes; 0: none, one random cycle over the whole working set
  bool percentiles = false;  // latency, loaded-latency: the P50..max columns in the table (the result has them always)
  // loaded-latency (also stride, seed, tlb_window, samples, point_time)
  std::uint64_t chase_bytes = 0;  // 0: four times the last-level cache, clamped to kLoadedChase*Bytes (docs/mem.md)
  std::vector<std::int64_t> load_delays;                    // spin iterations after each chunk; -1: idle (no load)
  std::uint64_t load_chunk_bytes = kDefaultLoadChunkBytes;  // bytes of the written (or read) array per kernel call
  // tests only: after timing, "value" damages one element, "swap" swaps two
  // neighbours (a misplaced element), "skip" makes the check expect one call
  // more than was made (a skipped call); validation must fail. Empty: none.
  std::string corrupt_for_test;

  Kernel load_kernel() const { return kernels.empty() ? kDefaultLoadKernel : kernels.front(); }
  int element_bytes() const { return element_type == ElementType::kFloat ? 4 : 8; }
  bool on_device() const { return !choice.backend.empty() && choice.backend != vocabulary::kHostBackend; }
  double unit_scale() const { return unit == RateUnit::kGigabytes ? 1e-9 : 1e-6; }
  std::string flop_unit() const { return unit == RateUnit::kGigabytes ? "GFlop/s" : "MFlop/s"; }
  // The names, as given and as the output shows them.
  std::string mode_name() const { return std::string(name_in(kModeNames, mode)); }
  std::string type_name() const { return std::string(name_in(kElementTypeNames, element_type)); }
  std::string nt_stores_name() const { return std::string(name_in(kNtStoresNames, nt_stores)); }
  std::string shape_text() const { return shape ? std::string(shape_name(*shape)) : "auto"; }
  std::string unit_name() const { return std::string(name_in(kRateUnitNames, unit)); }
  std::string timing_name() const { return std::string(name_in(kDeviceTimingNames, timing)); }
  std::string passes_text() const { return passes_per_launch == 0 ? "all" : std::to_string(passes_per_launch); }
};

// The most calls one launch makes (a device's seq, --passes-per-launch).
inline constexpr std::uint32_t kMostPassesPerLaunch = std::uint32_t{1} << 30;

// TheBandwidthBenchmark's default array length (config.mk SIZE), elements
// per array.
inline constexpr std::uint64_t kDefaultElements = 125'000'000;
// STREAM's rule for the host default: each array at least this many times
// the sum of the last-level caches.
inline constexpr std::uint64_t kStreamRuleCaches = 4;
// On a device: BabelStream's default, 2^25 elements per array (256 MiB of
// doubles), far above any GPU's last-level cache (50 MiB on an H100).
inline constexpr std::uint64_t kDeviceDefaultElements = std::uint64_t{1} << 25;

}  // namespace movebench::mem
