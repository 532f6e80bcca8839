// One stream design at one shape: its passes, timed, every output checked
// (stream_measure.hpp).
#include "stream/stream_measure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/stats.hpp"
#include "device/pattern.hpp"
#include "stream/curve.hpp"
#include "stream/stream_output.hpp"

namespace movebench::stream {
namespace {

// The validation of one pass: every output element against the pattern
// its input was filled with. False (recorded and said) at the first wrong one.
bool check_pass(const Buffer& output, std::size_t words, std::uint32_t seed, const Design& design, Report& report,
                Output& out) {
  const auto bad = device::first_stream_mismatch(output.as<std::uint32_t>(), words, seed);
  if (!bad) return true;
  report.validation(false, fmt::format("stream {}: output element {} is wrong", design.name, *bad));
  write_check_failed(out, design.name, *bad);
  return false;
}

}  // namespace

MemKind stream_kind(Device& device) {
  for (auto k : {MemKind::kMapped, MemKind::kPageable}) {
    const auto have = device.host_kinds();
    if (std::find(have.begin(), have.end(), k) != have.end() && device.kernel_reaches(k)) return k;
  }
  throw UsageError(fmt::format("the {} backend has no host memory its kernels can reach", device.backend()));
}

// Every iteration: fresh input pattern and a cleared output (untimed), one
// pass, then every output element checked.
Point measure_design(Device& device, const Design& design, const Shape& shape, const StreamOptions& o, Report& report,
                     Output& out) {
  const MemKind kind = stream_kind(device);
  StreamJob job;
  auto in = device.alloc(kind, shape.chunks * shape.chunk_count * 4);
  auto output = device.alloc(kind, shape.chunks * shape.chunk_count * 4);
  job.in = in.get();
  job.out = output.get();
  job.chunk_words = shape.chunk_count;
  job.chunks = shape.chunks;
  job.inflight = shape.inflight;
  job.timeout_s = o.common.timeout_s;
  const std::size_t words = job.chunks * job.chunk_words;
  DesignState state = design.prepare(device, job);
  Point p;
  std::vector<double> chunk_latencies;
  for (int it = -1; it < shape.repetitions && !interrupted(); ++it) {  // it = -1: warm-up pass
    const auto seed = static_cast<std::uint32_t>(it + 100);
    device::fill_pattern(in->as<std::uint32_t>(), words, seed);
    std::memset(output->host(), 0, words * 4);
    const ChunkTimes t = design.run(device, job, state);
    if (o.common.corrupt_for_test && it == 0) output->as<std::uint32_t>()[words - 1] ^= 4u;
    if (!check_pass(*output, words, seed, design, report, out)) p.passed = false;
    if (it < 0) continue;
    p.latency.push_back(pass_latency(t));
    p.throughput.push_back(pass_throughput(t, static_cast<double>(words) * 4));
    for (std::size_t c = 0; c < t.seen.size(); ++c) chunk_latencies.push_back(t.seen[c] - t.submitted[c]);
  }
  if (p.passed) report.validation(true, fmt::format("stream {}", design.name));
  if (!chunk_latencies.empty()) p.chunk_latency_median = summarize(chunk_latencies).median;
  p.chunks.add(chunk_latencies);
  add_record(report, device, design.name, shape, p);
  return p;
}

}  // namespace movebench::stream
