// The text of `movebench stream` (simple-host-streaming's lines and the
// chunk-size sweep's table), as functions of what was measured, through an
// Output (core/output.hpp): the command's measuring code hands its results
// to these and prints nothing itself; the unit tests call them on results
// made by hand.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/distribution.hpp"
#include "core/output.hpp"
#include "core/stats.hpp"
#include "stream/curve.hpp"

namespace movebench::stream {

// simple-host-streaming's header: the shape of every design's run.
void write_shape(Output& out, std::size_t chunks, std::size_t chunk_count, int iterations);
// The empty kernel's round trips (seconds), measured before the designs.
void write_launch_bound(Output& out, const Summary& seconds);
void write_design_begun(Output& out, const char* title);
// "<Name> average latency: ..." and "... throughput: ...": means over the
// passes (seconds, bytes per second); then movebench's line of the
// chunks' percentiles (us: P50 ... max, n/a where the count cannot support
// one), every chunk of every pass.
void write_design_done(Output& out, const char* name, double mean_latency_s, double mean_throughput,
                       const Distribution& chunks);
void write_check_failed(Output& out, const char* design, std::size_t element);
// The sweep of one design: its heading, a row per chunk size, and the chunk
// its 90% rule picked.
// Each row: the chunk size, the chunks a pass, the mean latency of a pass,
// the throughput, and the chunks' P50 and P99 (us).
void write_sweep_heading(Output& out, const char* design, std::uint64_t total_bytes, int inflight);
void write_sweep_row(Output& out, const CurvePoint& point, std::size_t chunks, const Distribution& per_chunk);
// Under the designs and the sweeps: what a chunk's sample is, how many the
// lines rest on, the clock's cost (core/distribution's note).
void write_chunks_note(Output& out, std::string_view event, const SampleCounts& counts);
void write_chunk90(Output& out, const CurvePoint& pick);
// The last line: PASSED or FAILED.
void write_passed(Output& out, bool passed);

}  // namespace movebench::stream
