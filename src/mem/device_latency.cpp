// mem latency --backend opencl|cuda: a pointer chase in a device's own memory
// over a sweep of working sets, one work-item chasing (gpu-benches'
// gpu-latency), on the host's chase pattern (ChaseRing::visit_order: one
// random cycle through the nodes, the TLB window as on the host) with 32-bit
// word indices. Timed on the device's clock as link's probes are: each
// sample is a probe of `steps` dependent loads less the median of empty
// probes (launch and clock reading cancel), over `steps`.
#include "mem/device_latency.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/clock.hpp"
#include "core/distribution.hpp"
#include "core/interrupt.hpp"
#include "core/sizes.hpp"
#include "core/stats.hpp"
#include "mem/latency.hpp"
#include "mem/mem_output.hpp"

namespace movebench::mem {
namespace {

using device::Buffer;
using device::MemKind;

constexpr double kRingCopyTimeoutSeconds = 600;               // any wait on the device: never hang
constexpr std::uint64_t kMostSteps = std::uint64_t{1} << 24;  // loads per probe, whatever the clock says

// The ring in device words: node i begins at word i * words_per_node and
// holds the word of the node after it in ChaseRing's visit order.
void build_device_ring(std::uint32_t* words, std::size_t nodes, std::size_t words_per_node, std::size_t per_window,
                       std::uint64_t seed) {
  const std::vector<std::size_t> order = ChaseRing::visit_order(nodes, per_window, seed);
  for (std::size_t i = 0; i < nodes; ++i) {
    const std::size_t next = order[i + 1 < nodes ? i + 1 : 0];
    words[order[i] * words_per_node] = static_cast<std::uint32_t>(next * words_per_node);
  }
}

// Where `steps` links from word `at` end.
std::uint32_t walk_ring(const std::uint32_t* words, std::uint32_t at, std::size_t steps) {
  for (std::size_t i = 0; i < steps; ++i) at = words[at];
  return at;
}

// True when following the ring from word 0 visits every node once.
bool is_single_device_cycle(const std::uint32_t* words, std::size_t nodes) {
  std::uint32_t at = 0;
  std::size_t steps = 0;
  do {
    at = words[at];
    ++steps;
  } while (at != 0 && steps <= nodes);
  return steps == nodes;
}

struct DeviceChase {
  std::vector<double> per_load;  // seconds per load, one per sample
  std::size_t steps = 0;         // loads per sample
  double empty_s = 0;            // the empty probe's median, taken off every sample
  std::string clock;
  bool ended_right = true;  // every probe ended where the host's walk of the same ring does
};

// An untimed lap (up to one sample) from word 0, then `samples` probes, each
// going on from where the one before stopped, as the host's chase does.
DeviceChase time_device_chase(device::Device& dev, Buffer& ring, const std::uint32_t* host_ring, std::size_t nodes,
                              int samples, double target) {
  const auto probe = [&](std::size_t n, std::uint32_t from) {
    return dev.probe(device::Probe::kCachedChase, ring, n, from);
  };
  DeviceChase c;
  c.clock = probe(1, 0).clock;
  std::vector<double> empties;
  for (int i = 0; i < samples && !interrupted(); ++i) empties.push_back(probe(0, 0).seconds);
  if (empties.empty()) return c;
  c.empty_s = summarize(empties).median;
  const auto timed = [&](std::uint64_t n) { return probe(n, 0).seconds - c.empty_s; };
  c.steps = calls_for_budget(timed, target, Probe{.first = 256, .growth = 4, .share = 0.1, .most = kMostSteps}, 16,
                             kMostSteps, Fill::kWithin);
  std::uint32_t at = probe(std::min(nodes, c.steps), 0).end;
  for (int i = 0; i < samples && !interrupted(); ++i) {
    const std::uint32_t expected = walk_ring(host_ring, at, c.steps);
    const device::Timed t = probe(c.steps, at);
    c.ended_right = c.ended_right && t.end == expected;
    c.per_load.push_back(std::max(0.0, t.seconds - c.empty_s) / static_cast<double>(c.steps));
    at = t.end;
  }
  return c;
}

// One working set's record, its distribution and its row.
void add_device_point(const MemOptions& opt, device::Device& dev, std::uint64_t bytes, const DeviceChase& c, bool cycle,
                      Report& report, Output& out, SampleCounts& counts) {
  const Summary st = summarize(c.per_load);
  Distribution blocks(fmt::format("probe of {} loads less the empty probe's median (its time per load)", c.steps));
  blocks.add(c.per_load);
  Record r;
  r.benchmark = "mem";
  r.operation = "latency";
  r.bytes = bytes;
  r.params = {
      {"mode", "latency"},         {"backend", dev.backend()}, {"device", dev.name()},         {"clock", c.clock},
      {"stride", opt.stride},      {"seed", opt.seed},         {"tlb_window", opt.tlb_window}, {"steps", c.steps},
      {"empty_probe_s", c.empty_s}};
  r.samples = c.per_load;
  r.figures = {Figure::latency("latency", st.min, Stat::kMin),
               Figure::latency("latency_median", st.median, Stat::kMedian)};
  for (auto& f : blocks.figures("latency")) r.figures.push_back(std::move(f));
  write_latency_row(out, bytes, st, cycle && c.ended_right, opt.percentiles ? &blocks : nullptr);
  counts.add(blocks);
  report.set_result(r.figures.front().named(fmt::format("mem.latency.{}.{}", bytes, dev.backend())));
  report.add(std::move(r), blocks);
}

}  // namespace

void run_device_latency(const MemOptions& opt, device::Device& dev, Report& report, Output& out) {
  write_latency_heading(out, opt.stride, opt.tlb_window,
                        fmt::format("1 work-item of {} [{} backend], in its own memory", dev.name(), dev.backend()),
                        opt.percentiles);
  const std::uint64_t largest = *std::max_element(opt.latency_sizes.begin(), opt.latency_sizes.end());
  auto host = dev.alloc(MemKind::kPageable, largest);
  auto ring = dev.alloc(MemKind::kDevice, largest);
  auto queue = dev.queue();
  bool all_right = true;
  report.progress().begin("mem latency", opt.latency_sizes.size());
  SampleCounts counts;
  for (std::uint64_t bytes : opt.latency_sizes) {
    if (interrupted()) break;
    report.progress().step(format_bytes(static_cast<double>(bytes)));
    const std::size_t nodes = bytes / opt.stride;
    const std::size_t per_window = opt.tlb_window == 0 ? nodes : std::max<std::size_t>(1, opt.tlb_window / opt.stride);
    auto* words = host->as<std::uint32_t>();
    build_device_ring(words, nodes, opt.stride / 4, per_window, opt.seed);
    const bool cycle = is_single_device_cycle(words, nodes);
    queue->copy(*ring, 0, *host, 0, nodes * opt.stride);
    queue->finish(kRingCopyTimeoutSeconds);
    const DeviceChase c = time_device_chase(dev, *ring, words, nodes, opt.samples, opt.point_time / opt.samples);
    if (c.per_load.empty()) break;  // interrupted before a sample
    all_right = all_right && cycle && c.ended_right;
    add_device_point(opt, dev, bytes, c, cycle, report, out, counts);
  }
  if (opt.percentiles) write_latency_note(out, "probe", counts);
  write_validation(out, all_right, "a chase ring is broken, or a chase ended on a wrong word");
  report.validation(all_right, "mem latency: a device chase ended on a word the host's walk does not");
}

}  // namespace movebench::mem
