// The options of `movebench mem`, declared in --help's order, grouped by
// the modes that use them.
#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/sizes.hpp"
#include "core/vocabulary.hpp"
#include "device/options.hpp"
#include "device/registry.hpp"
#include "mem/loaded_latency.hpp"
#include "mem/mem_cli.hpp"

namespace movebench::mem {
namespace {

// The help section of names kept for older scripts.
constexpr const char* kOlderNames = "Older names (still taken)";

// Each option that not every mode uses names the modes that do (one table:
// modes_); given to another mode it is refused. Unnamed: what every mode
// uses (-r, --bind, --huge-pages, --backend).
std::vector<std::string> arrays_modes() { return {"bandwidth", "seq", "tp", "loaded-latency"}; }  // the kernels' arrays
std::vector<std::string> table_modes() { return {"bandwidth", "seq", "tp"}; }  // the kernels' figures, their type
std::vector<std::string> sweeps_modes() { return {"seq", "tp"}; }
std::vector<std::string> sizelists_modes() { return {"seq", "tp", "latency"}; }
std::vector<std::string> timed_modes() {
  return {"seq", "tp", "latency", "loaded-latency"};
}  // samples in a time budget
std::vector<std::string> chase_modes() { return {"latency", "loaded-latency"}; }
std::vector<std::string> loaded_modes() { return {"loaded-latency"}; }

std::string device_backend_help() {
  return fmt::format(
      "Where the arrays live: {} (default: host memory, OpenMP threads) or the device memory of "
      "{} (bandwidth, seq and latency; docs/mem.md)",
      vocabulary::kHostBackend, device::or_list(device_backends()));
}

}  // namespace

std::vector<std::string> device_backends() {
  std::vector<std::string> out;
  for (const auto& b : device::known_backends()) {
    if (b != vocabulary::kHostBackend) out.push_back(b);
  }
  return out;
}

void MemCli::add_options(CLI::App& app, MemOptions& opt) {
  app.add_option("mode", mode_text_, "bandwidth (default), seq, tp, latency or loaded-latency")
      ->check(CLI::IsMember(names_of(kModeNames)));
  add_array_options(app, opt);
  add_host_options(app, opt);
  add_kernel_options(app, opt);
  add_sweep_options(app, opt);
  add_chase_options(app, opt);
  app.add_flag("--corrupt-for-test", corrupt_flag_, "")->group("");       // tests only
  app.add_option("--corrupt-kind", opt.corrupt_for_test, "")->group("");  // tests only: value, swap, skip
}

// The arrays: their length, the count of timed repetitions, where they live.
void MemCli::add_array_options(CLI::App& app, MemOptions& opt) {
  modes_.only(arrays_modes(),
              app.add_option("-n,--elements", elements_text_,
                             fmt::format("Array length in elements, K/M/G suffixes (default: "
                                         "TheBandwidthBenchmark's {}, or 4 x the sum of the last-level "
                                         "caches if larger (STREAM's rule), less if memory is short; "
                                         "loaded-latency: {} per loader); not latency",
                                         size_text(kDefaultElements), size_text(kLoadedLatencyElements))));
  modes_.only(arrays_modes(), app.add_option("--array-bytes", array_bytes_text_,
                                             "Array length in bytes per array instead, e.g. 1GiB; not latency"));
  // One count for every mode: the timed repetitions whose statistics are
  // reported (bandwidth: calls of each kernel; the others: samples per point).
  repetitions_option_ = app.add_option(
      vocabulary::names("-r", vocabulary::kRepetitions), repetitions_,
      vocabulary::help(vocabulary::kRepetitions,
                       fmt::format("bandwidth: of every kernel (TheBandwidthBenchmark's NTIMES, default {}); seq/tp: "
                                   "samples per kernel and size (default {}); latency, loaded-latency: samples per "
                                   "point (default {})",
                                   MemOptions{}.repetitions, kSweepSamples, kChaseSamples)));
  device::add_choice_options(app, opt.choice, device_backend_help());
  modes_.only(
      {"bandwidth", "seq"},
      app.add_option("--timing", timing_text_,
                     "A device's kernel calls (--backend opencl|cuda): device (default: the device's clock, the queue "
                     "kept full) or host-sync (BabelStream's: the host's clock around each call, the queue finished "
                     "after it)")
          ->check(CLI::IsMember(names_of(kDeviceTimingNames))));
  modes_.only({"seq"}, app.add_option("--passes-per-launch", passes_text_,
                                      "seq on a device (--backend opencl|cuda): the most calls of a kernel one launch "
                                      "makes, each a pass over the arrays, or all (default: a sample's calls in one "
                                      "launch, so that arrays in a cache are measured, not the launch); 1: a launch "
                                      "per call"));
}

// Where host threads run and how host arrays are laid out.
void MemCli::add_host_options(CLI::App& app, MemOptions& opt) {
  // seq and latency run one thread (placed by --bind).
  host_only_.push_back(modes_.only(
      {"bandwidth", "tp", "loaded-latency"},
      app.add_option(vocabulary::names("-t", vocabulary::kThreads), threads_text_,
                     vocabulary::help(
                         vocabulary::kThreads,
                         "bandwidth: a count, or a list (1,2,4 or 1:8) for a scaling run; tp, loaded-latency: a count "
                         "(default: every allowed CPU)"))));
  host_only_.push_back(app.add_option("--bind", bind_text_,
                                      "Thread placement: close, spread, none, a CPU list such as 0-3,8, or auto "
                                      "(close; none when OMP_PROC_BIND/OMP_PLACES ask OpenMP to place threads)")
                           ->capture_default_str());
  host_only_.push_back(modes_.only({"bandwidth"}, app.add_flag("--verbose-affinity", opt.verbose_affinity,
                                                               "bandwidth: print the CPU and affinity mask of every "
                                                               "thread")));
  // The chase's nodes are page aligned.
  host_only_.push_back(modes_.only(
      arrays_modes(),
      app.add_option("--align-bytes,--align", opt.alignment, "Array alignment in bytes (exactly this; a power of two)")
          ->check(CLI::Range(1.0, 2097152.0))
          ->capture_default_str()));
}

// The kernels, their element type, loop shape and stores, and the unit of their rates.
void MemCli::add_kernel_options(CLI::App& app, MemOptions& opt) {
  // loaded-latency's load is double only.
  modes_.only(table_modes(), app.add_option("--type", type_text_, "Element type (bandwidth, seq, tp)")
                                 ->check(CLI::IsMember(names_of(kElementTypeNames)))
                                 ->capture_default_str());
  host_only_.push_back(modes_.only(
      arrays_modes(),
      app.add_option("--nt-stores", nt_stores_text_,
                     "Streaming (non-temporal) stores: on, off, or auto (on when the data exceed the last-level cache)")
          ->check(CLI::IsMember(names_of(kNtStoresNames)))
          ->capture_default_str()));
  host_only_.push_back(modes_.only(
      arrays_modes(),
      app.add_option("--shape", shape_text_,
                     "Loop shape of every kernel: auto (a short calibration picks the fastest per kernel), plain "
                     "(TheBandwidthBenchmark's compiler loop), nt (linear, streaming stores), page (four pages at "
                     "once), page-nt (four pages at once, streaming stores); on AVX-512 builds each also with "
                     "256-bit vectors: plain-256 (a linear loop), nt-256, page-256, page-nt-256")
          ->check(CLI::Validator(
              [](std::string& v) {
                if (v == "auto") return std::string();
                try {
                  mem::shape_by_name(v);
                } catch (const UsageError& e) {
                  return std::string(e.what());
                }
                return std::string();
              },
              "", "SHAPE"))
          ->capture_default_str()));
  modes_.only(arrays_modes(),
              app.add_option("-k,--kernels", kernels_text_,
                             fmt::format("Kernels to run, comma-separated (default: all {}); loaded-latency: "
                                         "the one load kernel (default: {})",
                                         kKernelCount, info(kDefaultLoadKernel).name)));
  host_only_.push_back(modes_.only(
      table_modes(),
      app.add_flag("--write-allocate", opt.write_allocate, "Also show bandwidth with write-allocate traffic counted")));
  modes_.only(arrays_modes(),
              app.add_option("--unit", unit_text_, "Rate unit of the table (loaded-latency: of the load)")
                  ->check(CLI::IsMember(names_of(kRateUnitNames)))
                  ->capture_default_str());
  host_only_.push_back(app.add_flag("--huge-pages", opt.huge_pages, "Back arrays with transparent huge pages"));
}

// seq and tp: sizes, time per point, data files.
void MemCli::add_sweep_options(CLI::App& app, MemOptions& opt) {
  modes_.only(sweeps_modes(),
              app.add_option(vocabulary::names(vocabulary::kSizesElements), sizes_elements_text_,
                             vocabulary::help(vocabulary::kSizesElements, "seq/tp: array lengths (e.g. 1K:64M:x2)")));
  modes_.only(sizelists_modes(), app.add_option(vocabulary::names(vocabulary::kSizesBytes), sizes_bytes_text_,
                                                vocabulary::help(vocabulary::kSizesBytes,
                                                                 "seq/tp: bytes per array (whole elements); latency: "
                                                                 "working sets (e.g. 4K:256M)")));
  // Its own option, not an alias: scripts give it beside -r (which bandwidth took).
  samples_option_ = modes_.only(
      timed_modes(), app.add_option("--samples", samples_,
                                    "The older name of --repetitions in seq/tp/latency/loaded-latency (wins there)")
                         ->group(kOlderNames));
  modes_.only(sizelists_modes(),
              app.add_option("--sizes", sizes_text_,
                             "The older name: seq/tp array lengths in elements, latency working sets "
                             "in bytes")
                  ->group(kOlderNames));
  // bandwidth times a fixed count of calls (-r) instead.
  modes_.only(timed_modes(),
              app.add_option(vocabulary::names("", vocabulary::kTimeBudget, "--point-time"), opt.point_time,
                             vocabulary::help(vocabulary::kTimeBudget,
                                              "seq/tp per kernel and size, latency per working set, "
                                              "loaded-latency per delay"))
                  ->capture_default_str());
  modes_.only(sweeps_modes(),
              app.add_option("--outdir", opt.outdir, "seq/tp: folder for the data files (one per kernel)")
                  ->capture_default_str());
}

// latency and loaded-latency: the chase, and loaded-latency's load.
void MemCli::add_chase_options(CLI::App& app, MemOptions& opt) {
  modes_.only(chase_modes(), app.add_option("--stride-bytes,--stride", opt.stride,
                                            "latency, loaded-latency: bytes per node of the chase (at least a pointer)")
                                 ->check(CLI::Range(8.0, 1073741824.0))
                                 ->capture_default_str());
  // A range check before the conversion: CLI11 would take -1 as 2^64-1.
  modes_.only(
      chase_modes(),
      app.add_option(vocabulary::names(vocabulary::kSeed), opt.seed,
                     vocabulary::help(vocabulary::kSeed, "latency, loaded-latency: of the chase's random permutation"))
          ->check(CLI::Range(0.0, 9007199254740992.0))
          ->capture_default_str());
  modes_.only(
      chase_modes(),
      app.add_option(
          "--tlb-window-bytes,--tlb-window", tlb_window_text_,
          "latency, loaded-latency: the chase visits every node of one window of this many bytes before "
          "the next (multichase's -T, 256K there), at most the (largest) working set; default: none, one random "
          "cycle over the working set"));
  modes_.only(chase_modes(),
              app.add_flag("--percentiles", opt.percentiles,
                           "latency, loaded-latency: the P50, P90, P99, P99.9 and max of the timed blocks (per load) "
                           "as columns of the table (the result has them always)"));
  modes_.only(loaded_modes(),
              app.add_option("--chase-bytes", chase_bytes_text_,
                             fmt::format("loaded-latency: working set of the chase (default: 4 x the "
                                         "last-level cache, {} to {})",
                                         size_text(kLoadedChaseLeastBytes), size_text(kLoadedChaseMostBytes))));
  std::vector<std::string> delays;
  for (std::int64_t d : default_load_delays()) delays.push_back(delay_text(d));
  modes_.only(loaded_modes(),
              app.add_option("--delays", delays_text_,
                             fmt::format("loaded-latency: injection delays, spin iterations after each chunk "
                                         "of the load, {} for none (default: {})",
                                         kIdleLoadName, fmt::join(delays, ","))));
  modes_.only(loaded_modes(), app.add_option("--chunk-bytes,--chunk", chunk_text_,
                                             "loaded-latency: bytes per array of each kernel call of the load, at most "
                                             "one array (the default shrinks to a smaller array)")
                                  ->default_str(size_text(kDefaultLoadChunkBytes)));
}

}  // namespace movebench::mem
