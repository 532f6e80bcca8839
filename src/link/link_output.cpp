#include "link/link_output.hpp"

#include <fmt/format.h>
#include <fmt/printf.h>

#include "core/distribution.hpp"
#include "link/figures.hpp"

// printf's formats, kept (fmt::sprintf): the integration tests compare this
// text with hdl_single_engine's and read its tables.
namespace movebench::link {
namespace {

std::string kind_text(MemKind kind) { return std::string(kind_name(kind)); }

}  // namespace

void write_combo_heading(Output& out, const Combo& c, const LinkOptions& o) {
  out.text(
      fmt::sprintf("\n== link %s %s, %s host memory, %d tests of %d transfers per size%s, as many as fit %g "
                   "s ==\n",
                   path_name(c.path), direction_name(c.dir), kind_text(c.kind), o.repetitions, o.batch,
                   o.batch > 1 ? " (the first untimed)" : "", o.time_budget));
  out.text(fmt::sprintf("%12s %6s %12s %12s %12s %14s %12s  %s\n", "bytes", "tests", "avg MB/s", "min MB/s", "max MB/s",
                        "variance", "median MB/s", "series"));
  if (c.dir == Direction::kDuplex) {
    out.text("(total: both directions over the span from the first start to the last end)\n");
  }
}

void write_size_row(Output& out, std::uint64_t bytes, const Series& s) {
  if (s.seconds.empty()) return;
  const RateStats r = rate_stats(s.bytes_per_test, s.seconds);
  std::string text =
      fmt::sprintf("%12llu %6zu %12.1f %12.1f %12.1f %14.3f %12.1f  %s", static_cast<unsigned long long>(bytes),
                   r.count, r.average, r.min, r.max, r.variance, r.median, s.operation);
  if (!s.overlap.empty()) text += fmt::sprintf(" (overlap %.2f)", summarize(s.overlap).median);
  out.text(text + "\n");
}

void write_engine_lines(Output& out, const Combo& c, const std::vector<Series>& last) {
  for (const auto& s : last) {
    if (s.seconds.empty()) continue;
    const RateStats r = rate_stats(s.bytes_per_test, s.seconds);
    const std::string label = direction_label(c.dir);
    out.text(engine_lines(c.dir == Direction::kDuplex ? label + " " + s.operation : label, r));
  }
}

void write_kernel_skipped(Output& out, MemKind kind, const std::string& backend) {
  out.text(fmt::sprintf("\n(link kernel path skipped for %s memory: %s kernels are not given it)\n", kind_text(kind),
                        backend));
}

void write_bandwidth_failed(Output& out, const Series& first, std::uint64_t bytes, MemKind kind,
                            const std::string& why) {
  out.problem(
      fmt::format("movebench link: validation FAILED: {} {} B ({}): {}", first.operation, bytes, kind_name(kind), why));
}

void write_chase(Output& out, const ChaseResult& r) {
  out.text(fmt::sprintf("\n== link latency from the device through %s host memory (%s, T(n) - T(0)) ==\n",
                        kind_text(r.kind), r.clock));
  if (r.first_ns > 0) {
    out.text(fmt::sprintf("first word:            %10.1f ns (median of %zu)\n", r.first_ns, r.samples));
  } else {
    out.text(fmt::sprintf("first word:            below the resolution of the %s (T(1) - T(0) <= 0 over %zu samples)\n",
                          r.clock, r.samples));
  }
  // A chase no longer than an empty one is below the clock's resolution, not
  // 0 ns (a zero would read as an infinitely fast link).
  const auto steps = static_cast<unsigned long long>(r.steps);
  if (r.per_word_ns > 0) {
    out.text(fmt::sprintf("%llu dependent words:  %10.1f ns in all, %.1f ns per word\n", steps,
                          r.per_word_ns * static_cast<double>(r.steps), r.per_word_ns));
  } else {
    out.text(fmt::sprintf("%llu dependent words:  below the resolution of the %s (T(n) - T(0) <= 0 over %zu samples)\n",
                          steps, r.clock, r.samples));
  }
}

void write_chase_skipped(Output& out, const std::string& backend) {
  out.text(fmt::sprintf("\n(link latency chase skipped: %s kernels reach none of the host memory kinds asked for)\n",
                        backend));
}

void write_unit_chase(Output& out, const UnitChaseResult& r) {
  out.text(fmt::sprintf("\n== link latency chase from each %s in turn through %s host memory (%s, T(n) - T(0)) ==\n",
                        r.unit, kind_text(r.kind), r.clock));
  const auto steps = static_cast<unsigned long long>(r.steps);
  const UnitSpread& s = r.spread;
  std::string line = fmt::sprintf("%llu dependent words from %zu %ss: ", steps, r.units, r.unit);
  if (s.count > 0) {
    line += fmt::sprintf("median %.1f ns per word, fastest %.1f (%s %u), slowest %.1f (%s %u), mean %.1f", s.median,
                         s.fastest.ns, r.unit, s.fastest.unit, s.slowest.ns, r.unit, s.slowest.unit, s.mean);
  } else {
    line += fmt::sprintf("below the resolution of the %s on every one", r.clock);
  }
  if (s.count > 0 && s.count < r.units) line += fmt::sprintf("; %zu below the clock's resolution", r.units - s.count);
  if (!r.unreached.empty()) line += fmt::sprintf("; %zu not reached by any launch", r.unreached.size());
  out.text(line + " (each one in the JSON)\n");
}

void write_unit_chase_skipped(Output& out, const std::string& why) {
  out.text(fmt::sprintf("\n(link latency chase per unit skipped: %s)\n", why));
}

void write_write_latency(Output& out, const WriteResult& r) {
  out.text(fmt::sprintf("\n== link write latency from the device into %s host memory (%s, T(n) - T(0)) ==\n",
                        kind_text(r.kind), r.clock));
  const auto line = [&](const std::string& what, double ns) {
    out.text(ns > 0 ? fmt::sprintf("%-22s %10.1f ns (median of %zu)\n", what, ns, r.samples)
                    : fmt::sprintf("%-22s below the resolution of the %s\n", what, r.clock));
  };
  line("first word written:", r.first_ns);
  line(fmt::format("{} B written:", r.burst_bytes), r.burst_ns);
}

void write_write_failed(Output& out) {
  out.problem("movebench link: validation FAILED: a word the device wrote into host memory is wrong");
}

void write_percentiles(Output& out, const std::vector<PercentileLine>& lines, std::string_view unit,
                       std::string_view clock) {
  for (const auto& l : lines) out.text(fmt::format("  percentiles ({}), {}: {}\n", unit, l.what, l.cells));
  out.text(fmt::format("  clock: {}\n", clock));
}

std::string probe_clock_note(std::string_view clock) {
  return fmt::format(
      "{}; its reads are in every probe and cancel in the empty probe's median, which every figure "
      "is net of",
      clock);
}

std::string host_clock_note(double per_second, std::string_view unit) {
  return fmt::format("the host's; {}, in every sample, not subtracted", clock_note(per_second, unit));
}

void write_roundtrip_heading(Output& out, MemKind kind) {
  out.text(fmt::sprintf("\n== link small-copy round trip (%s host memory, host clock) ==\n", kind_text(kind)));
}

void write_roundtrip_row(Output& out, std::uint64_t bytes, const Summary& seconds) {
  out.text(fmt::sprintf("%10llu B: median %10.2f us, min %10.2f us over %zu round trips\n",
                        static_cast<unsigned long long>(bytes), seconds.median * 1e6, seconds.min * 1e6,
                        seconds.count));
}

void write_roundtrip_failed(Output& out, std::uint64_t bytes, int round, std::size_t word) {
  out.problem(fmt::sprintf("movebench link: validation FAILED: round trip %llu B, round %d: word %zu is wrong",
                           static_cast<unsigned long long>(bytes), round, word));
}

void write_validation_line(Output& out, bool failed) {
  out.text(fmt::sprintf("\nvalidation: %s\n", failed ? "FAILED" : "PASSED"));
}

}  // namespace movebench::link
