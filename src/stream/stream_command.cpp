// `movebench stream`: oneAPI's simple-host-streaming designs and the
// low-latency ones, their latency and throughput per design, and the
// chunk-size sweep.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "core/buffer.hpp"
#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/output.hpp"
#include "core/repetitions.hpp"
#include "core/sizes.hpp"
#include "core/summary.hpp"
#include "core/vocabulary.hpp"
#include "core/stats.hpp"
#include "device/options.hpp"
#include "device/pattern.hpp"
#include "stream/curve.hpp"
#include "stream/designs.hpp"
#include "stream/stream_output.hpp"
#include "stream/stream_command.hpp"

namespace movebench {
namespace {

using namespace stream;
using device::CommonOptions;
using device::fill_pattern;
using device::first_stream_mismatch;

// Every pass keeps its latency and every chunk of it its round trip: bounded
// as kept samples are; recorded under simple-host-streaming's name.
constexpr Repetitions kPasses{"--repetitions (--iterations)", "iterations"};

struct Shape {
  std::size_t chunks = 64, chunk_count = 32768;  // chunk_count: 32-bit elements per chunk
  int inflight = 2, repetitions = 4;
};

// Chunk round trips kept per design for their median (8 bytes each: 800 MB).
inline constexpr std::uint64_t kMaxKeptChunkLatencies = 100'000'000;

// The figures of one design at one shape over its iterations.
struct Point {
  std::vector<double> latency, throughput;  // per iteration: seconds, bytes/s
  double chunk_latency_median = 0;          // over every chunk of every iteration
  bool passed = true;
};

class StreamCommand : public Command {
 public:
  std::string name() const override { return "stream"; }
  std::string summary() const override {
    return "Host-device streaming: offload vs chunked vs pipeline vs persistent kernel; latency and throughput";
  }
  std::vector<std::string> cases() const override {
    std::vector<std::string> out{"stream.launch_bound"};
    for (const auto& d : designs()) out.push_back(fmt::format("stream.{}", d.name));
    return out;
  }

  void add_options(CLI::App& app) override {
    device::add_common_options(app, common_);
    // Ranges checked on the text, before CLI11 converts it (it takes -1 as
    // 2^64-1 for an unsigned option).
    app.add_option("--chunks", shape_.chunks, "Chunks per pass (simple-host-streaming's # Chunks)")
        ->check(CLI::Range(1.0, static_cast<double>(1u << 20)))
        ->capture_default_str();
    app.add_option("--chunk-elements,--chunk-count", shape_.chunk_count,
                   "32-bit elements per chunk (simple-host-streaming's Chunk count)")
        ->check(CLI::Range(1.0, static_cast<double>(1ull << 30)))
        ->capture_default_str();
    inflight_option_ = app.add_option("--inflight", shape_.inflight, "Chunks in flight at once (not offload)")
                           ->capture_default_str();
    app.add_option(vocabulary::names("", vocabulary::kRepetitions, "--iterations"), shape_.repetitions,
                   vocabulary::help(vocabulary::kRepetitions, "passes per design (simple-host-streaming's Iterations)"))
        ->capture_default_str();
    app.add_option("--designs", designs_text_, design_names() + " (default: all the backend has)");
    app.add_option(vocabulary::names("", vocabulary::kSizesBytes, "--sweep"), sweep_text_,
                   vocabulary::help(vocabulary::kSizesBytes,
                                    "chunk sizes to sweep (e.g. 4K:4M:x4): the latency/throughput curve per design at "
                                    "a constant total, and the smallest chunk keeping 90% of the best throughput"));
  }

  void check_options() override {
    device::check_common_options(common_);
    if (shape_.chunks < 1 || shape_.chunk_count < 1) throw UsageError("--chunks and --chunk-elements must be 1 or more");
    if (shape_.inflight < 1) throw UsageError(fmt::format("invalid --inflight '{}': 1 or more", shape_.inflight));
    // The ring holds one slot per chunk in flight: more than there are
    // chunks would only allocate (2^31 slots once ended in std::bad_alloc).
    if (static_cast<std::uint64_t>(shape_.inflight) > shape_.chunks) {
      throw UsageError(fmt::format("--inflight {} exceeds --chunks {}", shape_.inflight, shape_.chunks));
    }
    // Every pass keeps its latency and every chunk of it its round trip (for
    // the median): a count with no bound allocated until the machine ran out.
    kPasses.check(shape_.repetitions);
    if (shape_.chunks > (1u << 20)) throw UsageError("--chunks is above 1M");
    sweep_.clear();
    const std::uint64_t total = total_bytes();
    std::uint64_t most_chunks = shape_.chunks;
    if (!sweep_text_.empty()) {
      for (auto s : parse_size_list(sweep_text_)) {
        if (s % 4 || total % s) {
          throw UsageError(fmt::format("sweep chunk {} must be whole words dividing the total {} bytes", s, total));
        }
        sweep_.push_back(s);
        most_chunks = std::max(most_chunks, total / s);
      }
    }
    if (most_chunks > kMaxKeptChunkLatencies / static_cast<std::uint64_t>(shape_.repetitions)) {  // no overflow
      throw UsageError(fmt::format("{} chunks x {} repetitions: at most {} chunk round trips are kept (fewer of either)",
                                   most_chunks, shape_.repetitions, kMaxKeptChunkLatencies));
    }
    require_memory(checked_product(4, total, "the stream buffers"), "the stream buffers");
    designs_.clear();
    if (!designs_text_.empty()) {
      const auto known = cases();
      designs_ = parse_list(designs_text_, "design", [&](std::string_view d) {
        if (std::find(known.begin(), known.end(), fmt::format("stream.{}", d)) == known.end()) {
          throw UsageError(fmt::format("unknown design '{}': {}", d, design_names()));
        }
        return std::string(d);
      });
      // Refused rather than ignored: offload alone has no chunks in flight and no curve to sweep.
      if (std::none_of(designs_.begin(), designs_.end(), [](const std::string& d) { return has_curve(d); })) {
        if (!sweep_.empty()) throw UsageError("--sizes-bytes sweeps the chunked designs, not --designs offload");
        if (inflight_option_->count() > 0) throw UsageError("--inflight applies to the chunked designs, not to --designs offload");
      }
    }
  }

  int run(Report& report) override {
    auto device = device::open_and_describe(common_.choice, report, out_, "stream");
    run_all(*device, report, shape_, sweep_);
    return kExitOk;
  }

  std::vector<std::vector<std::string>> suite_runs(std::string&) const override {
    // Every design of the default device, on 16 chunks of 16 KiB, 3 passes.
    return {{"--chunks", "16", "--chunk-elements", "4096", "--inflight", "2", "--repetitions", "3", "--sizes-bytes",
             "4K:64K:x4"}};
  }

  std::string suite_summary(const Report& report) const override {
    const auto design = [](std::string_view d) { return fmt::format("{}.latency", d); };
    return SummaryLine(report, device::suite_label(report, "stream"))
        .result("stream.launch_bound", "launch bound", {"us", 1})
        .results("stream.", ".latency", design, {"us", 1})
        .str();
  }

 private:
  // Where the text goes (core/output.hpp): the standard streams.
  Output& out_ = standard_output();

  std::uint64_t total_bytes() const {
    const auto words = checked_product(shape_.chunks, shape_.chunk_count, "--chunks x --chunk-elements");
    return checked_product(words, 4, "--chunks x --chunk-elements");
  }

  // The designs that will run on `device`, each checked against its row's
  // limits for the shape and every sweep size before anything is measured.
  std::vector<const Design*> chosen(Device& device) const {
    auto out = available_designs(device);
    if (!designs_.empty()) {
      const auto have = std::move(out);
      out.clear();
      for (const auto& name : designs_) {
        auto it = std::find_if(have.begin(), have.end(), [&](const Design* d) { return name == d->name; });
        if (it == have.end()) throw UsageError(fmt::format("the {} backend has no '{}' design", device.backend(), name));
        out.push_back(*it);
      }
    }
    std::vector<std::uint64_t> sweep_chunks;
    for (auto chunk : sweep_) sweep_chunks.push_back(total_bytes() / chunk);
    check_limits(out, shape_.chunks, sweep_chunks);
    return out;
  }

  void run_all(Device& device, Report& report, const Shape& shape, const std::vector<std::uint64_t>& sweep) {
    const auto designs = chosen(device);
    record_settings(report, device, shape, designs, sweep);
    write_shape(out_, shape.chunks, shape.chunk_count, shape.repetitions);
    launch_bound(device, report);
    bool passed = true;
    const auto curves = std::count_if(designs.begin(), designs.end(), [](const Design* d) { return has_curve(*d); });
    report.progress().begin("stream", designs.size() + static_cast<std::size_t>(curves) * (sweep.empty() ? 0 : sweep.size()));
    for (const Design* d : designs) {
      if (interrupted()) break;
      report.progress().step(d->name);
      write_design_begun(out_, d->title);
      const Point p = measure(device, *d, shape, report);
      passed = passed && p.passed;
      write_design_done(out_, d->name, mean(p.latency), mean(p.throughput));
      report.set_result(latency_figure(fmt::format("stream.{}.latency", d->name), p));
      report.set_result(throughput_figure(fmt::format("stream.{}.throughput", d->name), p));
    }
    if (!sweep.empty()) passed = run_sweep(device, report, shape, designs, sweep) && passed;
    write_passed(out_, passed);
  }

  static double mean(const std::vector<double>& v) { return v.empty() ? 0 : summarize(v).mean; }
  // simple-host-streaming's averages over the passes: the latencies' mean,
  // and the mean of the passes' throughputs (input bytes, each streamed
  // through once).
  static Figure latency_figure(std::string name, const Point& p) {
    return Figure::latency(std::move(name), mean(p.latency), Stat::kMean);
  }
  static Figure throughput_figure(std::string name, const Point& p) {
    return Figure::bandwidth(std::move(name), mean(p.throughput), Stat::kMean, Of::kRate, application_bytes());
  }

  // What no design launching a kernel per chunk can beat
  // (simple-host-streaming's t_launch + t_finish), measured before the
  // designs for comparison.
  void launch_bound(Device& device, Report& report) {
    constexpr int kCount = 100;
    auto host = device.alloc(stream_kind(device), 4);
    const auto seconds = empty_kernel_roundtrips(device, *host, kCount, common_.timeout_s);
    if (seconds.empty()) return;
    const Summary s = summarize(seconds);
    write_launch_bound(out_, s);
    Record rec;
    rec.benchmark = "stream";
    rec.operation = "launch_bound";
    rec.bytes = 0;
    rec.params = {{"backend", device.backend()}};
    rec.samples = seconds;
    rec.figures = {Figure::latency("latency", s.median, Stat::kMedian),
                   Figure::latency("latency_min", s.min, Stat::kMin)};
    report.set_result(rec.figures.front().named("stream.launch_bound"));
    report.add(std::move(rec));
  }

  // Every iteration: fresh input pattern and a cleared output (untimed), one
  // pass, then every output element checked.
  Point measure(Device& device, const Design& design, const Shape& shape, Report& report) {
    const MemKind kind = stream_kind(device);
    StreamJob job;
    auto in = device.alloc(kind, shape.chunks * shape.chunk_count * 4);
    auto out = device.alloc(kind, shape.chunks * shape.chunk_count * 4);
    job.in = in.get();
    job.out = out.get();
    job.chunk_words = shape.chunk_count;
    job.chunks = shape.chunks;
    job.inflight = shape.inflight;
    job.timeout_s = common_.timeout_s;
    const std::size_t words = job.chunks * job.chunk_words;
    DesignState state = design.prepare(device, job);
    Point p;
    std::vector<double> chunk_latencies;
    for (int it = -1; it < shape.repetitions && !interrupted(); ++it) {  // it = -1: warm-up pass
      const auto seed = static_cast<std::uint32_t>(it + 100);
      fill_pattern(in->as<std::uint32_t>(), words, seed);
      std::memset(out->host(), 0, words * 4);
      const ChunkTimes t = design.run(device, job, state);
      if (common_.corrupt_for_test && it == 0) out->as<std::uint32_t>()[words - 1] ^= 4u;
      if (auto bad = first_stream_mismatch(out->as<std::uint32_t>(), words, seed)) {
        p.passed = false;
        report.validation(false, fmt::format("stream {}: output element {} is wrong", design.name, *bad));
        write_check_failed(out_, design.name, *bad);
      }
      if (it < 0) continue;
      p.latency.push_back(pass_latency(t));
      p.throughput.push_back(pass_throughput(t, static_cast<double>(words) * 4));
      for (std::size_t c = 0; c < t.seen.size(); ++c) chunk_latencies.push_back(t.seen[c] - t.submitted[c]);
    }
    if (p.passed) report.validation(true, fmt::format("stream {}", design.name));
    if (!chunk_latencies.empty()) p.chunk_latency_median = summarize(chunk_latencies).median;
    add_record(report, device, design.name, shape, p);
    return p;
  }

  static MemKind stream_kind(Device& device) {
    for (auto k : {MemKind::kMapped, MemKind::kPageable}) {
      const auto have = device.host_kinds();
      if (std::find(have.begin(), have.end(), k) != have.end() && device.kernel_reaches(k)) return k;
    }
    throw UsageError(fmt::format("the {} backend has no host memory its kernels can reach", device.backend()));
  }

  void add_record(Report& report, Device& device, const std::string& design, const Shape& shape, const Point& p) {
    if (p.latency.empty()) return;
    Record rec;
    rec.benchmark = "stream";
    rec.operation = design;
    rec.bytes = shape.chunk_count * 4;
    rec.params = {{"backend", device.backend()},     {"chunks", shape.chunks},
                  {"chunk_count", shape.chunk_count}, {"inflight", shape.inflight},
                  {"iterations", shape.repetitions},   {"chunk_latency_median_s", p.chunk_latency_median}};
    rec.samples = p.latency;
    rec.figures = {latency_figure("latency", p),
                   Figure::latency("latency_median", summarize(p.latency).median, Stat::kMedian),
                   throughput_figure("throughput", p)};
    report.add(std::move(rec));
  }

  bool run_sweep(Device& device, Report& report, const Shape& shape, const std::vector<const Design*>& designs,
                 const std::vector<std::uint64_t>& sweep) {
    const std::uint64_t total = static_cast<std::uint64_t>(shape.chunks) * shape.chunk_count * 4;
    bool passed = true;
    for (const Design* d : designs) {
      if (!has_curve(*d)) continue;
      write_sweep_heading(out_, d->name, total, shape.inflight);
      std::vector<CurvePoint> curve;
      for (auto chunk : sweep) {
        if (interrupted()) break;
        report.progress().step(fmt::format("{} {}", d->name, format_bytes(static_cast<double>(chunk))));
        Shape s = shape;
        s.chunk_count = chunk / 4;
        s.chunks = total / chunk;
        const Point p = measure(device, *d, s, report);
        passed = passed && p.passed;
        curve.push_back({chunk, mean(p.latency), mean(p.throughput)});
        write_sweep_row(out_, curve.back(), s.chunks);
      }
      if (auto pick = smallest_chunk_keeping(curve, 0.9)) {
        write_chunk90(out_, *pick);
        // Chosen on the mean throughputs of the curve; a smaller chunk is better.
        report.set_result(Figure::size(fmt::format("stream.{}.chunk90", d->name), static_cast<double>(pick->chunk_bytes),
                                       Stat::kMean, Of::kRate, false));
      }
    }
    return passed;
  }

  void record_settings(Report& report, Device& device, const Shape& shape, const std::vector<const Design*>& designs,
                       const std::vector<std::uint64_t>& sweep) const {
    auto& s = report.settings("stream");
    s["backend"] = device.backend();
    s["chunks"] = shape.chunks;
    s["chunk_count"] = shape.chunk_count;
    s["inflight"] = shape.inflight;
    kPasses.record(s, shape.repetitions);
    s["designs"] = nlohmann::json::array();
    for (const Design* d : designs) s["designs"].push_back(d->name);
    s["sweep"] = sweep;
    s["timeout_s"] = common_.timeout_s;
  }

  CommonOptions common_;
  Shape shape_;
  std::string designs_text_, sweep_text_;
  std::vector<std::string> designs_;
  CLI::Option* inflight_option_ = nullptr;
  std::vector<std::uint64_t> sweep_;
};

}  // namespace

std::unique_ptr<Command> make_stream_command() { return std::make_unique<StreamCommand>(); }

}  // namespace movebench
