// What link's measurements hand their writer, and the writer: the table of
// each bandwidth combination, hdl_single_engine's lines and the latency
// lines, as functions of those results through an Output (core/output.hpp).
// The measuring code (link_bandwidth.cpp, link_latency.cpp) prints nothing;
// the unit tests call these on results made by hand.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/output.hpp"
#include "core/stats.hpp"
#include "link/figures.hpp"
#include "link/link_bench.hpp"

namespace movebench::link {

// One combination of direction, path and host memory.
struct Combo {
  Direction dir;
  Path path;
  MemKind kind;
};

// One series of one size: the seconds of each test (a duplex run has one
// series per direction and their total).
struct Series {
  std::string operation;
  double bytes_per_test;
  std::vector<double> seconds;
  std::vector<double> overlap;  // duplex total: how much the two directions overlapped, per test
  int directions = 1;           // duplex total: 2, both directions' bytes summed
};

// Bandwidth: a combination's heading and column names, one row per series
// of a size (none for a series without tests), hdl_single_engine's lines of
// the last size, a kernel path left out, and a check that failed (stderr).
void write_combo_heading(Output& out, const Combo& c, const LinkOptions& o);
void write_size_row(Output& out, std::uint64_t bytes, const Series& s);
void write_engine_lines(Output& out, const Combo& c, const std::vector<Series>& last);
void write_kernel_skipped(Output& out, MemKind kind, const std::string& backend);
void write_bandwidth_failed(Output& out, const Series& first, std::uint64_t bytes, MemKind kind,
                            const std::string& why);

// Latency: what a probe of the device measured, in ns net of an empty probe
// (T(n) - T(0)); 0 or less is below the clock's resolution.
struct ChaseResult {
  MemKind kind;
  std::string clock;        // the clock the device timed on
  std::size_t samples = 0;  // probes per figure
  double first_ns = 0;      // the first word
  double per_word_ns = 0;   // each of `steps` dependent words
  std::uint64_t steps = 0;
};
struct WriteResult {
  MemKind kind;
  std::string clock;
  std::size_t samples = 0;
  double first_ns = 0;  // the first word written
  double burst_ns = 0;  // all `burst_bytes` written
  std::uint64_t burst_bytes = 0;
};
// The chase from each unit in turn: its heading and one line, the spread
// over the units (every unit's figure is in the record, not the text).
struct UnitChaseResult {
  MemKind kind;
  std::string clock;
  std::string unit;  // "SM", "work-group"
  std::uint64_t steps = 0;
  std::size_t units = 0;                 // units chased from
  std::vector<std::uint32_t> unreached;  // units no launch reached
  UnitSpread spread;                     // over the units the clock resolved
};
void write_chase(Output& out, const ChaseResult& r);
void write_chase_skipped(Output& out, const std::string& backend);
void write_unit_chase(Output& out, const UnitChaseResult& r);
// Why no chase per unit ran: `why` ends "(link latency chase per unit skipped: ...)".
void write_unit_chase_skipped(Output& out, const std::string& why);
void write_write_latency(Output& out, const WriteResult& r);
void write_write_failed(Output& out);
// The host-timed round trip: its heading, a row per size (seconds), a
// round that came back wrong (stderr).
// Under a latency's lines: each probe's percentiles (percentile_text, in
// `unit`), "  percentiles (ns), first word: P50 ... Max ...", then `clock`:
// which clock timed them, what its reads cost and where that went
// (probe_clock_note, host_clock_note).
struct PercentileLine {
  std::string what, cells;
};
void write_percentiles(Output& out, const std::vector<PercentileLine>& lines, std::string_view unit,
                       std::string_view clock);
// A probe timed on `clock` (the device's own where it has one) beside an
// empty probe on the same clock: the reads cancel in the figures.
std::string probe_clock_note(std::string_view clock);
// A round trip timed on the host: what a read costs, not subtracted.
std::string host_clock_note(double per_second, std::string_view unit);
void write_roundtrip_heading(Output& out, MemKind kind);
void write_roundtrip_row(Output& out, std::uint64_t bytes, const Summary& seconds);
void write_roundtrip_failed(Output& out, std::uint64_t bytes, int round, std::size_t word);

// The last line of every run: the report's verdict.
void write_validation_line(Output& out, bool failed);

}  // namespace movebench::link
