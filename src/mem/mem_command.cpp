// `movebench mem`: options, their checks, and the suite entry.
#include "mem/mem_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/atomic_file.hpp"
#include "core/buffer.hpp"
#include "core/errors.hpp"
#include "core/host_info.hpp"
#include "core/mode_options.hpp"
#include "core/sizes.hpp"
#include "core/summary.hpp"
#include "core/vocabulary.hpp"
#include "device/options.hpp"
#include "device/registry.hpp"
#include "mem/device_runner.hpp"
#include "mem/loaded_latency.hpp"
#include "mem/modes.hpp"

namespace movebench {
namespace {

using mem::MemOptions;
using mem::Mode;

// Samples per point by default: seq/tp, and latency and loaded-latency.
constexpr int kSweepSamples = 5, kChaseSamples = 20;
// loaded-latency: bytes per array of each kernel call of the load.
constexpr std::uint64_t kLoadChunkBytes = 16384;

// The help section of names kept for older scripts.
constexpr const char* kOlderNames = "Older names (still taken)";

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

class MemCommand : public Command {
 public:
  std::string name() const override { return "mem"; }
  std::string summary() const override {
    return "Memory bandwidth (the eight streaming kernels) and latency (pointer chase)";
  }
  std::vector<std::string> cases() const override {
    std::vector<std::string> out;
    for (const auto& k : mem::kernel_table()) out.push_back(fmt::format("mem.{}", k.name));
    out.push_back("mem.latency");
    out.push_back("mem.loaded_latency");
    return out;
  }

  void add_options(CLI::App& app) override {
    app.add_option("mode", mode_text_, "bandwidth (default), seq, tp, latency or loaded-latency")
        ->check(CLI::IsMember({"bandwidth", "seq", "tp", "latency", "loaded-latency"}));
    // Each option that not every mode uses names the modes that do (one
    // table: modes_); given to another mode it is refused. Unnamed here:
    // what every mode uses (-r, --bind, --huge-pages, --backend).
    const std::vector<std::string> kArrays{"bandwidth", "seq", "tp", "loaded-latency"};  // the kernels' arrays
    const std::vector<std::string> kTable{"bandwidth", "seq", "tp"};           // the kernels' figures, their type
    const std::vector<std::string> kSweeps{"seq", "tp"};
    const std::vector<std::string> kSizeLists{"seq", "tp", "latency"};
    const std::vector<std::string> kTimed{"seq", "tp", "latency", "loaded-latency"};  // samples in a time budget
    const std::vector<std::string> kChase{"latency", "loaded-latency"};
    const std::vector<std::string> kLoaded{"loaded-latency"};
    modes_.only(kArrays, app.add_option("-n,--elements", elements_text_,
                                        "Array length in elements, K/M/G suffixes (default: TheBandwidthBenchmark's "
                                        "125M, less if memory is short); not latency"));
    modes_.only(kArrays, app.add_option("--array-bytes", array_bytes_text_,
                                        "Array length in bytes per array instead, e.g. 1GiB; not latency"));
    // One count for every mode: the timed repetitions whose statistics are
    // reported (bandwidth: calls of each kernel; the others: samples per point).
    repetitions_option_ = app.add_option(
        vocabulary::names("-r", vocabulary::kRepetitions), repetitions_,
        vocabulary::help(vocabulary::kRepetitions,
                         fmt::format("bandwidth: of every kernel (TheBandwidthBenchmark's NTIMES, default {}); seq/tp: "
                                     "samples per kernel and size (default {}); latency, loaded-latency: samples per "
                                     "point (default {})", MemOptions{}.repetitions, kSweepSamples, kChaseSamples)));
    device::add_choice_options(app, opt_.choice, device_backend_help());
    // seq and latency run one thread (placed by --bind).
    host_only_.push_back(modes_.only({"bandwidth", "tp", "loaded-latency"}, app.add_option(
        vocabulary::names("-t", vocabulary::kThreads), threads_text_,
        vocabulary::help(vocabulary::kThreads,
                         "bandwidth: a count, or a list (1,2,4 or 1:8) for a scaling run; tp, loaded-latency: a count "
                         "(default: every allowed CPU)"))));
    host_only_.push_back(app.add_option("--bind", bind_text_,
                                        "Thread placement: close, spread, none, a CPU list such as 0-3,8, or auto "
                                        "(close; none when OMP_PROC_BIND/OMP_PLACES ask OpenMP to place threads)")
                             ->capture_default_str());
    host_only_.push_back(modes_.only({"bandwidth"}, app.add_flag("--verbose-affinity", opt_.verbose_affinity,
                                                                 "bandwidth: print the CPU and affinity mask of every "
                                                                 "thread")));
    // The chase's nodes are page aligned.
    host_only_.push_back(modes_.only(kArrays,
        app.add_option("--align-bytes,--align", opt_.alignment, "Array alignment in bytes (exactly this; a power of two)")
            ->check(CLI::Range(1.0, 2097152.0))
            ->capture_default_str()));
    // loaded-latency's load is double only.
    modes_.only(kTable, app.add_option("--type", opt_.element_type, "Element type (bandwidth, seq, tp)")
                            ->check(CLI::IsMember({"double", "float"}))
                            ->capture_default_str());
    host_only_.push_back(modes_.only(kArrays, app.add_option("--nt-stores", opt_.nt_stores,
                   "Streaming (non-temporal) stores: on, off, or auto (on when the data exceed the last-level cache)")
        ->check(CLI::IsMember({"auto", "on", "off"}))->capture_default_str()));
    host_only_.push_back(modes_.only(kArrays, app.add_option("--shape", opt_.shape,
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
    modes_.only(kArrays, app.add_option("-k,--kernels", kernels_text_,
                                        "Kernels to run, comma-separated (default: all eight); loaded-latency: the "
                                        "one load kernel (default: triad)"));
    host_only_.push_back(modes_.only(kTable, app.add_flag("--write-allocate", opt_.write_allocate,
                                                          "Also show bandwidth with write-allocate traffic counted")));
    modes_.only(kArrays, app.add_option("--unit", opt_.unit, "Rate unit of the table (loaded-latency: of the load)")
                             ->check(CLI::IsMember({"MB/s", "GB/s"}))
                             ->capture_default_str());
    host_only_.push_back(app.add_flag("--huge-pages", opt_.huge_pages, "Back arrays with transparent huge pages"));
    modes_.only(kSweeps, app.add_option(vocabulary::names(vocabulary::kSizesElements), sizes_elements_text_,
                                        vocabulary::help(vocabulary::kSizesElements,
                                                         "seq/tp: array lengths (e.g. 1K:64M:x2)")));
    modes_.only(kSizeLists, app.add_option(vocabulary::names(vocabulary::kSizesBytes), sizes_bytes_text_,
                                           vocabulary::help(vocabulary::kSizesBytes,
                                                            "seq/tp: bytes per array (whole elements); latency: "
                                                            "working sets (e.g. 4K:256M)")));
    // Its own option, not an alias: scripts give it beside -r (which bandwidth took).
    samples_option_ = modes_.only(
        kTimed, app.add_option("--samples", samples_,
                               "The older name of --repetitions in seq/tp/latency/loaded-latency (wins there)")
                    ->group(kOlderNames));
    modes_.only(kSizeLists, app.add_option("--sizes", sizes_text_,
                                           "The older name: seq/tp array lengths in elements, latency working sets "
                                           "in bytes")
                                ->group(kOlderNames));
    // bandwidth times a fixed count of calls (-r) instead.
    modes_.only(kTimed, app.add_option(vocabulary::names("", vocabulary::kTimeBudget, "--point-time"), opt_.point_time,
                                       vocabulary::help(vocabulary::kTimeBudget,
                                                        "seq/tp per kernel and size, latency per working set, "
                                                        "loaded-latency per delay"))
                            ->capture_default_str());
    modes_.only(kSweeps, app.add_option("--outdir", opt_.outdir, "seq/tp: folder for the data files (one per kernel)")
                             ->capture_default_str());
    modes_.only(kChase, app.add_option("--stride-bytes,--stride", opt_.stride,
                                       "latency, loaded-latency: bytes per node of the chase (at least a pointer)")
                            ->check(CLI::Range(8.0, 1073741824.0))
                            ->capture_default_str());
    // A range check before the conversion: CLI11 would take -1 as 2^64-1.
    modes_.only(kChase, app.add_option(vocabulary::names(vocabulary::kSeed), opt_.seed,
                                       vocabulary::help(vocabulary::kSeed,
                                                        "latency, loaded-latency: of the chase's random permutation"))
                            ->check(CLI::Range(0.0, 9007199254740992.0))
                            ->capture_default_str());
    modes_.only(kChase, app.add_option("--tlb-window-bytes,--tlb-window", tlb_window_text_,
                   "latency, loaded-latency: the chase visits every node of one window of this many bytes before "
                   "the next (multichase's -T, 256K there), at most the (largest) working set; default: none, one random "
                   "cycle over the working set"));
    modes_.only(kLoaded, app.add_option("--chase-bytes", chase_bytes_text_,
                                        "loaded-latency: working set of the chase (default: 4 x the last-level "
                                        "cache, 64M to 512M)"));
    modes_.only(kLoaded, app.add_option("--delays", delays_text_,
                                        "loaded-latency: injection delays, spin iterations after each chunk of the "
                                        "load, idle for none (default: idle,200000,100000,50000,20000,10000,5000,"
                                        "2000,1000,500,0)"));
    modes_.only(kLoaded, app.add_option("--chunk-bytes,--chunk", chunk_text_,
                                        "loaded-latency: bytes per array of each kernel call of the load, at most "
                                        "one array (default: 16K, or the array when smaller)")
                             ->default_str("16K"));
    app.add_flag("--corrupt-for-test", corrupt_flag_, "")->group("");  // tests only
    app.add_option("--corrupt-kind", opt_.corrupt_for_test, "")->group("");  // tests only: value, swap, skip
  }

  void check_options() override {
    if (corrupt_flag_ && opt_.corrupt_for_test.empty()) opt_.corrupt_for_test = "value";
    resolve(opt_);
  }

  int run(Report& report) override {
    record_settings(report);
    if (opt_.on_device()) {
      mem::run_on_device(opt_, report);
      return kExitOk;
    }
    switch (opt_.mode) {
      case Mode::kBandwidth: mem::run_bandwidth(opt_, report); break;
      case Mode::kSeq:
      case Mode::kTp: mem::run_sweep(opt_, report); break;
      case Mode::kLatency: mem::run_latency(opt_, report); break;
      case Mode::kLoadedLatency: mem::run_loaded_latency(opt_, report); break;
    }
    return kExitOk;
  }

  std::vector<std::vector<std::string>> suite_runs(std::string&) const override {
    // Bounded: arrays four times the last-level cache (so memory, not cache,
    // is measured), one thread and all threads; then latency. At most 512 MiB
    // per array and a 512 MiB chase: a guest shown its host's whole L3
    // (480 MiB on the development VM) made the suite's mem part take 11
    // minutes with 2 GiB arrays and a chase up to 1.5 GiB.
    constexpr std::uint64_t kSuiteMaxBytes = 512ull << 20;
    const auto llc = std::max<std::uint64_t>(last_level_cache_bytes(), 8ull << 20);
    const auto elements = std::clamp<std::uint64_t>(4 * llc / 8, 16ull << 20, kSuiteMaxBytes / 8);
    const int all = static_cast<int>(allowed_cpus().size());
    auto chase = default_latency_sizes();
    std::erase_if(chase, [](std::uint64_t b) { return b > kSuiteMaxBytes; });
    return {{"bandwidth", "--elements", std::to_string(elements), "--threads", all > 1 ? fmt::format("1,{}", all) : "1"},
            {"latency", "--time-budget", "0.05", "--sizes-bytes", fmt::format("{}", fmt::join(chase, ","))}};
  }

  std::string suite_summary(const Report& report) const override {
    const auto triad = [](std::string_view threads) {
      return fmt::format("triad with {} thread{}", threads, threads == "1" ? "" : "s");
    };
    return SummaryLine(report, "mem:")
        .results("mem.triad.", "t", triad, {"MB/s", 0})
        // Latency at the largest working set: main memory.
        .at_largest("mem", "latency", "latency", "latency", {"ns", 1})
        .str();
  }

 private:
  // Parses the text options, fills defaults and refuses what cannot run,
  // before anything is allocated.
  void resolve(MemOptions& o) {
    if (!mode_text_.empty()) o.mode_name = mode_text_;
    o.mode = o.mode_name == "seq" ? Mode::kSeq : o.mode_name == "tp" ? Mode::kTp
             : o.mode_name == "latency" ? Mode::kLatency
             : o.mode_name == "loaded-latency" ? Mode::kLoadedLatency : Mode::kBandwidth;
    resolve_backend(o);
    modes_.check(o.mode_name);
    if (!elements_text_.empty() && !array_bytes_text_.empty()) {
      throw UsageError("give the array length once: --elements or --array-bytes");
    }
    const std::uint64_t eb = o.element_bytes();
    if (!elements_text_.empty()) o.elements = parse_size(elements_text_);
    if (!array_bytes_text_.empty()) o.elements = parse_size(array_bytes_text_) / eb;
    if (!array_bytes_text_.empty() && o.elements == 0) throw UsageError("--array-bytes is smaller than one element");
    if (o.shape != "auto") {
      const bool nt = mem::is_nontemporal(mem::shape_by_name(o.shape));
      if ((nt && o.nt_stores == "off") || (!nt && o.nt_stores == "on")) {
        throw UsageError(fmt::format("--shape {} contradicts --nt-stores {}", o.shape, o.nt_stores));
      }
      if (nt && !mem::has_nontemporal_stores()) {
        throw UsageError(fmt::format("--shape {}: this build has no streaming stores", o.shape));
      }
    }
    const bool chase = o.mode == Mode::kLatency || o.mode == Mode::kLoadedLatency;
    if (repetitions_option_ && repetitions_option_->count() > 0) {
      if (repetitions_ < 1 || repetitions_ > vocabulary::kMaxKeptRepetitions) {
        throw UsageError(fmt::format("invalid --repetitions '{}': 1 to {}", repetitions_, vocabulary::kMaxKeptRepetitions));
      }
      (o.mode == Mode::kBandwidth ? o.repetitions : o.samples) = repetitions_;
    }
    if (samples_option_ && samples_option_->count() > 0) {
      if (samples_ < 1 || samples_ > vocabulary::kMaxKeptRepetitions) {
        throw UsageError(fmt::format("invalid --samples '{}': 1 to {}", samples_, vocabulary::kMaxKeptRepetitions));
      }
      o.samples = samples_;
    }
    // Latency samples are short so that one of them is likely to run
    // undisturbed on a shared machine: the minimum is the headline.
    if (o.samples == 0) o.samples = chase ? kChaseSamples : kSweepSamples;
    check_seconds(o.point_time, "--time-budget", 3600);
    if (!is_power_of_two(o.alignment) || o.alignment < eb || o.alignment > (1u << 21)) {
      throw UsageError(fmt::format("invalid alignment '{}': a power of two from {} to 2M", o.alignment, eb));
    }
    const int cpus = static_cast<int>(allowed_cpus().size());
    if (!threads_text_.empty()) o.threads = parse_count_list(threads_text_);
    if (o.threads.empty()) o.threads = {cpus};
    // tp runs one team: the rest of a list would be dropped unsaid.
    if (o.mode == Mode::kTp && o.threads.size() != 1) throw UsageError("tp takes one thread count (a team on private arrays)");
    // More threads than CPUs measure the scheduler, not the memory (and
    // 100000 threads exhaust the process before anything is timed).
    for (int t : o.threads) {
      if (t > cpus) throw UsageError(fmt::format("invalid threads '{}': this process may run on {} CPUs", t, cpus));
    }
    o.placement = Placement::parse(bind_text_);
    if (!kernels_text_.empty()) o.kernels = parse_list(kernels_text_, "kernel", mem::kernel_by_name);
    const int most_threads = *std::max_element(o.threads.begin(), o.threads.end());
    if (chase) {
      if (o.stride < sizeof(void*) || o.stride % sizeof(void*)) {
        throw UsageError(fmt::format("invalid stride '{}': a multiple of {} bytes", o.stride, sizeof(void*)));
      }
      if (!tlb_window_text_.empty()) o.tlb_window = parse_size(tlb_window_text_);
      if (o.tlb_window % o.stride) {
        throw UsageError(fmt::format("invalid --tlb-window-bytes '{}': a multiple of --stride-bytes ({} B)",
                                     tlb_window_text_, o.stride));
      }
    }
    if (o.mode == Mode::kLoadedLatency) {
      resolve_loaded_latency(o);
      return;
    }
    if (o.mode == Mode::kLatency) {
      o.latency_sizes = given_sizes(o);
      if (o.latency_sizes.empty()) o.latency_sizes = default_latency_sizes();
      for (auto b : o.latency_sizes) {
        if (b < 2 * o.stride) throw UsageError(fmt::format("working set {} holds fewer than two nodes", b));
      }
      const std::uint64_t largest = *std::max_element(o.latency_sizes.begin(), o.latency_sizes.end());
      // Smaller working sets of a sweep are one window each (as with none);
      // a window above every one of them would change nothing at all.
      check_tlb_window(o, largest, "the largest working set");
      require_memory(largest, "the largest working set");
      return;
    }
    if (o.mode == Mode::kSeq || o.mode == Mode::kTp) check_output_folder(o.outdir, "data file folder (--outdir)");
    if (o.elements == 0) o.elements = default_elements(o, most_threads);
    if (o.mode == Mode::kSeq || o.mode == Mode::kTp) {
      o.sweep_sizes = given_sizes(o);
      // A size list sets the largest array itself; --elements would be dropped unsaid.
      if (!o.sweep_sizes.empty() && !(elements_text_.empty() && array_bytes_text_.empty())) {
        throw UsageError(fmt::format("mem {} takes the array lengths once: a size list or --elements/--array-bytes "
                                     "(the largest of the default sizes)", o.mode_name));
      }
      if (o.sweep_sizes.empty()) o.sweep_sizes = default_sweep_sizes(o.elements);
      if (o.sweep_sizes.empty()) throw UsageError("no sweep sizes: --elements is below 128");
      o.elements = *std::max_element(o.sweep_sizes.begin(), o.sweep_sizes.end());
    }
    const int sets = o.mode == Mode::kTp ? o.threads.front() : 1;
    const std::string arrays = fmt::format("{} arrays of {} elements", 4 * sets, o.elements);
    require_memory(checked_product(checked_product(4ull * static_cast<std::uint64_t>(sets), o.elements, arrays), eb, arrays),
                   arrays);
  }

  // The sizes of seq/tp (elements) or latency (bytes), from whichever of
  // --sizes-elements, --sizes-bytes and the older --sizes was given; empty
  // when none was.
  std::vector<std::uint64_t> given_sizes(const MemOptions& o) const {
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
      if (b % eb) throw UsageError(fmt::format("size {} B is not a whole number of {} elements", b, o.element_type));
      elements.push_back(b / eb);
    }
    return elements;
  }

  // mem --backend: host (the default) or a device backend, which runs the
  // bandwidth and seq modes in its own memory and has no threads, placement,
  // loop shapes or host pages to set.
  void resolve_backend(const MemOptions& o) const {
    if (!o.on_device()) {
      if (!o.choice.platform.empty() || !o.choice.device.empty()) {
        throw UsageError("--platform and --device pick a device: they go with --backend " +
                         device::or_list(device_backends()));
      }
      return;
    }
    device::check_choice(o.choice);
    if (o.mode != Mode::kBandwidth && o.mode != Mode::kSeq) {
      throw UsageError(fmt::format("mem {} runs in host memory only: --backend {} runs bandwidth and seq",
                                   o.mode_name, o.choice.backend));
    }
    for (const CLI::Option* option : host_only_) {
      if (option->count() > 0) {
        throw UsageError(fmt::format("{} applies to host memory (--backend host), not to --backend {}",
                                     option->get_name(), o.choice.backend));
      }
    }
  }

  // The device backends movebench knows (built or not).
  static std::vector<std::string> device_backends() {
    std::vector<std::string> out;
    for (const auto& b : device::known_backends()) {
      if (b != "host") out.push_back(b);
    }
    return out;
  }

  static std::string device_backend_help() {
    return fmt::format("Where the arrays live: host (default: host memory, OpenMP threads) or the device memory of "
                       "{} (bandwidth and seq; docs/mem.md)", device::or_list(device_backends()));
  }

  // One chasing thread and threads - 1 loaders, each with its own arrays.
  void resolve_loaded_latency(MemOptions& o) {
    if (o.threads.size() != 1) throw UsageError("loaded-latency takes one thread count (one chases, the rest load)");
    mem::plan_loaded_latency(o.threads.front(), {});  // refuses fewer than two
    if (o.kernels.size() > 1) throw UsageError("loaded-latency takes one load kernel (-k), e.g. -k triad");
    if (o.elements == 0) o.elements = 4ull << 20;  // 32 MiB per array, 128 MiB per loader
    const std::uint64_t llc = last_level_cache_bytes();
    o.chase_bytes = chase_bytes_text_.empty() ? std::clamp<std::uint64_t>(4 * llc, 64ull << 20, 512ull << 20)
                                              : parse_size(chase_bytes_text_);
    if (o.chase_bytes < 2 * o.stride) {
      throw UsageError(fmt::format("chase working set {} holds fewer than two nodes", o.chase_bytes));
    }
    check_tlb_window(o, o.chase_bytes, "the chase working set (--chase-bytes)");
    // The default chunk shrinks to a smaller array; a chunk given larger than
    // the array would run whole arrays per call under its own name.
    const std::uint64_t array_bytes = checked_product(o.elements, sizeof(double), "--elements x 8 bytes");
    o.load_chunk_bytes = chunk_text_.empty() ? std::min<std::uint64_t>(kLoadChunkBytes, array_bytes)
                                             : parse_size(chunk_text_);
    if (o.load_chunk_bytes < sizeof(double)) {
      throw UsageError(fmt::format("invalid --chunk-bytes '{}': at least one element of double (8 B)", chunk_text_));
    }
    if (o.load_chunk_bytes > array_bytes) {
      throw UsageError(fmt::format("invalid --chunk-bytes '{}': at most the bytes of one load array, {} ({} elements "
                                   "of double, --elements)",
                                   chunk_text_, format_bytes(static_cast<double>(array_bytes)), o.elements));
    }
    o.load_delays =
        delays_text_.empty() ? mem::default_load_delays() : parse_list(delays_text_, "--delays", parse_delay);
    const std::uint64_t loaders = static_cast<std::uint64_t>(o.threads.front() - 1);
    // Checked: 2^61 elements once wrapped to 0 bytes, passed and crashed.
    const std::uint64_t load_bytes =
        checked_product(loaders, checked_product(o.elements, 4 * sizeof(double), "--elements x 4 arrays"),
                        "the loaders' arrays");
    if (load_bytes > UINT64_MAX - o.chase_bytes) throw UsageError("the chase and the loaders' arrays exceed 2^64 bytes");
    require_memory(o.chase_bytes + load_bytes,
                   fmt::format("the chase and {} loader{}' arrays", loaders, loaders == 1 ? "" : "s"));
  }

  // A TLB window larger than the working set it cuts would leave it one
  // random cycle, the same chase as no window: refused, not ignored.
  void check_tlb_window(const MemOptions& o, std::uint64_t working_set, std::string_view what) const {
    if (o.tlb_window > working_set) {
      throw UsageError(fmt::format("invalid --tlb-window-bytes '{}': at most {}, {}", tlb_window_text_, what,
                                   format_bytes(static_cast<double>(working_set))));
    }
  }

  // One item of "idle,1000,0": spin iterations, idle for no load at all.
  static std::int64_t parse_delay(std::string_view item) {
    if (item == "idle") return mem::kIdleLoad;
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

  // TheBandwidthBenchmark's size, halved until everything fits in half the
  // free memory.
  // On a device, BabelStream's 2^25, halved the same way for the host copies
  // the validation needs.
  static std::uint64_t default_elements(const MemOptions& o, int threads) {
    const int sets = o.mode == Mode::kTp ? threads : 1;
    std::uint64_t n = o.on_device() ? mem::kDeviceDefaultElements : mem::kDefaultElements;
    while (n > 1024 && 4 * n * o.element_bytes() * sets > available_memory_bytes() / 2) n /= 2;
    return n;
  }

  void record_settings(Report& report) const {
    auto& s = report.settings("mem");
    // `movebench run` runs mem twice into one report: the settings are the
    // first run's (the bandwidth table's); every record carries its own
    // parameters.
    if (s.contains("mode") && s["mode"] != opt_.mode_name) return;
    s["mode"] = opt_.mode_name;
    s["backend"] = opt_.on_device() ? opt_.choice.backend : "host";
    s["elements"] = opt_.elements;
    s["type"] = opt_.element_type;
    s["repetitions"] = opt_.repetitions;
    s["threads"] = opt_.threads;
    s["bind"] = opt_.placement.describe();
    s["alignment"] = opt_.alignment;
    s["nt_stores"] = opt_.nt_stores;
    s["shape"] = opt_.shape;
    s["nt_stores_available"] = mem::has_nontemporal_stores();  // false: --nt-stores on stores plainly
    s["huge_pages"] = opt_.huge_pages;
    s["unit"] = opt_.unit;
    if (opt_.mode == Mode::kSeq || opt_.mode == Mode::kTp) {
      s["sizes"] = opt_.sweep_sizes;
      s["outdir"] = opt_.outdir;
    }
    if (opt_.mode == Mode::kLatency || opt_.mode == Mode::kLoadedLatency) {
      s["stride"] = opt_.stride;
      s["seed"] = opt_.seed;
      s["tlb_window"] = opt_.tlb_window;
    }
    if (opt_.mode == Mode::kLatency) s["sizes"] = opt_.latency_sizes;
    if (opt_.mode == Mode::kLoadedLatency) {
      s["chase_bytes"] = opt_.chase_bytes;
      s["delays"] = opt_.load_delays;
      s["chunk_bytes"] = opt_.load_chunk_bytes;
      s["load_kernel"] = mem::info(opt_.kernels.empty() ? mem::Kernel::kTriad : opt_.kernels.front()).name;
    }
    if (opt_.mode != Mode::kBandwidth) {
      s["point_time"] = opt_.point_time;
      s["samples"] = opt_.samples;
    }
    nlohmann::json traffic = nlohmann::json::object();
    for (const auto& k : mem::kernel_table()) {
      traffic[std::string(k.name)] = {{"formula", k.formula}, {"loads", k.loads}, {"stores", k.stores},
                                      {"write_allocate", k.write_allocate}, {"flops", k.flops}, {"arrays", k.arrays}};
    }
    s["traffic"] = traffic;
    if (opt_.on_device()) {
      for (const char* key : {"threads", "bind", "alignment", "nt_stores", "shape", "nt_stores_available", "huge_pages"}) {
        s.erase(key);
      }
    }
  }

  MemOptions opt_;
  std::vector<CLI::Option*> host_only_;  // options a device backend refuses
  ModeOptions modes_{"mem"};            // options only some modes use
  bool corrupt_flag_ = false;
  std::string mode_text_, elements_text_, array_bytes_text_, threads_text_, bind_text_ = "auto";
  std::string kernels_text_, sizes_text_, sizes_elements_text_, sizes_bytes_text_, tlb_window_text_;
  std::string chase_bytes_text_, delays_text_, chunk_text_;
  int repetitions_ = 0, samples_ = 0;  // when given: opt_.repetitions or opt_.samples, by mode
  CLI::Option* repetitions_option_ = nullptr;
  CLI::Option* samples_option_ = nullptr;
};

}  // namespace

std::unique_ptr<Command> make_mem_command() { return std::make_unique<MemCommand>(); }

}  // namespace movebench
