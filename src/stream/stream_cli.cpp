// stream's options (stream_options.hpp): declared once, resolved once.
#include <fmt/format.h>

#include <algorithm>

#include "core/buffer.hpp"
#include "core/errors.hpp"
#include "core/sizes.hpp"
#include "core/vocabulary.hpp"
#include "stream/designs.hpp"
#include "stream/stream_options.hpp"

namespace movebench::stream {

std::uint64_t StreamOptions::total_bytes() const {
  const auto words = checked_product(shape.chunks, shape.chunk_count, "--chunks x --chunk-elements");
  return checked_product(words, 4, "--chunks x --chunk-elements");
}

void StreamCli::add_options(CLI::App& app, StreamOptions& o) {
  device::add_common_options(app, o.common);
  // Ranges checked on the text, before CLI11 converts it (it takes -1 as
  // 2^64-1 for an unsigned option).
  app.add_option("--chunks", o.shape.chunks, "Chunks per pass (simple-host-streaming's # Chunks)")
      ->check(CLI::Range(1.0, static_cast<double>(1u << 20)))
      ->capture_default_str();
  app.add_option("--chunk-elements,--chunk-count", o.shape.chunk_count,
                 "32-bit elements per chunk (simple-host-streaming's Chunk count)")
      ->check(CLI::Range(1.0, static_cast<double>(1ull << 30)))
      ->capture_default_str();
  inflight_option_ =
      app.add_option("--inflight", o.shape.inflight, "Chunks in flight at once (not offload)")->capture_default_str();
  app.add_option(vocabulary::names("", vocabulary::kRepetitions, "--iterations"), o.shape.repetitions,
                 vocabulary::help(vocabulary::kRepetitions, "passes per design (simple-host-streaming's Iterations)"))
      ->capture_default_str();
  app.add_option("--designs", designs_text_, design_names() + " (default: all the backend has)");
  app.add_option(vocabulary::names("", vocabulary::kSizesBytes, "--sweep"), sweep_text_,
                 vocabulary::help(vocabulary::kSizesBytes,
                                  "chunk sizes to sweep (e.g. 4K:4M:x4): the latency/throughput curve per design at "
                                  "a constant total, and the smallest chunk keeping 90% of the best throughput"));
}

void StreamCli::resolve(StreamOptions& o, const std::vector<std::string>& cases) const {
  device::check_common_options(o.common);
  const Shape& shape = o.shape;
  if (shape.chunks < 1 || shape.chunk_count < 1) throw UsageError("--chunks and --chunk-elements must be 1 or more");
  if (shape.inflight < 1) throw UsageError(fmt::format("invalid --inflight '{}': 1 or more", shape.inflight));
  // The ring holds one slot per chunk in flight: more than there are
  // chunks would only allocate (2^31 slots once ended in std::bad_alloc).
  if (static_cast<std::uint64_t>(shape.inflight) > shape.chunks) {
    throw UsageError(fmt::format("--inflight {} exceeds --chunks {}", shape.inflight, shape.chunks));
  }
  // Every pass keeps its latency and every chunk of it its round trip (for
  // the median): a count with no bound allocated until the machine ran out.
  kPasses.check(shape.repetitions);
  if (shape.chunks > (1u << 20)) throw UsageError("--chunks is above 1M");
  resolve_sweep(o);
  require_memory(checked_product(4, o.total_bytes(), "the stream buffers"), "the stream buffers");
  resolve_designs(o, cases);
}

// --sizes-bytes, and the chunk round trips every design keeps.
void StreamCli::resolve_sweep(StreamOptions& o) const {
  o.sweep.clear();
  const std::uint64_t total = o.total_bytes();
  std::uint64_t most_chunks = o.shape.chunks;
  if (!sweep_text_.empty()) {
    for (auto s : parse_size_list(sweep_text_)) {
      if (s % 4 || total % s) {
        throw UsageError(fmt::format("sweep chunk {} must be whole words dividing the total {} bytes", s, total));
      }
      o.sweep.push_back(s);
      most_chunks = std::max(most_chunks, total / s);
    }
  }
  if (most_chunks > kMaxKeptChunkLatencies / static_cast<std::uint64_t>(o.shape.repetitions)) {  // no overflow
    throw UsageError(fmt::format("{} chunks x {} repetitions: at most {} chunk round trips are kept (fewer of either)",
                                 most_chunks, o.shape.repetitions, kMaxKeptChunkLatencies));
  }
}

void StreamCli::resolve_designs(StreamOptions& o, const std::vector<std::string>& cases) const {
  o.designs.clear();
  if (designs_text_.empty()) return;
  o.designs = parse_list(designs_text_, "design", [&](std::string_view d) {
    if (std::find(cases.begin(), cases.end(), fmt::format("stream.{}", d)) == cases.end()) {
      throw UsageError(fmt::format("unknown design '{}': {}", d, design_names()));
    }
    return std::string(d);
  });
  // Refused rather than ignored: offload alone has no chunks in flight and no curve to sweep.
  if (std::none_of(o.designs.begin(), o.designs.end(), [](const std::string& d) { return has_curve(d); })) {
    if (!o.sweep.empty()) throw UsageError("--sizes-bytes sweeps the chunked designs, not --designs offload");
    if (inflight_option_->count() > 0)
      throw UsageError("--inflight applies to the chunked designs, not to --designs offload");
  }
}

}  // namespace movebench::stream
