// link bandwidth: per size, `count` tests; a test queues `batch` transfers
// behind a gate, opens it, and takes the device-clock time from the end of
// the first (untimed, see timed_test) to the end of the last. Patterns are written before and
// every transfer's destination is checked after each test, outside the timed
// region.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "core/clock.hpp"
#include "core/interrupt.hpp"
#include "core/sizes.hpp"
#include "core/stats.hpp"
#include "link/figures.hpp"
#include "link/link_bench.hpp"
#include "link/link_output.hpp"
#include "device/pattern.hpp"

namespace movebench::link {

std::size_t slots_for(std::size_t bytes, int batch) {
  const std::size_t fit = std::max<std::size_t>(2, kSlotBytes / std::max<std::size_t>(bytes, 1));
  return std::min(static_cast<std::size_t>(std::max(batch, 1)), fit);
}

std::unique_ptr<Buffer> alloc_host(Device& device, const LinkOptions& o, MemKind kind, std::size_t bytes) {
  return o.placement ? o.placement->alloc(device, kind, bytes) : device.alloc(kind, bytes);
}

std::string misplaced(const LinkOptions& o, const Buffer& host) {
  return o.placement ? o.placement->misplaced(host) : std::string();
}

namespace {

using device::fill_pattern;
using device::first_difference;
using device::first_mismatch;

// One direction of traffic. Every transfer of a batch has its own
// destination slot, cleared before the test, so a transfer that was dropped,
// cut short or sent to another slot leaves a slot that fails its check (with
// one destination, a later transfer would cover for an earlier one), as long
// as the slots fit kSlotBytes (slots_for): beyond it transfer b lands in slot b mod the
// slots that fit (at least two), so the check proves the last transfer into
// each slot. Without the cap nvbandwidth's 17 x 512 MiB batch pinned 8.5 GiB
// of host memory per test and took 10 s a case on an H200 (docs/link.md). The
// source holds the test's pattern; a staging buffer is used only to write
// and read device memory for the checks, and host memory the CPU must not
// read (write-combined: every CPU load is uncached, so checking a batch of
// 64 MiB slots would take minutes; CUDA's guide calls such reads
// "prohibitively slow"); a write-combined source is not read either: the
// slots are checked against the pattern recomputed from its seed.
struct Lane {
  Direction dir;
  std::uint32_t seed = 0;
  std::size_t words = 0, slots = 1;
  bool cpu_reads_host = true;  // false for write-combined memory
  std::unique_ptr<Buffer> host, dev, stage;
  std::unique_ptr<Queue> queue;

  Lane(Device& d, const LinkOptions& o, Direction direction, MemKind kind, std::size_t bytes)
      : dir(direction),
        words(bytes / 4),
        slots(slots_for(bytes, o.batch)),
        cpu_reads_host(kind != MemKind::kWriteCombined),
        host(alloc_host(d, o, kind, direction == Direction::kWrite ? bytes * slots : bytes)),
        dev(d.alloc(MemKind::kDevice, direction == Direction::kRead ? bytes * slots : bytes)),
        stage(d.alloc(MemKind::kPageable, bytes)),
        queue(d.queue()) {}

  // Untimed, before a test: the source gets pattern `seed`, the `used`
  // destination slots are cleared (device memory by a kernel storing zeros:
  // x * 0 + 0, so no copy is involved); the warm-up uses one, and clearing
  // all of them cost it as much as a test on a CPU device.
  void prepare(std::uint32_t test_seed, int used, double timeout) {
    seed = test_seed;
    const std::size_t cleared = words * std::min(slots, static_cast<std::size_t>(used));
    if (dir == Direction::kRead) {
      fill_pattern(host->as<std::uint32_t>(), words, seed);  // CPU stores only, fine on write-combined memory
      queue->transform(*dev, 0, *dev, 0, cleared, 0, 0);
    } else {
      fill_pattern(stage->as<std::uint32_t>(), words, seed);
      queue->copy(*dev, 0, *stage, 0, words * 4);
      std::memset(host->host(), 0, cleared * 4);
    }
    queue->finish(timeout);
  }
  void enqueue(Path path, std::size_t transfer) {
    const std::size_t slot = transfer % slots;
    Buffer& dst = dir == Direction::kRead ? *dev : *host;
    Buffer& src = dir == Direction::kRead ? *host : *dev;
    if (path == Path::kCopy) {
      queue->copy(dst, slot * words * 4, src, 0, words * 4);
    } else {
      queue->transform(dst, slot * words, src, 0, words, 1, 0);
    }
  }
  // The words that arrived in `slot`, in memory the CPU reads at full speed:
  // host slots in place, device slots and write-combined host slots copied
  // into the cleared staging buffer (the copy engine reads write-combined
  // memory as it reads any pinned memory).
  std::uint32_t* arrived(std::size_t slot, double timeout) {
    if (dir == Direction::kWrite && cpu_reads_host) return host->as<std::uint32_t>() + slot * words;
    std::memset(stage->host(), 0, words * 4);
    queue->copy(*stage, 0, dir == Direction::kRead ? *dev : *host, slot * words * 4, words * 4);
    queue->finish(timeout);
    return stage->as<std::uint32_t>();
  }
  // What every slot must hold where it lies in memory the CPU reads at full
  // speed (the source, or the staging buffer it was written from), else
  // nullptr: then the pattern is recomputed from `seed`.
  const std::uint32_t* expected() const {
    if (!cpu_reads_host) return nullptr;
    return (dir == Direction::kRead ? host : stage)->as<std::uint32_t>();
  }
  std::optional<std::size_t> first_wrong(const std::uint32_t* got) const {
    const std::uint32_t* want = expected();
    return want ? first_difference(got, want, words) : first_mismatch(got, words, seed);
  }
};

struct TestTimes {
  std::vector<double> lane;  // seconds per transfer, per lane
  double total = 0;          // seconds per transfer set, all lanes together
};

// In a batch of two or more, the first transfer runs before the start
// marker, untimed: what the gate's opening costs (on CUDA the blocker
// kernel's exit, then the copy engine or the SMs getting going) stays out of
// the span, as nvbandwidth keeps it out with warm-up copies queued behind its
// blocker before its start event. It is still checked like the others.
TestTimes timed_test(Device& device, std::vector<Lane>& lanes, Path path, int batch, double timeout) {
  auto gate = device.gate();
  const bool gated = device.gate_works_with(lanes.front().host->kind());
  const int untimed = batch > 1 ? 1 : 0;
  const int timed = batch - untimed;
  std::vector<std::shared_ptr<Event>> start, end;
  for (auto& lane : lanes) {
    if (gated) lane.queue->hold(*gate);
    for (int b = 0; b < untimed; ++b) lane.enqueue(path, static_cast<std::size_t>(b));
    start.push_back(lane.queue->mark());
    for (int b = untimed; b < batch; ++b) lane.enqueue(path, static_cast<std::size_t>(b));
    end.push_back(lane.queue->mark());
  }
  gate->open();
  for (auto& lane : lanes) lane.queue->finish(timeout);
  TestTimes t;
  double first = 0, last = 0;  // relative to lane 0's start
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    t.lane.push_back(device.elapsed(*start[i], *end[i]) / timed);
    first = std::min(first, device.elapsed(*start[0], *start[i]));
    last = std::max(last, device.elapsed(*start[0], *end[i]));
  }
  t.total = (last - first) / timed;
  return t;
}

// After a test, untimed: every slot of every lane against the pattern. The
// first that differs, as "the write transfer 3 of 8: word 17 is wrong".
std::optional<std::string> first_bad_slot(std::vector<Lane>& lanes, int batch, double timeout, bool& corrupt) {
  for (auto& lane : lanes) {
    const int used = static_cast<int>(std::min(lane.slots, static_cast<std::size_t>(batch)));
    for (int b = 0; b < used; ++b) {
      std::uint32_t* got = lane.arrived(static_cast<std::size_t>(b), timeout);
      if (corrupt && b == used / 2) {  // tests only (--corrupt-for-test): the check must catch this
        got[lane.words / 2] ^= 1u;
        corrupt = false;
      }
      if (auto bad = lane.first_wrong(got)) {
        return fmt::format("the {} transfer {} of {}: word {} is wrong", direction_name(lane.dir), b + 1, used, *bad);
      }
    }
  }
  return std::nullopt;
}

// After the first test (every slot written), untimed: why a lane's host pages are not where
// o.placement put them (a page elsewhere makes the figure another path's).
std::optional<std::string> first_misplaced(const std::vector<Lane>& lanes, const LinkOptions& o) {
  for (const auto& lane : lanes) {
    if (auto why = misplaced(o, *lane.host); !why.empty()) {
      return fmt::format("the {} host buffer: {}", direction_name(lane.dir), why);
    }
  }
  return std::nullopt;
}

// 1 when the two directions ran fully at the same time, 0 when one waited
// for the other: (read + write - span) / the shorter of the two.
double overlap(const TestTimes& t) {
  const double shorter = std::min(t.lane[0], t.lane[1]);
  if (shorter <= 0) return 0;
  return std::clamp((t.lane[0] + t.lane[1] - t.total) / shorter, 0.0, 1.0);
}

void add_record(Report& report, const Series& s, std::uint64_t bytes, const nlohmann::json& params) {
  const RateStats r = rate_stats(s.bytes_per_test, s.seconds);
  Record rec;
  rec.benchmark = "link";
  rec.operation = s.operation;
  rec.bytes = bytes;
  rec.params = params;
  rec.params["variance"] = r.variance;
  if (!s.overlap.empty()) rec.params["overlap"] = summarize(s.overlap).median;
  rec.samples = s.seconds;
  // hdl_single_engine's average is all bytes over all time (the mean of
  // the times); its min and max, and the median, are of the per-test rates.
  const Accounting counted = application_bytes(s.directions);
  rec.figures = {Figure::bandwidth("bandwidth", r.average * 1e6, Stat::kMean, Of::kTime, counted),
                 Figure::bandwidth("bandwidth_median", r.median * 1e6, Stat::kMedian, Of::kRate, counted),
                 Figure::bandwidth("bandwidth_min", r.min * 1e6, Stat::kMin, Of::kRate, counted),
                 Figure::bandwidth("bandwidth_max", r.max * 1e6, Stat::kMax, Of::kRate, counted)};
  report.add(std::move(rec));
}

// One size of one combination: allocate, warm up, `count` tests, check
// each, record. Returns the series measured (one per lane, plus the total
// for duplex).
std::vector<Series> measure_size(Device& device, const Combo& c, std::uint64_t bytes, const LinkOptions& o,
                                 Report& report, Output& out, bool& corrupt) {
  std::vector<Lane> lanes;
  if (c.dir != Direction::kWrite) lanes.emplace_back(device, o, Direction::kRead, c.kind, bytes);
  if (c.dir != Direction::kRead) lanes.emplace_back(device, o, Direction::kWrite, c.kind, bytes);
  const std::string base(bandwidth_case(c.dir, c.path).name);
  std::vector<Series> series;
  for (auto& lane : lanes) {
    const std::string name = c.dir == Direction::kDuplex ? base + "." + direction_name(lane.dir) : base;
    series.push_back({name, static_cast<double>(bytes), {}, {}});
  }
  if (c.dir == Direction::kDuplex) series.push_back({base + ".total", 2.0 * bytes, {}, {}, 2});
  if (o.ready) o.ready();

  // Test -1 is the warm-up (first use of buffers and kernels): one transfer,
  // checked like the rest but not recorded. Test 0's wall time (preparing
  // and checking included: on a CPU device they cost more than the
  // transfers) says how many tests fit the time budget.
  int tests = o.repetitions;
  for (int test = -1; test < tests && !interrupted(); ++test) {
    const double started = now_seconds();
    const int batch = test < 0 ? 1 : o.batch;
    for (auto& lane : lanes) lane.prepare(static_cast<std::uint32_t>(test + 2), batch, o.common.timeout_s);
    const TestTimes t = timed_test(device, lanes, c.path, batch, o.common.timeout_s);
    auto bad = first_bad_slot(lanes, batch, o.common.timeout_s, corrupt);
    if (!bad && test == 0) bad = first_misplaced(lanes, o);  // every slot has been written by now
    if (bad) {
      report.validation(false,
                        fmt::format("link {} {} B ({}): {}", series.front().operation, bytes, kind_name(c.kind), *bad));
      write_bandwidth_failed(out, series.front(), bytes, c.kind, *bad);
      return series;
    }
    if (test < 0) continue;
    for (std::size_t i = 0; i < lanes.size(); ++i) series[i].seconds.push_back(t.lane[i]);
    if (c.dir == Direction::kDuplex) {
      series.back().seconds.push_back(t.total);
      series.back().overlap.push_back(overlap(t));
    }
    if (test == 0) {
      tests = static_cast<int>(calls_to_fill(o.time_budget, now_seconds() - started, 1, 1,
                                             static_cast<std::uint64_t>(o.repetitions), Fill::kWithin));
    }
  }
  report.validation(true, "link " + base);
  return series;
}

void run_combo(Device& device, const Combo& c, const LinkOptions& o, Report& report, Output& out, bool& corrupt) {
  write_combo_heading(out, c, o);
  std::vector<Series> last;
  for (auto bytes : o.sizes) {
    if (interrupted()) break;
    report.progress().step(fmt::format("{} {} {} {}", path_name(c.path), direction_name(c.dir), kind_name(c.kind),
                                       format_bytes(static_cast<double>(bytes))));
    auto series = measure_size(device, c, bytes, o, report, out, corrupt);
    const nlohmann::json params = {{"backend", device.backend()},
                                   {"host_memory", kind_name(c.kind)},
                                   {"path", path_name(c.path)},
                                   {"batch", o.batch}};
    for (const auto& s : series) {
      if (s.seconds.empty()) continue;
      add_record(report, s, bytes, params);
      write_size_row(out, bytes, s);
    }
    last = std::move(series);
  }
  write_engine_lines(out, c, last);
  for (const auto& s : last) {
    if (s.seconds.empty()) continue;
    const RateStats r = rate_stats(s.bytes_per_test, s.seconds);
    report.set_result(Figure::bandwidth(fmt::format("link.{}.{}", s.operation, kind_name(c.kind)), r.average * 1e6,
                                        Stat::kMean, Of::kTime, application_bytes(s.directions)));
  }
}

}  // namespace

void run_link_bandwidth(Device& device, const LinkOptions& o, Report& report, Output& out) {
  bool corrupt = o.common.corrupt_for_test;
  const auto kinds = o.kinds.empty() ? device.host_kinds() : o.kinds;
  std::size_t combos = 0;
  for (auto kind : kinds) {
    for (auto path : o.paths) combos += path != Path::kKernel || device.kernel_reaches(kind) ? 1 : 0;
  }
  report.progress().begin("link", combos * o.directions.size() * o.sizes.size());
  for (auto kind : kinds) {
    for (auto path : o.paths) {
      if (path == Path::kKernel && !device.kernel_reaches(kind)) {
        // "not given", not "cannot reach": OpenCL pinned is the mapped
        // allocation, kept to the copy engine so its figures stay the copy's.
        write_kernel_skipped(out, kind, device.backend());
        continue;
      }
      for (auto dir : o.directions) run_combo(device, {dir, path, kind}, o, report, out, corrupt);
    }
  }
}

void run_link(Device& device, const LinkOptions& o, Report& report, Output& out) {
  if (o.bandwidth) run_link_bandwidth(device, o, report, out);
  if (o.latency && !interrupted()) run_link_latency(device, o, report, out);
}

}  // namespace movebench::link
