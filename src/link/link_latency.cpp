// link latency: a pointer chase from the device through host memory (from
// the unit the device picks, then from each of its units in turn), the
// device's writes into host memory, and the small-copy round trip seen by
// the host.
//
// Device-side probes are timed as T(n) - T(0): a probe of n words minus an
// empty probe on the same clock, so launch and clock-reading costs cancel
// whatever clock the backend has (the GPU's own on CUDA). First-word
// latency is n = 1; the chase's per-word figure is (T(steps) - T(0)) / steps;
// the write burst is T(write_bytes / 4) - T(0), as hdl_single_engine's 4 KiB
// written.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <optional>
#include <random>

#include "core/clock.hpp"
#include "core/distribution.hpp"
#include "core/interrupt.hpp"
#include "core/stats.hpp"
#include "device/pattern.hpp"
#include "device/unit_chase.hpp"
#include "link/figures.hpp"
#include "link/link_bench.hpp"
#include "link/link_output.hpp"

namespace movebench::link {
namespace {

using device::fill_pattern;
using device::first_difference;

constexpr std::size_t kLineWords = 16;  // one 64-byte line per node

// One random cycle through every 64-byte line of a ring of `bytes`, starting
// at word 0: word 16*k holds the word index of the next node. Drawn once;
// write() puts it into the ring, which the host does before every chase
// (cheaply: a chase per SM is thousands of chases).
class RingCycle {
 public:
  explicit RingCycle(std::size_t bytes) : next_(bytes / (kLineWords * 4)) {
    const std::size_t nodes = next_.size();
    std::vector<std::uint32_t> order(nodes);
    std::iota(order.begin(), order.end(), 0u);
    std::mt19937 rng(42);
    std::shuffle(order.begin() + 1, order.end(), rng);
    for (std::size_t i = 0; i < nodes; ++i) {
      next_[order[i]] = static_cast<std::uint32_t>(order[(i + 1) % nodes] * kLineWords);
    }
  }
  void write(Buffer& ring) const {
    auto* words = ring.as<std::uint32_t>();
    for (std::size_t k = 0; k < next_.size(); ++k) words[k * kLineWords] = next_[k];
  }

 private:
  std::vector<std::uint32_t> next_;  // by node: the word index of the next node
};

MemKind chase_kind(Device& device, const LinkOptions& o) {
  const auto kinds = o.kinds.empty() ? device.host_kinds() : o.kinds;
  for (auto k : kinds) {
    if (device.kernel_reaches(k)) return k;
  }
  return MemKind::kDevice;
}

// Where a chase of `steps` loads from word 0 must end.
std::uint32_t chase_end(const std::uint32_t* ring, std::size_t steps) {
  std::uint32_t at = 0;
  for (std::size_t i = 0; i < steps; ++i) at = ring[at];
  return at;
}

// One chase of `steps` loads from word 0 through `ring`, where the caller
// puts it (the device's own choice, or one unit); std::nullopt when nothing
// ran.
using ChaseRun = std::function<std::optional<Timed>(Buffer& ring, std::size_t steps)>;

ChaseRun anywhere(Device& device) {
  return [&device](Buffer& ring, std::size_t steps) { return device.probe(Probe::kChase, ring, steps, 0); };
}

// `count` chases of `steps` loads; the ring is rewritten by the host before
// each (untimed), so each chase reads lines the host has just written. Each
// chase must end where the host's own walk ends.
std::vector<double> chases(const ChaseRun& run, Buffer& ring, const RingCycle& cycle, std::size_t steps, int count,
                           bool& ok) {
  std::vector<double> out;
  const std::uint32_t expected = chase_end(ring.as<std::uint32_t>(), steps);
  for (int i = 0; i < count && !interrupted(); ++i) {
    cycle.write(ring);
    const std::optional<Timed> t = run(ring, steps);
    if (!t) continue;
    ok = ok && t->end == expected;
    out.push_back(t->seconds);
  }
  return out;
}

// Raw times are the samples; figures are (statistic - base) / per, in ns.
// A difference at or below zero is under the clock's resolution: the record
// keeps its samples but claims no figure (params.resolved = false). The
// probes' distribution (`event`: what one probe is) gives the percentiles
// the same way (core/distribution); returned as the text's percentile line
// in `per_second` units (1e9: ns).
std::string add_latency(Report& report, const std::string& op, std::uint64_t bytes, nlohmann::json params,
                        std::vector<double> samples, double base, double per, const std::string& event,
                        double per_second = 1e9) {
  const Summary s = summarize(samples);
  const std::function<double(double)> net = [&](double t) { return (t - base) / per; };
  Distribution probes(event);
  probes.add(samples);
  Record rec;
  rec.benchmark = "link";
  rec.operation = op;
  rec.bytes = bytes;
  rec.params = std::move(params);
  rec.params["resolved"] = net(s.median) > 0;
  rec.samples = std::move(samples);
  if (net(s.median) > 0) rec.figures.push_back(Figure::latency("latency", net(s.median), Stat::kMedian));
  if (net(s.min) > 0) rec.figures.push_back(Figure::latency("latency_min", net(s.min), Stat::kMin));
  for (auto& f : probes.figures("latency", net)) rec.figures.push_back(std::move(f));
  report.add(std::move(rec), probes);
  return percentile_text(probes, per_second, net);
}

// After a probe's warm-up has written the buffer's pages: true, and the run
// failed, when some lie elsewhere than o.placement put them.
bool placed_elsewhere(Report& report, const LinkOptions& o, const Buffer& host, const char* probe) {
  const std::string why = misplaced(o, host);
  if (!why.empty()) report.validation(false, fmt::format("link latency {}: the host buffer: {}", probe, why));
  return !why.empty();
}

void run_chase(Device& device, const LinkOptions& o, Report& report, Output& out) {
  const MemKind kind = chase_kind(device, o);
  if (kind == MemKind::kDevice) {
    write_chase_skipped(out, device.backend());
    return;
  }
  auto ring = alloc_host(device, o, kind, o.ring_bytes);
  const RingCycle cycle(ring->bytes());
  cycle.write(*ring);
  const std::string clock = device.probe(Probe::kChase, *ring, 1, 0).clock;  // warm-up, and which clock
  if (placed_elsewhere(report, o, *ring, "chase")) return;
  bool ok = true;
  const ChaseRun run = anywhere(device);
  const auto empties = chases(run, *ring, cycle, 0, o.repetitions, ok);
  auto one = chases(run, *ring, cycle, 1, o.repetitions, ok);
  auto many = chases(run, *ring, cycle, o.steps, o.repetitions, ok);
  if (empties.empty() || one.empty() || many.empty()) return;
  const double empty = summarize(empties).median;
  report.validation(ok, ok ? "link latency chase ended on the right word"
                           : "link latency chase ended on a wrong word: the device did not read what the host wrote");
  const nlohmann::json params = {
      {"backend", device.backend()}, {"host_memory", kind_name(kind)}, {"clock", clock}, {"steps", o.steps},
      {"empty_chase_s", empty},      {"stride_bytes", kLineWords * 4}};
  const std::size_t samples = one.size();
  const double first = std::max(0.0, summarize(one).median - empty) * 1e9;
  const double per = std::max(0.0, summarize(many).median - empty) / static_cast<double>(o.steps) * 1e9;
  const LinkCase& first_word = link_case("latency.first_word", Routine::kChase);
  const LinkCase& chase = link_case("latency.chase", Routine::kChase);
  const auto first_tails = add_latency(report, std::string(first_word.name), 4, params, std::move(one), empty, 1,
                                       "chase probe of 1 word; figures less the empty probe's median");
  const auto chase_tails = add_latency(
      report, std::string(chase.name), o.ring_bytes, params, std::move(many), empty, static_cast<double>(o.steps),
      fmt::format("chase probe of {} words; figures less the empty probe's median, per word", o.steps));
  write_chase(out, {kind, clock, samples, first, per, o.steps});
  write_percentiles(out, {{"first word", first_tails}, {"per word", chase_tails}}, "ns", probe_clock_note(clock));
  // A chase no longer than an empty one is below the clock's resolution, not
  // 0 ns: it gets no figure (a zero would read as an infinitely fast link).
  if (first > 0) report.set_result(Figure::latency(list_name(first_word), first * 1e-9, Stat::kMedian));
  if (per > 0) report.set_result(Figure::latency(list_name(chase), per * 1e-9, Stat::kMedian));
}

// One unit's chases: T(0) and T(steps), `-c` of each; none where no launch
// reached the unit.
struct UnitChases {
  std::uint32_t unit = 0;
  std::vector<double> empties, many;
};

std::vector<UnitChases> chase_each_unit(device::UnitChase& units, const std::vector<std::uint32_t>& ids, Buffer& ring,
                                        const RingCycle& cycle, const LinkOptions& o, bool& ok) {
  std::vector<UnitChases> out;
  for (const std::uint32_t id : ids) {
    if (interrupted()) break;
    const ChaseRun on = [&units, id](Buffer& r, std::size_t n) { return units.chase_on(id, r, n); };
    UnitChases u{id, {}, {}};
    u.empties = chases(on, ring, cycle, 0, o.repetitions, ok);
    u.many = chases(on, ring, cycle, o.steps, o.repetitions, ok);
    out.push_back(std::move(u));
  }
  return out;
}

// Each unit's latency per load, (median T(steps) - median T(0)) / steps as
// latency.chase's, into r (the spread, the units not reached) and its entry
// of params.units (the figure and the raw T(0) and T(steps), in seconds).
nlohmann::json unit_entries(const std::vector<UnitChases>& measured, std::uint64_t steps, UnitChaseResult& r) {
  nlohmann::json entries = nlohmann::json::array();
  std::vector<UnitLatency> latencies;
  for (const auto& u : measured) {
    if (u.empties.empty() || u.many.empty()) {
      r.unreached.push_back(u.unit);
      continue;
    }
    const double empty = summarize(u.empties).median;
    const double ns = (summarize(u.many).median - empty) / static_cast<double>(steps) * 1e9;
    latencies.push_back({u.unit, ns});
    entries.push_back({{"unit", u.unit},
                       {"resolved", ns > 0},
                       {"latency_ns", ns > 0 ? nlohmann::json(ns) : nlohmann::json(nullptr)},
                       {"empty_chase_s", empty},
                       {"chase_samples_s", u.many},
                       {"empty_samples_s", u.empties}});
  }
  r.units = latencies.size();
  r.spread = unit_spread(latencies);
  return entries;
}

// The record: samples are the resolved units' latencies per load (seconds,
// in the units' order), its figures their median, least, greatest and mean;
// the headline result is the median.
void add_unit_record(Report& report, const LinkOptions& o, nlohmann::json params, const UnitChaseResult& r) {
  const LinkCase& row = link_case("latency.chase_per_unit", Routine::kUnitChase);
  Record rec;
  rec.benchmark = "link";
  rec.operation = std::string(row.name);
  rec.bytes = o.ring_bytes;
  for (const auto& u : params["units"]) {
    if (u["resolved"].get<bool>()) rec.samples.push_back(u["latency_ns"].get<double>() * 1e-9);
  }
  params["unreached"] = r.unreached;
  params["resolved"] = r.spread.count > 0;
  if (r.spread.count > 0) {
    params["fastest_unit"] = r.spread.fastest.unit;
    params["slowest_unit"] = r.spread.slowest.unit;
    rec.figures = {Figure::latency("latency", r.spread.median * 1e-9, Stat::kMedian),
                   Figure::latency("latency_min", r.spread.fastest.ns * 1e-9, Stat::kMin),
                   Figure::latency("latency_max", r.spread.slowest.ns * 1e-9, Stat::kMax),
                   Figure::latency("latency_mean", r.spread.mean * 1e-9, Stat::kMean)};
    report.set_result(Figure::latency(list_name(row), r.spread.median * 1e-9, Stat::kMedian));
  }
  rec.params = std::move(params);
  report.add(std::move(rec));
}

// The chase from every unit of the device in turn, as nvbandwidth's
// host_device_latency_sm chases from each SM: the same ring, clock and
// T(n) - T(0) as latency.chase, on backends that can place a chase
// (device/unit_chase.hpp).
void run_unit_chase(Device& device, const LinkOptions& o, Report& report, Output& out) {
  auto* units = device::capability<device::UnitChase>(device);
  const MemKind kind = chase_kind(device, o);
  if (!units || kind == MemKind::kDevice) {
    write_unit_chase_skipped(
        out, units ? fmt::format("{} kernels reach none of the host memory kinds asked for", device.backend())
                   : fmt::format("the {} backend has no units to place it on", device.backend()));
    return;
  }
  auto ring = alloc_host(device, o, kind, o.ring_bytes);
  const RingCycle cycle(ring->bytes());
  cycle.write(*ring);
  const auto ids = units->chase_units();
  const auto warm = ids.empty() ? std::nullopt : units->chase_on(ids.front(), *ring, 1);  // warm-up, and which clock
  if (!warm) {
    report.validation(false, "link latency chase per unit: no unit of the device took the chase");
    return;
  }
  if (placed_elsewhere(report, o, *ring, "chase per unit")) return;
  bool ok = true;
  const auto measured = chase_each_unit(*units, ids, *ring, cycle, o, ok);
  report.validation(ok, ok ? "link latency chase per unit ended on the right word from every unit"
                           : "link latency chase per unit ended on a wrong word: the device did not read what the host "
                             "wrote");
  const device::UnitPlacement placement = units->unit_placement();
  UnitChaseResult r{kind, warm->clock, placement.unit, o.steps, 0, {}, {}};
  nlohmann::json params = {{"backend", device.backend()},    {"host_memory", kind_name(kind)},
                           {"clock", warm->clock},           {"steps", o.steps},
                           {"stride_bytes", kLineWords * 4}, {"unit", placement.unit},
                           {"placement", placement.how},     {"units_reported", placement.reported},
                           {"units_found", ids.size()}};
  params["units"] = unit_entries(measured, o.steps, r);
  add_unit_record(report, o, std::move(params), r);
  write_unit_chase(out, r);
}

// `count` write probes of n words: the host clears the words before each
// (untimed) and checks after it that every one arrived.
std::vector<double> writes(Device& device, Buffer& buf, std::size_t n, int count, bool& corrupt, bool& ok) {
  std::vector<double> out;
  auto* words = buf.as<std::uint32_t>();
  for (int i = 0; i < count && !interrupted(); ++i) {
    std::memset(words, 0, n * 4);
    const auto value = static_cast<std::uint32_t>(0x5eed0001u + 7919u * static_cast<std::uint32_t>(i));
    out.push_back(device.probe(Probe::kWrite, buf, n, value).seconds);
    if (corrupt && n > 0) words[n - 1] ^= 1u;  // tests only: the check must catch this
    corrupt = corrupt && n == 0;
    for (std::size_t w = 0; w < n && ok; ++w) ok = words[w] == value + static_cast<std::uint32_t>(w);
  }
  return out;
}

// hdl_single_engine's write latency: the first word and a burst of
// --write-bytes written by the device into host memory, each until performed.
void run_write(Device& device, const LinkOptions& o, Report& report, Output& out) {
  const MemKind kind = chase_kind(device, o);
  if (kind == MemKind::kDevice) return;  // run_chase said why
  const std::size_t n = o.write_bytes / 4;
  auto buf = alloc_host(device, o, kind, o.write_bytes);
  const std::string clock = device.probe(Probe::kWrite, *buf, 1, 1).clock;  // warm-up, and which clock
  if (placed_elsewhere(report, o, *buf, "write")) return;
  bool corrupt = o.common.corrupt_for_test, ok = true;
  const auto empties = writes(device, *buf, 0, o.repetitions, corrupt, ok);
  auto one = writes(device, *buf, 1, o.repetitions, corrupt, ok);
  auto burst = writes(device, *buf, n, o.repetitions, corrupt, ok);
  if (empties.empty() || one.empty() || burst.empty()) return;
  report.validation(ok, ok ? "link latency: every word the device wrote arrived"
                           : "link latency: a word the device wrote into host memory is wrong");
  if (!ok) write_write_failed(out);
  const double empty = summarize(empties).median;
  const nlohmann::json params = {
      {"backend", device.backend()}, {"host_memory", kind_name(kind)}, {"clock", clock}, {"empty_probe_s", empty}};
  const std::size_t samples = one.size();
  const double first = (summarize(one).median - empty) * 1e9, all = (summarize(burst).median - empty) * 1e9;
  const LinkCase& first_word = link_case("latency.write_first_word", Routine::kWrite);
  const LinkCase& write_burst = link_case("latency.write_burst", Routine::kWrite);
  const auto first_tails = add_latency(report, std::string(first_word.name), 4, params, std::move(one), empty, 1,
                                       "write probe of 1 word; figures less the empty probe's median");
  const auto burst_tails =
      add_latency(report, std::string(write_burst.name), o.write_bytes, params, std::move(burst), empty, 1,
                  fmt::format("write probe of {} B; figures less the empty probe's median", o.write_bytes));
  write_write_latency(out, {kind, clock, samples, first, all, o.write_bytes});
  write_percentiles(out, {{"first word", first_tails}, {fmt::format("{} B", o.write_bytes), burst_tails}}, "ns",
                    probe_clock_note(clock));
  if (first > 0) report.set_result(Figure::latency(list_name(first_word), first * 1e-9, Stat::kMedian));
  if (all > 0) report.set_result(Figure::latency(list_name(write_burst), all * 1e-9, Stat::kMedian));
}

// Host-timed: a copy to the device and back, waited for, per size. Every
// round (the priming one too) carries its own pattern into a cleared return
// buffer and is checked, untimed, so a dropped or damaged copy in any round
// fails: the device buffer still holds the last round's pattern.
void run_roundtrip(Device& device, const LinkOptions& o, Report& report, Output& out) {
  const auto kinds = o.kinds.empty() ? device.host_kinds() : o.kinds;
  // Pinned where it is among the kinds asked for (the copy engine's own
  // path), else the first of them.
  const bool pinned = std::find(kinds.begin(), kinds.end(), MemKind::kPinned) != kinds.end();
  const MemKind kind = pinned ? MemKind::kPinned : kinds.front();
  write_roundtrip_heading(out, kind);
  auto queue = device.queue();
  for (auto bytes : o.roundtrip_sizes) {
    auto src = alloc_host(device, o, kind, bytes), back = alloc_host(device, o, kind, bytes);
    auto dev = device.alloc(MemKind::kDevice, bytes);
    const std::size_t words = bytes / 4;
    std::vector<double> samples;
    std::optional<std::size_t> bad;
    int round = -1;  // -1 is the priming round
    for (; round < o.roundtrip_repetitions && !interrupted(); ++round) {
      fill_pattern(src->as<std::uint32_t>(), words, static_cast<std::uint32_t>(round + 8));
      std::memset(back->host(), 0, bytes);
      const double t0 = now_seconds();
      queue->copy(*dev, 0, *src, 0, bytes);
      queue->copy(*back, 0, *dev, 0, bytes);
      queue->finish(o.common.timeout_s);
      const double t1 = now_seconds();
      if ((bad = first_difference(back->as<std::uint32_t>(), src->as<std::uint32_t>(), words))) break;
      if (round >= 0) samples.push_back(t1 - t0);
    }
    if (bad) {
      report.validation(
          false, fmt::format("link roundtrip {} B: round {} came back with word {} wrong", bytes, round + 1, *bad));
      write_roundtrip_failed(out, bytes, round + 1, *bad);
      return;
    }
    if (samples.empty() || placed_elsewhere(report, o, *src, "roundtrip") ||
        placed_elsewhere(report, o, *back, "roundtrip"))
      return;
    report.validation(true, fmt::format("link roundtrip {} B: every round came back intact", bytes));
    const LinkCase& row = link_case("roundtrip", Routine::kRoundtrip);
    const auto tails = add_latency(report, std::string(row.name), bytes,
                                   {{"backend", device.backend()}, {"host_memory", kind_name(kind)}}, samples, 0, 1,
                                   "round trip (a copy to the device and back, waited for)", 1e6);
    const Summary s = summarize(samples);
    write_roundtrip_row(out, bytes, s);
    write_percentiles(out, {{fmt::format("{} B", bytes), tails}}, "us", host_clock_note(1e6, "us"));
    report.set_result(Figure::latency(fmt::format("{}.{}", list_name(row), bytes), s.median, Stat::kMedian));
  }
}

}  // namespace

void run_link_latency(Device& device, const LinkOptions& o, Report& report, Output& out) {
  report.progress().begin("link latency", o.chase_per_unit ? 4 : 3);
  report.progress().step("read (chase)");
  run_chase(device, o, report, out);
  if (o.chase_per_unit && !interrupted()) {
    report.progress().step("read (chase from each unit)");
    run_unit_chase(device, o, report, out);
  }
  report.progress().step("write");
  if (!interrupted()) run_write(device, o, report, out);
  report.progress().step("round trip");
  if (!interrupted()) run_roundtrip(device, o, report, out);
}

}  // namespace movebench::link
