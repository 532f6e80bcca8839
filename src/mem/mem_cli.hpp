// The command line of `movebench mem`: its options as CLI11 takes them
// (mem_cli.cpp), and their resolution into MemOptions (mem_resolve.cpp):
// every text parsed to its type once, defaults filled in, and what cannot
// run refused before anything is allocated.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/mode_options.hpp"
#include "core/report.hpp"
#include "mem/mem_options.hpp"

namespace movebench::mem {

// Samples per point by default: seq/tp, and latency and loaded-latency.
inline constexpr int kSweepSamples = 5, kChaseSamples = 20;

class MemCli {
 public:
  // Declares every option on app; those that need no parsing are bound to opt.
  void add_options(CLI::App& app, MemOptions& opt);
  // Parses the text options into o, fills defaults and refuses what cannot run.
  void resolve(MemOptions& o);

 private:
  // add_options, by the modes that use them.
  void add_array_options(CLI::App& app, MemOptions& opt);
  void add_host_options(CLI::App& app, MemOptions& opt);
  void add_kernel_options(CLI::App& app, MemOptions& opt);
  void add_sweep_options(CLI::App& app, MemOptions& opt);
  void add_chase_options(CLI::App& app, MemOptions& opt);
  // resolve: what every mode shares, then each mode's own.
  void resolve_types(MemOptions& o) const;
  void resolve_counts(MemOptions& o) const;
  void resolve_threads(MemOptions& o);
  void resolve_chase(MemOptions& o) const;
  void resolve_latency(MemOptions& o) const;
  void resolve_arrays(MemOptions& o) const;
  void resolve_loaded_latency(MemOptions& o) const;
  void resolve_loaded_load(MemOptions& o) const;
  void resolve_backend(MemOptions& o) const;
  std::vector<std::uint64_t> given_sizes(const MemOptions& o) const;
  void check_tlb_window(const MemOptions& o, std::uint64_t working_set, std::string_view what) const;

  std::vector<CLI::Option*> host_only_;  // options a device backend refuses
  ModeOptions modes_{"mem"};             // options only some modes use
  bool corrupt_flag_ = false;
  std::string mode_text_, elements_text_, array_bytes_text_, threads_text_, bind_text_ = "auto";
  std::string timing_text_, passes_text_, type_text_ = "double", nt_stores_text_ = "auto", shape_text_ = "auto",
                                          unit_text_ = "MB/s";
  std::string kernels_text_, sizes_text_, sizes_elements_text_, sizes_bytes_text_, tlb_window_text_;
  std::string chase_bytes_text_, delays_text_, chunk_text_;
  int repetitions_ = 0, samples_ = 0;  // when given: opt.repetitions or opt.samples, by mode
  CLI::Option* repetitions_option_ = nullptr;
  CLI::Option* samples_option_ = nullptr;
};

// The device backends movebench knows (built or not), for help and errors.
std::vector<std::string> device_backends();
// The settings of a run in the result file (settings.mem), mem_settings.cpp.
void record_settings(const MemOptions& opt, Report& report);
// The default sizes of latency's sweep (bytes), which the suite uses too.
std::vector<std::uint64_t> default_latency_sizes();
// The default array length (elements) of bandwidth, seq and tp with
// `threads` threads at most: TheBandwidthBenchmark's kDefaultElements, or on
// the host STREAM's rule where that is larger (each array at least
// kStreamRuleCaches times the sum of the last-level caches), halved until
// everything fits in half the free memory; on a device BabelStream's 2^25.
std::uint64_t default_elements(const MemOptions& o, int threads);
// On a device: 4 KiB to kDeviceLatencyMostBytes, two sizes an octave (an
// H200's L2 is 50 MiB; the host's caches say nothing of a device's).
inline constexpr std::uint64_t kDeviceLatencyMostBytes = std::uint64_t{256} << 20;
std::vector<std::uint64_t> default_device_latency_sizes();

}  // namespace movebench::mem
