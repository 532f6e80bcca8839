#include "fleet/fleet_pairs.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>

#include "core/affinity.hpp"
#include "core/buffer.hpp"
#include "fleet/fleet_publish.hpp"
#include "judge/siblings.hpp"
#include "p2p/p2p.hpp"
#include "p2p/p2p_logic.hpp"

namespace movebench::fleet {
namespace {

constexpr int kPairRepeats = 3;
constexpr int kAgain = 3;  // the most times a suspect pair is measured again

struct Timed {
  double latency = 0, bw = 0;      // seconds on the pair's first rank, 0 elsewhere
  std::vector<double> iterations;  // --percentiles: every repeat's ping-pongs, one way, on the first rank
};

// Two ranks of one host, unbound, may land on one CPU and then measure the
// scheduler, not the link: the first takes its first allowed CPU, the
// second its last (each its own CPU where the launcher bound them).
void apart_on_one_host(bool first) {
  const auto cpus = allowed_cpus();
  if (cpus.size() >= 2) pin_current_thread(first ? cpus.front() : cpus.back());
}

// What every step of the pairs needs.
struct PairRun {
  const FleetOptions& opt;
  const Layout& layout;
  const PairBuffers* buffers;  // this rank's; null where it measures no unit
  Steps& steps;
  net::Watchdog& dog;
  double step_timeout;
};

// This rank's part of one round: the pair its unit is in, if any. A failed
// check is this unit's failure in `step`.
Timed run_my_pair(const PairRun& run, const Round& round, net::P2pTest bw_test, const std::string& step) {
  const auto& [opt, layout, buffers, steps, dog, step_timeout] = run;
  const int me = net::world_rank();
  Timed t;
  for (const auto& p : round) {
    const net::P2pPair ranks{layout.leader[static_cast<std::size_t>(p.a)],
                             layout.leader[static_cast<std::size_t>(p.b)]};
    if (me != ranks.a && me != ranks.b) continue;
    std::byte* s = buffers->send();
    std::byte* r = buffers->recv();
    const ScopedAffinity restore;
    if (layout.host[static_cast<std::size_t>(p.a)] == layout.host[static_cast<std::size_t>(p.b)]) {
      apart_on_one_host(me == ranks.a);
    }
    // The fastest of a few repeats: a slow link is slow in every one, a
    // passing burst of other work on a node in one only.
    for (int repeat = 0; repeat < kPairRepeats; ++repeat) {
      if (bw_test == net::P2pTest::kBw) {
        const int warmup = std::max(10, opt.latency_iterations / 10);
        std::vector<double> each;
        const double lat = net::p2p_seconds(net::P2pTest::kLatency, ranks, s, r, kPairLatencyBytes,
                                            opt.latency_iterations, warmup, 1, opt.percentiles ? &each : nullptr);
        t.latency = repeat == 0 ? lat : std::min(t.latency, lat);
        t.iterations.insert(t.iterations.end(), each.begin(), each.end());
      }
      const double bw =
          net::p2p_seconds(bw_test, ranks, s, r, opt.message_bytes, opt.bandwidth_iterations, 2, kPairWindow);
      t.bw = repeat == 0 ? bw : std::min(t.bw, bw);
    }
    const bool corrupt = opt.corrupt_for_test && me == net::world_size() - 1;
    const auto wrong = net::p2p_check(bw_test, ranks, s, r, opt.message_bytes, 1, corrupt);
    if (!wrong.empty()) steps.fail(step, "validation failed: " + wrong);
  }
  return t;
}

PairFigures figures_of(const FleetOptions& opt, const UnitPair& p, int round, double lat_s, double bw_s, int directions,
                       std::vector<double> iterations = {}) {
  PairFigures f;
  f.pair = p;
  f.round = round;
  f.latency_iterations = std::move(iterations);
  f.latency_p99_us = pair_latency_p99_us(f.latency_iterations);
  f.latency_seconds = lat_s;
  f.bw_seconds = bw_s;
  if (lat_s > 0) f.latency_us = net::pingpong_latency_us(lat_s, opt.latency_iterations);
  if (bw_s > 0)
    f.bw_mbs = net::window_bandwidth_mbs(opt.message_bytes, opt.bandwidth_iterations, kPairWindow, directions, bw_s);
  return f;
}

// One round measured at once, its pairs of units that are out left out;
// rank 0 gets every pair's figures but those of a unit that failed in it.
std::vector<PairFigures> measure_round(const PairRun& run, const Round& round, int index, net::P2pTest bw_test,
                                       const std::string& step) {
  const Round live = live_pairs(round, run.steps.out());
  // Every rank done with what came before (and asleep if not in a pair)
  // before the pairs start; idle ranks sleep again while they run.
  quiet_barrier();
  const Timed t = run_my_pair(run, live, bw_test, step);
  quiet_barrier();
  const auto lat = net::gather_to_root(t.latency);
  const auto bw = net::gather_to_root(t.bw);
  auto each = run.opt.percentiles ? net::vectors_to_root(t.iterations) : std::vector<std::vector<double>>{};
  run.steps.settle();
  std::vector<PairFigures> out;
  if (net::world_rank() != 0) return out;
  const int directions = bw_test == net::P2pTest::kBibw ? 2 : 1;
  for (const auto& p : live_pairs(live, run.steps.out())) {
    const auto a = static_cast<std::size_t>(run.layout.leader[static_cast<std::size_t>(p.a)]);
    out.push_back(figures_of(run.opt, p, index, lat[a], bw[a], directions,
                             each.empty() ? std::vector<double>{} : std::move(each[a])));
  }
  return out;
}

std::vector<int> host_numbers(const Layout& layout) {
  std::vector<int> out;
  for (const auto& h : layout.host) {
    out.push_back(static_cast<int>(std::find(layout.host.begin(), layout.host.end(), h) - layout.host.begin()));
  }
  return out;
}

// The pairs rank 0 finds slow on either figure by the outlier rule, as
// indices into `all`; every rank gets the list.
std::vector<int> suspects(const FleetOptions& opt, const std::vector<PairFigures>& all) {
  std::vector<int> out;
  if (net::world_rank() == 0 && !all.empty()) {
    std::vector<double> lat, bw;
    for (const auto& p : all) {
      lat.push_back(p.latency_us);
      bw.push_back(p.bw_mbs);
    }
    std::vector<bool> slow(all.size(), false);
    for (const auto& o : judge::find_outliers(lat, false, opt.rule)) slow[o.index] = true;
    for (const auto& o : judge::find_outliers(bw, true, opt.rule)) slow[o.index] = true;
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (slow[i]) out.push_back(static_cast<int>(i));
    }
  }
  int n = static_cast<int>(out.size());
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  out.resize(static_cast<std::size_t>(n));
  if (n > 0) MPI_Bcast(out.data(), n, MPI_INT, 0, MPI_COMM_WORLD);
  return out;
}

// Every rank needs the suspect pairs' units, not only rank 0.
std::vector<UnitPair> pairs_of(const std::vector<PairFigures>& all, const std::vector<int>& which) {
  std::vector<int> a(which.size()), b(which.size());  // each pair's units
  if (net::world_rank() == 0) {
    for (std::size_t i = 0; i < which.size(); ++i) {
      a[i] = all[static_cast<std::size_t>(which[i])].pair.a;
      b[i] = all[static_cast<std::size_t>(which[i])].pair.b;
    }
  }
  if (which.empty()) return {};
  MPI_Bcast(a.data(), static_cast<int>(a.size()), MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(b.data(), static_cast<int>(b.size()), MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<UnitPair> out;
  for (std::size_t i = 0; i < which.size(); ++i) out.push_back({a[i], b[i]});
  return out;
}

// A suspect pair is measured again, alone, and keeps the better of its two
// measurements per figure: it is named only if slow again. A slow link is
// slow in both; a burst of other work on a shared node (or the first
// exchanges of a run) in one only. A pair whose unit is out by now keeps
// what it had.
// False: no suspects.
bool measure_suspects_again(const PairRun& run, std::vector<PairFigures>& all) {
  const auto which = suspects(run.opt, all);
  if (which.empty()) return false;
  const auto pairs = pairs_of(all, which);
  for (std::size_t i = 0; i < which.size() && !run.steps.stopped(); ++i) {
    const std::string what = fmt::format("pairs, suspect {} of {} again", i + 1, which.size());
    run.steps.begin(what);
    net::WatchedStep step(run.dog, run.step_timeout, "fleet " + what);
    const auto got = measure_round(run, Round{pairs[i]}, 0, net::P2pTest::kBw, what);
    if (net::world_rank() != 0 || got.empty()) continue;
    auto& f = all[static_cast<std::size_t>(which[i])];
    // The better latency keeps its own iterations.
    const bool again_better = got[0].latency_seconds > 0 && got[0].latency_seconds < f.latency_seconds;
    const double lat = again_better ? got[0].latency_seconds : f.latency_seconds;
    const double bw = got[0].bw_seconds > 0 ? std::min(f.bw_seconds, got[0].bw_seconds) : f.bw_seconds;
    f = figures_of(run.opt, f.pair, f.round, lat, bw, 1,
                   again_better ? got[0].latency_iterations : std::move(f.latency_iterations));
  }
  return true;
}

}  // namespace

PairBuffers::PairBuffers(const FleetOptions& opt)
    : send_(written_buffer(std::max<std::uint64_t>(opt.message_bytes, 8), 64)),
      recv_(written_buffer(std::max<std::uint64_t>(opt.message_bytes, 8), 64)) {}

std::vector<PairFigures> measure_pairs(const FleetOptions& opt, const Layout& layout,
                                       const std::vector<Round>& schedule, net::Watchdog& dog, double step_timeout,
                                       const PairBuffers* buffers, Steps& steps) {
  const PairRun run{opt, layout, buffers, steps, dog, step_timeout};
  std::vector<PairFigures> all;
  const auto host_of = host_numbers(layout);
  // The first round once untimed: first contact between ranks, and what the
  // memory steps leave behind (idle OpenMP threads, freed arrays), measured
  // nothing but made that round's pairs look slow here.
  steps.begin("pairs, warm-up");
  for (const auto& turn : schedule.empty() ? std::vector<Round>{} : host_turns(schedule.front(), host_of)) {
    if (steps.stopped()) return all;
    net::WatchedStep step(dog, step_timeout, "fleet pairs, warm-up");
    measure_round(run, turn, 0, net::P2pTest::kBw, "pairs, warm-up");
  }
  for (std::size_t r = 0; r < schedule.size(); ++r) {
    const std::string what = fmt::format("pairs, round {} of {}", r + 1, schedule.size());
    steps.begin(what);
    for (const auto& turn : host_turns(schedule[r], host_of)) {
      if (steps.stopped()) return all;
      net::WatchedStep step(dog, step_timeout, "fleet " + what);
      auto got = measure_round(run, turn, static_cast<int>(r), net::P2pTest::kBw, what);
      all.insert(all.end(), got.begin(), got.end());
    }
    steps.keep("pairs", pairs_json(layout, all));
  }
  // Up to kAgain times: what is still slow is measured again.
  for (int again = 0; again < kAgain && !steps.stopped(); ++again) {
    if (!measure_suspects_again(run, all)) break;
  }
  return all;
}

Bisection measure_bisection(const FleetOptions& opt, const Layout& layout, net::Watchdog& dog, double step_timeout,
                            const PairBuffers* buffers, Steps& steps) {
  Round cut;
  const int half = layout.units / 2;
  for (int u = 0; u < half; ++u) cut.push_back({u, u + half});
  Bisection b;
  if (cut.empty()) return b;
  const std::string what = "bisection (half the units against the other half)";
  steps.begin("bisection");
  net::WatchedStep step(dog, step_timeout, "fleet " + what);
  b.pairs = measure_round({opt, layout, buffers, steps, dog, step_timeout}, cut, -1, net::P2pTest::kBibw, "bisection");
  for (const auto& p : b.pairs) b.total_mbs += p.bw_mbs;
  return b;
}

}  // namespace movebench::fleet
