// Everything `movebench mem` can be told, shared by its modes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/affinity.hpp"
#include "device/device.hpp"
#include "mem/kernels.hpp"

namespace movebench::mem {

enum class Mode { kBandwidth, kSeq, kTp, kLatency, kLoadedLatency };

struct MemOptions {
  Mode mode = Mode::kBandwidth;
  std::string mode_name = "bandwidth";
  // Where the arrays live: backend empty or "host", host memory and the
  // OpenMP team; else that device backend's own memory (device_runner.cpp).
  device::DeviceChoice choice;
  std::uint64_t elements = 0;  // 0: the default (TheBandwidthBenchmark's size, limited to memory)
  std::string element_type = "double";
  int repetitions = 10;         // TheBandwidthBenchmark's NTIMES
  std::vector<int> threads;     // empty: all allowed CPUs; several: a scaling run
  Placement placement;
  bool verbose_affinity = false;
  std::uint64_t alignment = 64; // TheBandwidthBenchmark's ARRAY_ALIGNMENT
  std::string nt_stores = "auto";
  std::string shape = "auto";   // auto: calibrated per kernel; or plain, nt, page, page-nt
  std::vector<Kernel> kernels;  // empty: all eight
  bool write_allocate = false;
  std::string unit = "MB/s";
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
  // loaded-latency (also stride, seed, tlb_window, samples, point_time)
  std::uint64_t chase_bytes = 0;          // 0: four times the last-level cache, clamped to 64 MiB .. 512 MiB (docs/mem.md)
  std::vector<std::int64_t> load_delays;  // spin iterations after each chunk; -1: idle (no load)
  std::uint64_t load_chunk_bytes = 16384; // bytes of the written (or read) array per kernel call
  // tests only: after timing, "value" damages one element, "swap" swaps two
  // neighbours (a misplaced element), "skip" makes the check expect one call
  // more than was made (a skipped call); validation must fail. Empty: none.
  std::string corrupt_for_test;

  int element_bytes() const { return element_type == "float" ? 4 : 8; }
  bool on_device() const { return !choice.backend.empty() && choice.backend != "host"; }
  double unit_scale() const { return unit == "GB/s" ? 1e-9 : 1e-6; }
  std::string flop_unit() const { return unit == "GB/s" ? "GFlop/s" : "MFlop/s"; }
};

// TheBandwidthBenchmark's default array length (config.mk SIZE), elements
// per array.
inline constexpr std::uint64_t kDefaultElements = 125'000'000;
// On a device: BabelStream's default, 2^25 elements per array (256 MiB of
// doubles), far above any GPU's last-level cache (50 MiB on an H100).
inline constexpr std::uint64_t kDeviceDefaultElements = std::uint64_t{1} << 25;

}  // namespace movebench::mem
