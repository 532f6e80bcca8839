// `movebench stream` on a device: the designs chosen, the launch bound, each
// design, then the sweep (stream_measure.hpp).
#include <fmt/format.h>

#include <algorithm>

#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/sizes.hpp"
#include "core/stats.hpp"
#include "stream/curve.hpp"
#include "stream/stream_measure.hpp"
#include "stream/stream_output.hpp"

namespace movebench::stream {
namespace {

// The designs that will run on `device`, each checked against its row's
// limits for the shape and every sweep size before anything is measured.
std::vector<const Design*> chosen(Device& device, const StreamOptions& o) {
  auto out = available_designs(device);
  if (!o.designs.empty()) {
    const auto have = std::move(out);
    out.clear();
    for (const auto& name : o.designs) {
      auto it = std::find_if(have.begin(), have.end(), [&](const Design* d) { return name == d->name; });
      if (it == have.end()) throw UsageError(fmt::format("the {} backend has no '{}' design", device.backend(), name));
      out.push_back(*it);
    }
  }
  std::vector<std::uint64_t> sweep_chunks;
  for (auto chunk : o.sweep) sweep_chunks.push_back(o.total_bytes() / chunk);
  check_limits(out, o.shape.chunks, sweep_chunks);
  return out;
}

// What no design launching a kernel per chunk can beat
// (simple-host-streaming's t_launch + t_finish), measured before the
// designs for comparison.
void launch_bound(Device& device, Report& report, const StreamOptions& o, Output& out) {
  constexpr int kCount = 100;
  auto host = device.alloc(stream_kind(device), 4);
  const auto seconds = empty_kernel_roundtrips(device, *host, kCount, o.common.timeout_s);
  if (seconds.empty()) return;
  const Summary s = summarize(seconds);
  write_launch_bound(out, s);
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

// Each design with a curve at every chunk size of --sizes-bytes, the total
// kept; false when a check failed.
bool run_sweep(Device& device, Report& report, const StreamOptions& o, const std::vector<const Design*>& designs,
               Output& out, SampleCounts& counts) {
  const Shape& shape = o.shape;
  const std::uint64_t total = static_cast<std::uint64_t>(shape.chunks) * shape.chunk_count * 4;
  bool passed = true;
  for (const Design* d : designs) {
    if (!has_curve(*d)) continue;
    write_sweep_heading(out, d->name, total, shape.inflight);
    std::vector<CurvePoint> curve;
    for (auto chunk : o.sweep) {
      if (interrupted()) break;
      report.progress().step(fmt::format("{} {}", d->name, format_bytes(static_cast<double>(chunk))));
      Shape s = shape;
      s.chunk_count = chunk / 4;
      s.chunks = total / chunk;
      const Point p = measure_design(device, *d, s, o, report, out);
      passed = passed && p.passed;
      curve.push_back({chunk, mean(p.latency), mean(p.throughput)});
      write_sweep_row(out, curve.back(), s.chunks, p.chunks);
      counts.add(p.chunks);
    }
    if (auto pick = smallest_chunk_keeping(curve, 0.9)) {
      write_chunk90(out, *pick);
      // Chosen on the mean throughputs of the curve; a smaller chunk is better.
      report.set_result(Figure::size(fmt::format("stream.{}.chunk90", d->name), static_cast<double>(pick->chunk_bytes),
                                     Stat::kMean, Of::kRate, false));
    }
  }
  return passed;
}

}  // namespace

void run_stream(Device& device, Report& report, const StreamOptions& o, Output& out) {
  const auto designs = chosen(device, o);
  const Shape& shape = o.shape;
  record_settings(report, device, o, designs);
  write_shape(out, shape.chunks, shape.chunk_count, shape.repetitions);
  launch_bound(device, report, o, out);
  bool passed = true;
  SampleCounts counts;
  const auto curves = std::count_if(designs.begin(), designs.end(), [](const Design* d) { return has_curve(*d); });
  report.progress().begin("stream",
                          designs.size() + static_cast<std::size_t>(curves) * (o.sweep.empty() ? 0 : o.sweep.size()));
  for (const Design* d : designs) {
    if (interrupted()) break;
    report.progress().step(d->name);
    write_design_begun(out, d->title);
    const Point p = measure_design(device, *d, shape, o, report, out);
    passed = passed && p.passed;
    write_design_done(out, d->name, mean(p.latency), mean(p.throughput), p.chunks);
    counts.add(p.chunks);
    report.set_result(latency_figure(fmt::format("stream.{}.latency", d->name), p));
    report.set_result(throughput_figure(fmt::format("stream.{}.throughput", d->name), p));
  }
  if (!o.sweep.empty()) passed = run_sweep(device, report, o, designs, out, counts) && passed;
  write_chunks_note(out, kChunkEvent, counts);
  write_passed(out, passed);
}

}  // namespace movebench::stream
