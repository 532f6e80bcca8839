#include "stream/stream_output.hpp"

#include <fmt/printf.h>

#include <cctype>
#include <string>

#include "core/sizes.hpp"

// printf's formats, kept (fmt::sprintf): the integration tests read this
// text as simple-host-streaming's.
namespace movebench::stream {

void write_shape(Output& out, std::size_t chunks, std::size_t chunk_count, int iterations) {
  out.text(
      fmt::sprintf("# Chunks:             %zu\nChunk count:          %zu\nTotal count:          %zu\n"
                   "Iterations:           %d\n",
                   chunks, chunk_count, chunks * chunk_count, iterations));
}

void write_launch_bound(Output& out, const Summary& seconds) {
  out.text(
      fmt::sprintf("\nEmpty kernel, queued to completion seen (t_launch + t_finish): median %.2f us, min %.2f us "
                   "over %zu\n",
                   seconds.median * 1e6, seconds.min * 1e6, seconds.count));
}

void write_design_begun(Output& out, const char* title) { out.text(fmt::sprintf("\nRunning %s\n", title)); }

void write_design_done(Output& out, const char* name, double mean_latency_s, double mean_throughput,
                       const Distribution& chunks) {
  std::string title(name);
  if (!title.empty()) title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
  out.text(fmt::sprintf("%s average latency:          %.4f ms\n", title, mean_latency_s * 1e3));
  out.text(fmt::sprintf("%s average throughput:       %.4f MB/s\n", title, mean_throughput / 1e6));
  out.text(fmt::sprintf("%s chunk latency (us):       %s\n", title, percentile_text(chunks, 1e6)));
}

void write_check_failed(Output& out, const char* design, std::size_t element) {
  out.problem(fmt::sprintf("movebench stream: validation FAILED: %s output element %zu is wrong", design, element));
}

void write_sweep_heading(Output& out, const char* design, std::uint64_t total_bytes, int inflight) {
  out.text(fmt::sprintf("\n== chunk-size sweep: %s, %s in all, %d in flight ==\n%12s %8s %14s %14s %14s %14s\n", design,
                        format_bytes(static_cast<double>(total_bytes)), inflight, "chunk bytes", "chunks", "latency us",
                        "MB/s", "chunk P50 us", "chunk P99 us"));
}

void write_sweep_row(Output& out, const CurvePoint& point, std::size_t chunks, const Distribution& per_chunk) {
  const auto cells = per_chunk.cells(1e6);  // P50, P90, P99, P99.9, max
  out.text(fmt::sprintf("%12llu %8zu %14.2f %14.1f %14s %14s\n", static_cast<unsigned long long>(point.chunk_bytes),
                        chunks, point.latency_s * 1e6, point.throughput / 1e6, cells[0], cells[2]));
}

void write_chunks_note(Output& out, std::string_view event, const SampleCounts& counts) {
  out.text(fmt::sprintf("\n%s\n", distribution_note(event, counts, 1e6, "us")));
}

void write_chunk90(Output& out, const CurvePoint& pick) {
  out.text(fmt::sprintf("smallest chunk keeping 90%% of the best throughput: %llu bytes (latency %.2f us, %.1f MB/s)\n",
                        static_cast<unsigned long long>(pick.chunk_bytes), pick.latency_s * 1e6,
                        pick.throughput / 1e6));
}

void write_passed(Output& out, bool passed) { out.text(fmt::sprintf("\n%s\n", passed ? "PASSED" : "FAILED")); }

}  // namespace movebench::stream
