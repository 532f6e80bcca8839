// `movebench mem`: options, their checks, and the suite entry.
#include "mem/mem_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/atomic_file.hpp"
#include "core/buffer.hpp"
#include "core/errors.hpp"
#include "core/host_info.hpp"
#include "core/sizes.hpp"
#include "device/options.hpp"
#include "device/registry.hpp"
#include "mem/device_runner.hpp"
#include "mem/loaded_latency.hpp"
#include "mem/modes.hpp"

namespace movebench {
namespace {

using mem::MemOptions;
using mem::Mode;

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
    app.add_option("-n,--elements", elements_text_,
                   "Array length in elements, K/M/G suffixes (default: TheBandwidthBenchmark's 125M, less if "
                   "memory is short)");
    app.add_option("--array-bytes", array_bytes_text_, "Array length in bytes per array instead, e.g. 1GiB");
    app.add_option("-r,--repetitions", opt_.repetitions,
                   "Timed repetitions of every kernel (TheBandwidthBenchmark's NTIMES)")
        ->capture_default_str();
    device::add_choice_options(app, opt_.choice, device_backend_help());
    host_only_.push_back(app.add_option("-t,--threads", threads_text_,
                   "Thread count, or a list (1,2,4 or 1:8) for a scaling run (default: every allowed CPU)"));
    host_only_.push_back(app.add_option("--bind", bind_text_,
                   "Thread placement: close, spread, none, a CPU list such as 0-3,8, or auto (close; none when "
                   "OMP_PROC_BIND/OMP_PLACES ask OpenMP to place threads)")
        ->capture_default_str());
    host_only_.push_back(
        app.add_flag("--verbose-affinity", opt_.verbose_affinity, "Print the CPU and affinity mask of every thread"));
    host_only_.push_back(app.add_option("--align", opt_.alignment, "Array alignment in bytes (exactly this; a power of two)")
        ->check(CLI::Range(1.0, 2097152.0))->capture_default_str());
    app.add_option("--type", opt_.element_type, "Element type")->check(CLI::IsMember({"double", "float"}))
        ->capture_default_str();
    host_only_.push_back(app.add_option("--nt-stores", opt_.nt_stores,
                   "Streaming (non-temporal) stores: on, off, or auto (on when the data exceed the last-level cache)")
        ->check(CLI::IsMember({"auto", "on", "off"}))->capture_default_str());
    host_only_.push_back(app.add_option("--shape", opt_.shape,
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
        ->capture_default_str());
    app.add_option("-k,--kernels", kernels_text_, "Kernels to run, comma-separated (default: all eight)");
    host_only_.push_back(
        app.add_flag("--write-allocate", opt_.write_allocate, "Also show bandwidth with write-allocate traffic counted"));
    app.add_option("--unit", opt_.unit, "Rate unit of the table")->check(CLI::IsMember({"MB/s", "GB/s"}))
        ->capture_default_str();
    host_only_.push_back(app.add_flag("--huge-pages", opt_.huge_pages, "Back arrays with transparent huge pages"));
    app.add_option("--sizes", sizes_text_,
                   "seq/tp: array lengths in elements (e.g. 1K:64M:x2); latency: working sets in bytes (4K:256M)");
    app.add_option("--point-time", opt_.point_time, "seq/tp/latency: seconds spent per kernel and size")
        ->capture_default_str();
    samples_option_ =
        app.add_option("--samples", opt_.samples, "seq/tp/latency: timed samples per point (default 5; latency 20)");
    app.add_option("--outdir", opt_.outdir, "seq/tp: folder for the data files (one per kernel)")
        ->capture_default_str();
    app.add_option("--stride", opt_.stride, "latency: bytes per node of the chase (at least a pointer)")
        ->check(CLI::Range(8.0, 1073741824.0))->capture_default_str();
    // A range check before the conversion: CLI11 would take -1 as 2^64-1.
    app.add_option("--seed", opt_.seed, "latency: seed of the random permutation")
        ->check(CLI::Range(0.0, 9007199254740992.0))->capture_default_str();
    app.add_option("--tlb-window", tlb_window_text_,
                   "latency, loaded-latency: the chase visits every node of one window of this many bytes before "
                   "the next (multichase's -T, 256K there); default: none, one random cycle over the working set");
    app.add_option("--chase-bytes", chase_bytes_text_,
                   "loaded-latency: working set of the chase (default: 4 x the last-level cache, 64M to 512M)");
    app.add_option("--delays", delays_text_,
                   "loaded-latency: injection delays, spin iterations after each chunk of the load, idle for none "
                   "(default: idle,200000,100000,50000,20000,10000,5000,2000,1000,500,0)");
    app.add_option("--chunk", chunk_text_, "loaded-latency: bytes per array of each kernel call of the load")
        ->default_str("16K");
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

  bool run_in_suite(Report& report, std::string&) override {
    // Bounded defaults: arrays four times the last-level cache (so memory,
    // not cache, is measured), one thread and all threads; then latency.
    // At most 512 MiB per array and a 512 MiB chase: a guest shown its host's
    // whole L3 (480 MiB on the development VM) made the suite's mem part take
    // 11 minutes with 2 GiB arrays and a chase up to 1.5 GiB.
    constexpr std::uint64_t kSuiteMaxBytes = 512ull << 20;
    MemOptions bw;
    const auto llc = std::max<std::uint64_t>(last_level_cache_bytes(), 8ull << 20);
    bw.elements = std::clamp<std::uint64_t>(4 * llc / 8, 16ull << 20, kSuiteMaxBytes / 8);
    const int all = static_cast<int>(allowed_cpus().size());
    bw.threads = all > 1 ? std::vector<int>{1, all} : std::vector<int>{1};
    resolve(bw);
    opt_ = bw;
    record_settings(report);
    mem::run_bandwidth(bw, report);

    MemOptions lat;
    lat.mode_name = "latency";
    lat.point_time = 0.05;
    resolve(lat);
    std::erase_if(lat.latency_sizes, [](std::uint64_t b) { return b > kSuiteMaxBytes; });
    mem::run_latency(lat, report);
    return true;
  }

  std::string suite_summary(const Report& report) const override {
    std::string line = "mem: triad";
    for (const auto& [key, value] : report.document()["results"].items()) {
      if (!key.starts_with("mem.triad.")) continue;
      const std::string threads = key.substr(10, key.size() - 11);
      line += fmt::format(" {:.0f} {} with {} thread{},", value["value"].get<double>(),
                          value["unit"].get<std::string>(), threads, threads == "1" ? "" : "s");
    }
    // Latency at the largest working set: main memory.
    const nlohmann::json* deepest = nullptr;
    for (const auto& t : report.document()["timings"]) {
      if (t["operation"] == "latency" && (!deepest || t["bytes"] > (*deepest)["bytes"])) deepest = &t;
    }
    if (deepest) {
      line += fmt::format(" latency {:.1f} ns at {}", (*deepest)["figures"]["latency"]["value"].get<double>(),
                          format_bytes((*deepest)["bytes"].get<double>()));
    }
    return line;
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
    if (o.repetitions < 1) throw UsageError(fmt::format("invalid repetitions '{}': must be 1 or more", o.repetitions));
    // Latency samples are short so that one of them is likely to run
    // undisturbed on a shared machine: the minimum is the headline.
    if (samples_option_ && samples_option_->count() > 0 && o.samples < 1) {
      throw UsageError(fmt::format("invalid samples '{}': must be 1 or more", o.samples));
    }
    const bool chase = o.mode == Mode::kLatency || o.mode == Mode::kLoadedLatency;
    if (o.samples == 0) o.samples = chase ? 20 : 5;
    if (o.samples < 1) throw UsageError(fmt::format("invalid samples '{}': must be 1 or more", o.samples));
    check_seconds(o.point_time, "--point-time", 3600);
    if (!is_power_of_two(o.alignment) || o.alignment < eb || o.alignment > (1u << 21)) {
      throw UsageError(fmt::format("invalid alignment '{}': a power of two from {} to 2M", o.alignment, eb));
    }
    const int cpus = static_cast<int>(allowed_cpus().size());
    if (!threads_text_.empty()) o.threads = parse_count_list(threads_text_);
    if (o.threads.empty()) o.threads = {cpus};
    // More threads than CPUs measure the scheduler, not the memory (and
    // 100000 threads exhaust the process before anything is timed).
    for (int t : o.threads) {
      if (t > cpus) throw UsageError(fmt::format("invalid threads '{}': this process may run on {} CPUs", t, cpus));
    }
    o.placement = Placement::parse(bind_text_);
    if (!kernels_text_.empty()) {
      o.kernels.clear();
      for (const auto& name : parse_name_list(kernels_text_, "kernel")) o.kernels.push_back(mem::kernel_by_name(name));
    }
    const int most_threads = *std::max_element(o.threads.begin(), o.threads.end());
    if (chase) {
      if (o.stride < sizeof(void*) || o.stride % sizeof(void*)) {
        throw UsageError(fmt::format("invalid stride '{}': a multiple of {} bytes", o.stride, sizeof(void*)));
      }
      if (!tlb_window_text_.empty()) o.tlb_window = parse_size(tlb_window_text_);
      if (o.tlb_window % o.stride) {
        throw UsageError(fmt::format("invalid TLB window '{}': a multiple of the stride ({} B)", tlb_window_text_,
                                     o.stride));
      }
    }
    if (o.mode == Mode::kLoadedLatency) {
      resolve_loaded_latency(o);
      return;
    }
    if (o.mode == Mode::kLatency) {
      o.latency_sizes = sizes_text_.empty() ? default_latency_sizes() : parse_size_list(sizes_text_);
      for (auto b : o.latency_sizes) {
        if (b < 2 * o.stride) throw UsageError(fmt::format("working set {} holds fewer than two nodes", b));
      }
      require_memory(*std::max_element(o.latency_sizes.begin(), o.latency_sizes.end()), "the largest working set");
      return;
    }
    if (o.mode == Mode::kSeq || o.mode == Mode::kTp) check_output_folder(o.outdir, "data file folder (--outdir)");
    if (o.elements == 0) o.elements = default_elements(o, most_threads);
    if (o.mode == Mode::kSeq || o.mode == Mode::kTp) {
      o.sweep_sizes = sizes_text_.empty() ? default_sweep_sizes(o.elements) : parse_size_list(sizes_text_);
      if (o.sweep_sizes.empty()) throw UsageError("no sweep sizes: --elements is below 128");
      o.elements = *std::max_element(o.sweep_sizes.begin(), o.sweep_sizes.end());
    }
    const int sets = o.mode == Mode::kTp ? o.threads.front() : 1;
    const std::string arrays = fmt::format("{} arrays of {} elements", 4 * sets, o.elements);
    require_memory(checked_product(checked_product(4ull * static_cast<std::uint64_t>(sets), o.elements, arrays), eb, arrays),
                   arrays);
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
    if (o.element_type != "double") throw UsageError("loaded-latency loads with double arrays only");
    if (o.kernels.size() > 1) throw UsageError("loaded-latency takes one load kernel (-k), e.g. -k triad");
    if (o.elements == 0) o.elements = 4ull << 20;  // 32 MiB per array, 128 MiB per loader
    const std::uint64_t llc = last_level_cache_bytes();
    o.chase_bytes = chase_bytes_text_.empty() ? std::clamp<std::uint64_t>(4 * llc, 64ull << 20, 512ull << 20)
                                              : parse_size(chase_bytes_text_);
    if (o.chase_bytes < 2 * o.stride) {
      throw UsageError(fmt::format("chase working set {} holds fewer than two nodes", o.chase_bytes));
    }
    o.load_chunk_bytes = chunk_text_.empty() ? 16384 : parse_size(chunk_text_);
    if (o.load_chunk_bytes < sizeof(double)) throw UsageError("--chunk is smaller than one element");
    o.load_delays = delays_text_.empty() ? mem::default_load_delays() : parse_delays(delays_text_);
    const std::uint64_t loaders = static_cast<std::uint64_t>(o.threads.front() - 1);
    require_memory(o.chase_bytes + loaders * 4 * o.elements * sizeof(double),
                   fmt::format("the chase and {} loader{}' arrays", loaders, loaders == 1 ? "" : "s"));
  }

  // "idle,1000,0": spin iterations, idle for no load at all.
  static std::vector<std::int64_t> parse_delays(std::string_view text) {
    std::vector<std::int64_t> delays;
    for (const std::string& item : parse_name_list(text, "--delays")) {  // refuses empty items
      if (item == "idle") {
        delays.push_back(mem::kIdleLoad);
        continue;
      }
      std::size_t used = 0;
      long long value = -1;
      try {
        value = std::stoll(item, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != item.size() || value < 0) {
        throw UsageError(fmt::format("invalid delay '{}': a count of spin iterations (0 or more) or idle", item));
      }
      delays.push_back(value);
    }
    if (delays.empty()) throw UsageError("--delays lists no delay");
    return delays;
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
  bool corrupt_flag_ = false;
  std::string mode_text_, elements_text_, array_bytes_text_, threads_text_, bind_text_ = "auto";
  std::string kernels_text_, sizes_text_, tlb_window_text_, chase_bytes_text_, delays_text_, chunk_text_;
  CLI::Option* samples_option_ = nullptr;
};

}  // namespace

std::unique_ptr<Command> make_mem_command() { return std::make_unique<MemCommand>(); }

}  // namespace movebench
