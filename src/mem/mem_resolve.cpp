// `movebench mem`: the options' texts parsed to their types, the defaults
// filled in, and what cannot run refused, before anything is allocated;
// first what every mode shares, then each mode's own.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/affinity.hpp"
#include "core/atomic_file.hpp"
#include "core/buffer.hpp"
#include "core/errors.hpp"
#include "core/host_info.hpp"
#include "core/sizes.hpp"
#include "core/vocabulary.hpp"
#include "device/options.hpp"
#include "device/registry.hpp"
#include "mem/loaded_latency.hpp"
#include "mem/mem_cli.hpp"

namespace movebench::mem {
namespace {

// 128 elements up to n, four sizes per octave (TheBandwidthBenchmark steps
// by 1.2).
std::vector<std::uint64_t> default_sweep_sizes(std::uint64_t n) {
  std::vector<std::uint64_t> sizes;
  for (double x = 128; x <= static_cast<double>(n); x *= std::pow(2.0, 0.25)) {
    const auto v = static_cast<std::uint64_t>(x) / 16 * 16;
    if (sizes.empty() || v != sizes.back()) sizes.push_back(v);
  }
  return sizes;
}

// One item of "idle,1000,0": spin iterations, idle for no load at all.
std::int64_t parse_delay(std::string_view item) {
  if (item == kIdleLoadName) return kIdleLoad;
  const auto bad = [&] {
    return UsageError(fmt::format("invalid delay '{}': a count of spin iterations (0 or more) or idle", item));
  };
  std::uint64_t value = 0;
  try {
    value = parse_whole_number(item, "delay");
  } catch (const UsageError&) {
    throw bad();
  }
  if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) throw bad();
  return static_cast<std::int64_t>(value);
}

}  // namespace

// STREAM's rule uses hwloc's last-level caches (no default lands inside a
// cache on a large-L3 CPU); on a device the host copies the validation
// needs are halved the same way.
std::uint64_t default_elements(const MemOptions& o, int threads) {
  const int sets = o.mode == Mode::kTp ? threads : 1;
  const std::uint64_t stream_rule =
      kStreamRuleCaches * last_level_caches_total_bytes() / static_cast<std::uint64_t>(o.element_bytes()) + 1;
  std::uint64_t n = o.on_device() ? kDeviceDefaultElements : std::max(kDefaultElements, stream_rule);
  while (n > 1024 && 4 * n * o.element_bytes() * sets > available_memory_bytes() / 2) n /= 2;
  return n;
}

// 4 KiB to four times the last-level cache (at least 64 MiB), at powers of
// two and half way between them.
std::vector<std::uint64_t> default_latency_sizes() {
  const std::uint64_t top = std::max<std::uint64_t>(64ull << 20, 4 * last_level_cache_bytes());
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t p = 4096; p <= top; p *= 2) {
    sizes.push_back(p);
    if (p * 3 / 2 <= top) sizes.push_back(p * 3 / 2);
  }
  return sizes;
}

std::vector<std::uint64_t> default_device_latency_sizes() {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t p = 4096; p <= kDeviceLatencyMostBytes; p *= 2) {
    sizes.push_back(p);
    if (p * 3 / 2 <= kDeviceLatencyMostBytes) sizes.push_back(p * 3 / 2);
  }
  return sizes;
}

void MemCli::resolve(MemOptions& o) {
  if (corrupt_flag_ && o.corrupt_for_test.empty()) o.corrupt_for_test = "value";
  if (!mode_text_.empty()) o.mode = value_in(kModeNames, mode_text_);
  resolve_backend(o);
  modes_.check(o.mode_name());
  resolve_types(o);
  resolve_counts(o);
  resolve_threads(o);
  if (!kernels_text_.empty()) o.kernels = parse_list(kernels_text_, "kernel", kernel_by_name);
  if (o.mode == Mode::kLatency || o.mode == Mode::kLoadedLatency) resolve_chase(o);
  if (o.mode == Mode::kLoadedLatency) {
    resolve_loaded_latency(o);
  } else if (o.mode == Mode::kLatency) {
    resolve_latency(o);
  } else {
    resolve_arrays(o);
  }
}

// The texts of --type, --unit, --nt-stores, --shape, --elements and
// --array-bytes, and how they must agree.
void MemCli::resolve_types(MemOptions& o) const {
  o.element_type = value_in(kElementTypeNames, type_text_);
  o.unit = value_in(kRateUnitNames, unit_text_);
  o.nt_stores = value_in(kNtStoresNames, nt_stores_text_);
  if (!elements_text_.empty() && !array_bytes_text_.empty()) {
    throw UsageError("give the array length once: --elements or --array-bytes");
  }
  const std::uint64_t eb = o.element_bytes();
  if (!elements_text_.empty()) o.elements = parse_size(elements_text_);
  if (!array_bytes_text_.empty()) o.elements = parse_size(array_bytes_text_) / eb;
  if (!array_bytes_text_.empty() && o.elements == 0) throw UsageError("--array-bytes is smaller than one element");
  if (shape_text_ != "auto") {
    o.shape = shape_by_name(shape_text_);
    const bool nt = is_nontemporal(*o.shape);
    if ((nt && o.nt_stores == NtStores::kOff) || (!nt && o.nt_stores == NtStores::kOn)) {
      throw UsageError(fmt::format("--shape {} contradicts --nt-stores {}", shape_text_, nt_stores_text_));
    }
    if (nt && !has_nontemporal_stores()) {
      throw UsageError(fmt::format("--shape {}: this build has no streaming stores", shape_text_));
    }
  }
}

// -r and --samples (the older name, which wins where both are given), the
// time budget and the alignment.
void MemCli::resolve_counts(MemOptions& o) const {
  const bool chase = o.mode == Mode::kLatency || o.mode == Mode::kLoadedLatency;
  if (repetitions_option_ && repetitions_option_->count() > 0) {
    const bool rounds = o.mode == Mode::kBandwidth;
    (rounds ? kRounds : kSamples).check(repetitions_);
    (rounds ? o.repetitions : o.samples) = repetitions_;
  }
  if (samples_option_ && samples_option_->count() > 0) {
    kOlderSamples.check(samples_);
    o.samples = samples_;
  }
  // Latency samples are short so that one of them is likely to run
  // undisturbed on a shared machine: the minimum is the headline.
  if (o.samples == 0) o.samples = chase ? kChaseSamples : kSweepSamples;
  check_seconds(o.point_time, "--time-budget", 3600);
  const std::uint64_t eb = o.element_bytes();
  if (!is_power_of_two(o.alignment) || o.alignment < eb || o.alignment > (1u << 21)) {
    throw UsageError(fmt::format("invalid alignment '{}': a power of two from {} to 2M", o.alignment, eb));
  }
}

void MemCli::resolve_threads(MemOptions& o) {
  const int cpus = static_cast<int>(allowed_cpus().size());
  if (!threads_text_.empty()) o.threads = parse_count_list(threads_text_);
  if (o.threads.empty()) o.threads = {cpus};
  // tp runs one team: the rest of a list would be dropped unsaid.
  if (o.mode == Mode::kTp && o.threads.size() != 1)
    throw UsageError("tp takes one thread count (a team on private arrays)");
  // More threads than CPUs measure the scheduler, not the memory (and
  // 100000 threads exhaust the process before anything is timed).
  for (int t : o.threads) {
    if (t > cpus) throw UsageError(fmt::format("invalid threads '{}': this process may run on {} CPUs", t, cpus));
  }
  o.placement = Placement::parse(bind_text_);
}

// latency and loaded-latency: the chase's stride and TLB window.
void MemCli::resolve_chase(MemOptions& o) const {
  if (o.stride < sizeof(void*) || o.stride % sizeof(void*)) {
    throw UsageError(fmt::format("invalid stride '{}': a multiple of {} bytes", o.stride, sizeof(void*)));
  }
  if (!tlb_window_text_.empty()) o.tlb_window = parse_size(tlb_window_text_);
  if (o.tlb_window % o.stride) {
    throw UsageError(fmt::format("invalid --tlb-window-bytes '{}': a multiple of --stride-bytes ({} B)",
                                 tlb_window_text_, o.stride));
  }
}

void MemCli::resolve_latency(MemOptions& o) const {
  o.latency_sizes = given_sizes(o);
  if (o.latency_sizes.empty())
    o.latency_sizes = o.on_device() ? default_device_latency_sizes() : default_latency_sizes();
  for (auto b : o.latency_sizes) {
    if (b < 2 * o.stride) throw UsageError(fmt::format("working set {} holds fewer than two nodes", b));
  }
  const std::uint64_t largest = *std::max_element(o.latency_sizes.begin(), o.latency_sizes.end());
  // A device's ring holds 32-bit word indices.
  if (o.on_device() && largest / 4 > UINT32_MAX) {
    throw UsageError(
        fmt::format("working set {} is over 16 GiB, the most a device chase's 32-bit indices reach", largest));
  }
  // Smaller working sets of a sweep are one window each (as with none);
  // a window above every one of them would change nothing at all.
  check_tlb_window(o, largest, "the largest working set");
  require_memory(largest, "the largest working set");
}

// bandwidth, seq and tp: the arrays' length (seq/tp: the sweep's sizes) and
// that they fit.
void MemCli::resolve_arrays(MemOptions& o) const {
  const bool sweep = o.mode == Mode::kSeq || o.mode == Mode::kTp;
  if (sweep) check_output_folder(o.outdir, "data file folder (--outdir)");
  const int most_threads = *std::max_element(o.threads.begin(), o.threads.end());
  if (o.elements == 0) o.elements = default_elements(o, most_threads);
  if (sweep) {
    o.sweep_sizes = given_sizes(o);
    // A size list sets the largest array itself; --elements would be dropped unsaid.
    if (!o.sweep_sizes.empty() && !(elements_text_.empty() && array_bytes_text_.empty())) {
      throw UsageError(
          fmt::format("mem {} takes the array lengths once: a size list or --elements/--array-bytes "
                      "(the largest of the default sizes)",
                      o.mode_name()));
    }
    if (o.sweep_sizes.empty()) o.sweep_sizes = default_sweep_sizes(o.elements);
    if (o.sweep_sizes.empty()) throw UsageError("no sweep sizes: --elements is below 128");
    o.elements = *std::max_element(o.sweep_sizes.begin(), o.sweep_sizes.end());
  }
  const int sets = o.mode == Mode::kTp ? o.threads.front() : 1;
  const std::string arrays = fmt::format("{} arrays of {} elements", 4 * sets, o.elements);
  const std::uint64_t eb = o.element_bytes();
  require_memory(
      checked_product(checked_product(4ull * static_cast<std::uint64_t>(sets), o.elements, arrays), eb, arrays),
      arrays);
}

// The sizes of seq/tp (elements) or latency (bytes), from whichever of
// --sizes-elements, --sizes-bytes and the older --sizes was given; empty
// when none was.
std::vector<std::uint64_t> MemCli::given_sizes(const MemOptions& o) const {
  const int given = !sizes_elements_text_.empty() + !sizes_bytes_text_.empty() + !sizes_text_.empty();
  if (given > 1) throw UsageError("give the sizes once: --sizes-elements, --sizes-bytes or --sizes");
  if (given == 0) return {};
  if (o.mode == Mode::kLatency) {  // --sizes-elements is seq/tp's only (modes_)
    return parse_size_list(sizes_bytes_text_.empty() ? sizes_text_ : sizes_bytes_text_);
  }
  if (sizes_bytes_text_.empty()) {
    return parse_size_list(sizes_elements_text_.empty() ? sizes_text_ : sizes_elements_text_);
  }
  const std::uint64_t eb = o.element_bytes();
  std::vector<std::uint64_t> elements;
  for (auto b : parse_size_list(sizes_bytes_text_)) {
    if (b % eb) throw UsageError(fmt::format("size {} B is not a whole number of {} elements", b, o.type_name()));
    elements.push_back(b / eb);
  }
  return elements;
}

// mem --backend: host (the default) or a device backend, which runs the
// bandwidth and seq modes in its own memory and has no threads, placement,
// loop shapes or host pages to set.
void MemCli::resolve_backend(MemOptions& o) const {
  if (!o.on_device()) {
    if (!o.choice.platform.empty() || !o.choice.device.empty()) {
      throw UsageError("--platform and --device pick a device: they go with --backend " +
                       device::or_list(device_backends()));
    }
    if (!timing_text_.empty() || !passes_text_.empty()) {
      throw UsageError(fmt::format("{} is a device's: it goes with --backend {}",
                                   timing_text_.empty() ? "--passes-per-launch" : "--timing",
                                   device::or_list(device_backends())));
    }
    return;
  }
  if (!timing_text_.empty()) o.timing = value_in(kDeviceTimingNames, timing_text_);
  if (!passes_text_.empty() && passes_text_ != "all") {
    const auto passes = parse_size(passes_text_, true);
    if (passes < 1 || passes > kMostPassesPerLaunch) {
      throw UsageError(
          fmt::format("invalid --passes-per-launch '{}': all, or 1 to {}", passes_text_, kMostPassesPerLaunch));
    }
    o.passes_per_launch = static_cast<std::uint32_t>(passes);
  }
  device::check_choice(o.choice);
  if (o.mode != Mode::kBandwidth && o.mode != Mode::kSeq && o.mode != Mode::kLatency) {
    throw UsageError(fmt::format("mem {} runs in host memory only: --backend {} runs bandwidth, seq and latency",
                                 o.mode_name(), o.choice.backend));
  }
  for (const CLI::Option* option : host_only_) {
    if (option->count() > 0) {
      throw UsageError(fmt::format("{} applies to host memory (--backend {}), not to --backend {}", option->get_name(),
                                   vocabulary::kHostBackend, o.choice.backend));
    }
  }
}

// One chasing thread and threads - 1 loaders, each with its own arrays.
void MemCli::resolve_loaded_latency(MemOptions& o) const {
  if (o.threads.size() != 1) throw UsageError("loaded-latency takes one thread count (one chases, the rest load)");
  plan_loaded_latency(o.threads.front(), {});  // refuses fewer than two
  if (o.kernels.size() > 1) throw UsageError("loaded-latency takes one load kernel (-k), e.g. -k triad");
  if (o.elements == 0) o.elements = kLoadedLatencyElements;
  const std::uint64_t llc = last_level_cache_bytes();
  o.chase_bytes = chase_bytes_text_.empty()
                      ? std::clamp<std::uint64_t>(4 * llc, kLoadedChaseLeastBytes, kLoadedChaseMostBytes)
                      : parse_size(chase_bytes_text_);
  if (o.chase_bytes < 2 * o.stride) {
    throw UsageError(fmt::format("chase working set {} holds fewer than two nodes", o.chase_bytes));
  }
  check_tlb_window(o, o.chase_bytes, "the chase working set (--chase-bytes)");
  resolve_loaded_load(o);
  const std::uint64_t loaders = static_cast<std::uint64_t>(o.threads.front() - 1);
  // Checked: 2^61 elements once wrapped to 0 bytes, passed and crashed.
  const std::uint64_t load_bytes = checked_product(
      loaders, checked_product(o.elements, 4 * sizeof(double), "--elements x 4 arrays"), "the loaders' arrays");
  if (load_bytes > UINT64_MAX - o.chase_bytes) throw UsageError("the chase and the loaders' arrays exceed 2^64 bytes");
  require_memory(o.chase_bytes + load_bytes,
                 fmt::format("the chase and {} loader{}' arrays", loaders, loaders == 1 ? "" : "s"));
}

// The load's chunk and delays.
void MemCli::resolve_loaded_load(MemOptions& o) const {
  // The default chunk shrinks to a smaller array; a chunk given larger than
  // the array would run whole arrays per call under its own name.
  const std::uint64_t array_bytes = checked_product(o.elements, sizeof(double), "--elements x 8 bytes");
  o.load_chunk_bytes =
      chunk_text_.empty() ? std::min<std::uint64_t>(kDefaultLoadChunkBytes, array_bytes) : parse_size(chunk_text_);
  if (o.load_chunk_bytes < sizeof(double)) {
    throw UsageError(fmt::format("invalid --chunk-bytes '{}': at least one element of double (8 B)", chunk_text_));
  }
  if (o.load_chunk_bytes > array_bytes) {
    throw UsageError(
        fmt::format("invalid --chunk-bytes '{}': at most the bytes of one load array, {} ({} elements "
                    "of double, --elements)",
                    chunk_text_, format_bytes(static_cast<double>(array_bytes)), o.elements));
  }
  o.load_delays = delays_text_.empty() ? default_load_delays() : parse_list(delays_text_, "--delays", parse_delay);
}

// A TLB window larger than the working set it cuts would leave it one
// random cycle, the same chase as no window: refused, not ignored.
void MemCli::check_tlb_window(const MemOptions& o, std::uint64_t working_set, std::string_view what) const {
  if (o.tlb_window > working_set) {
    throw UsageError(fmt::format("invalid --tlb-window-bytes '{}': at most {}, {}", tlb_window_text_, what,
                                 format_bytes(static_cast<double>(working_set))));
  }
}

}  // namespace movebench::mem
