// stream's figures, records and settings (stream_measure.hpp).
#include <fmt/format.h>

#include "core/stats.hpp"
#include "stream/stream_measure.hpp"

namespace movebench::stream {

double mean(const std::vector<double>& v) { return v.empty() ? 0 : summarize(v).mean; }

Figure latency_figure(std::string name, const Point& p) {
  return Figure::latency(std::move(name), mean(p.latency), Stat::kMean);
}

Figure throughput_figure(std::string name, const Point& p) {
  return Figure::bandwidth(std::move(name), mean(p.throughput), Stat::kMean, Of::kRate, application_bytes());
}

void add_record(Report& report, Device& device, const std::string& design, const Shape& shape, const Point& p) {
  if (p.latency.empty()) return;
  Record rec;
  rec.benchmark = "stream";
  rec.operation = design;
  rec.bytes = shape.chunk_count * 4;
  rec.params = {{"backend", device.backend()},      {"chunks", shape.chunks},
                {"chunk_count", shape.chunk_count}, {"inflight", shape.inflight},
                {"iterations", shape.repetitions},  {"chunk_latency_median_s", p.chunk_latency_median}};
  rec.samples = p.latency;
  rec.figures = {latency_figure("latency", p),
                 Figure::latency("latency_median", summarize(p.latency).median, Stat::kMedian),
                 throughput_figure("throughput", p)};
  // Each chunk's latency: its P50 ... P99.9 where the count supports them, and the max.
  for (auto& f : p.chunks.figures("chunk_latency")) rec.figures.push_back(std::move(f));
  report.add(std::move(rec), p.chunks);
}

void record_settings(Report& report, Device& device, const StreamOptions& o,
                     const std::vector<const Design*>& designs) {
  auto& s = report.settings("stream");
  s["backend"] = device.backend();
  s["chunks"] = o.shape.chunks;
  s["chunk_count"] = o.shape.chunk_count;
  s["inflight"] = o.shape.inflight;
  kPasses.record(s, o.shape.repetitions);
  s["designs"] = nlohmann::json::array();
  for (const Design* d : designs) s["designs"].push_back(d->name);
  s["sweep"] = o.sweep;
  s["timeout_s"] = o.common.timeout_s;
}

}  // namespace movebench::stream
