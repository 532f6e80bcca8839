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

constexpr int kAgain = 3;  // the most times a suspect pair is measured again
// The first short round that sizes a pair's first repeat: ping-pongs and windows.
constexpr int kProbeRoundTrips = 16;
constexpr int kProbeWindows = 1;
constexpr int kCountsTag = 211;  // the first rank's counts to the second (p2p's tags are 1 and 101)

struct Timed {
  double latency = 0, bw = 0;      // seconds on the pair's first rank, 0 elsewhere
  PairCounts ran;                  // what the repeat each figure is of ran, on the first rank
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
  double turn_seconds;  // what one turn's pairs may take (pair_turn_seconds)
};

// What the pair's first rank timed last: `trips` ping-pongs in
// `trip_seconds`, `windows` windows in `window_seconds`.
struct Timing {
  int trips = 0, windows = 0;
  double trip_seconds = 0, window_seconds = 0;
};

// The counts of the next repeat: the first rank sizes them from what it
// timed last (pair_counts: what fits a repeat's share of the turn) and
// sends them to the second, which times nothing.
PairCounts next_counts(const PairRun& run, const net::P2pPair& ranks, PairCounts asked, const Timing& last) {
  int counts[2] = {0, 0};
  if (net::world_rank() == ranks.a) {
    const PairCounts c =
        pair_counts(run.turn_seconds, asked, last.trips, last.trip_seconds, last.windows, last.window_seconds);
    counts[0] = c.round_trips;
    counts[1] = c.windows;
    MPI_Send(counts, 2, MPI_INT, ranks.b, kCountsTag, MPI_COMM_WORLD);
  } else {
    MPI_Recv(counts, 2, MPI_INT, ranks.a, kCountsTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return {counts[0], counts[1]};
}

// A first short round of each loop, for the sizing only, after as many
// untimed: the partner may be waking from the barrier's sleep (about a
// millisecond, which made 16 quiet round trips look 40 times as slow).
Timing probe(const PairRun& run, const net::P2pPair& ranks, net::P2pTest bw_test, PairCounts asked) {
  std::byte* s = run.buffers->send();
  std::byte* r = run.buffers->recv();
  Timing t{std::min(asked.round_trips, kProbeRoundTrips), kProbeWindows};
  if (t.trips > 0) {
    t.trip_seconds = net::p2p_seconds(net::P2pTest::kLatency, ranks, s, r, kPairLatencyBytes, t.trips, t.trips, 1);
  }
  t.window_seconds = net::p2p_seconds(bw_test, ranks, s, r, run.opt.message_bytes, t.windows, t.windows, kPairWindow);
  return t;
}

// The fastest of a few repeats: a slow link is slow in every one, a
// passing burst of other work on a node in one only. Each repeat runs what
// fits its share of the turn, sized by the repeat before it (the first by
// a probe): a pair under load runs fewer, and a probe that ran fast (a
// rate limiter's burst) costs one repeat, not the turn. Each figure keeps
// its fastest repeat's count.
Timed time_repeats(const PairRun& run, const net::P2pPair& ranks, net::P2pTest bw_test) {
  std::byte* s = run.buffers->send();
  std::byte* r = run.buffers->recv();
  const PairCounts asked{bw_test == net::P2pTest::kBw ? run.opt.latency_iterations : 0, run.opt.bandwidth_iterations};
  Timing last = probe(run, ranks, bw_test, asked);
  Timed t;
  for (int repeat = 0; repeat < kPairRepeats; ++repeat) {
    const PairCounts n = next_counts(run, ranks, asked, last);
    last = {n.round_trips, n.windows, 0, 0};
    if (n.round_trips > 0) {
      std::vector<double> each;
      last.trip_seconds = net::p2p_seconds(net::P2pTest::kLatency, ranks, s, r, kPairLatencyBytes, n.round_trips,
                                           latency_warmup(n.round_trips), 1, run.opt.percentiles ? &each : nullptr);
      if (repeat == 0 || last.trip_seconds * t.ran.round_trips < t.latency * n.round_trips) {
        t.latency = last.trip_seconds;
        t.ran.round_trips = n.round_trips;
      }
      t.iterations.insert(t.iterations.end(), each.begin(), each.end());
    }
    last.window_seconds =
        net::p2p_seconds(bw_test, ranks, s, r, run.opt.message_bytes, n.windows, kBandwidthWarmup, kPairWindow);
    if (repeat == 0 || last.window_seconds * t.ran.windows < t.bw * n.windows) {
      t.bw = last.window_seconds;
      t.ran.windows = n.windows;
    }
  }
  return t;
}

// This rank's part of one round: the pair its unit is in, if any. A failed
// check is this unit's failure in `step`.
Timed run_my_pair(const PairRun& run, const Round& round, net::P2pTest bw_test, const std::string& step) {
  const int me = net::world_rank();
  Timed t;
  for (const auto& p : round) {
    const net::P2pPair ranks{run.layout.leader[static_cast<std::size_t>(p.a)],
                             run.layout.leader[static_cast<std::size_t>(p.b)]};
    if (me != ranks.a && me != ranks.b) continue;
    const ScopedAffinity restore;
    if (run.layout.host[static_cast<std::size_t>(p.a)] == run.layout.host[static_cast<std::size_t>(p.b)]) {
      apart_on_one_host(me == ranks.a);
    }
    t = time_repeats(run, ranks, bw_test);
    const bool corrupt = run.opt.corrupt_for_test && me == net::world_size() - 1;
    const auto wrong =
        net::p2p_check(bw_test, ranks, run.buffers->send(), run.buffers->recv(), run.opt.message_bytes, 1, corrupt);
    if (!wrong.empty()) run.steps.fail(step, "validation failed: " + wrong);
  }
  return t;
}

PairFigures figures_of(const FleetOptions& opt, const UnitPair& p, int round, double lat_s, double bw_s, int directions,
                       PairCounts ran, std::vector<double> iterations = {}) {
  PairFigures f;
  f.pair = p;
  f.round = round;
  f.ran = ran;
  f.latency_iterations = std::move(iterations);
  f.latency_p99_us = pair_latency_p99_us(f.latency_iterations);
  f.latency_seconds = lat_s;
  f.bw_seconds = bw_s;
  if (lat_s > 0 && ran.round_trips > 0) f.latency_us = net::pingpong_latency_us(lat_s, ran.round_trips);
  if (bw_s > 0 && ran.windows > 0)
    f.bw_mbs = net::window_bandwidth_mbs(opt.message_bytes, ran.windows, kPairWindow, directions, bw_s);
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
  const auto trips = net::gather_to_root(t.ran.round_trips);
  const auto windows = net::gather_to_root(t.ran.windows);
  auto each = run.opt.percentiles ? net::vectors_to_root(t.iterations) : std::vector<std::vector<double>>{};
  run.steps.settle();
  std::vector<PairFigures> out;
  if (net::world_rank() != 0) return out;
  const int directions = bw_test == net::P2pTest::kBibw ? 2 : 1;
  for (const auto& p : live_pairs(live, run.steps.out())) {
    const auto a = static_cast<std::size_t>(run.layout.leader[static_cast<std::size_t>(p.a)]);
    const PairCounts ran{static_cast<int>(trips[a]), static_cast<int>(windows[a])};
    out.push_back(figures_of(run.opt, p, index, lat[a], bw[a], directions, ran,
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
    const PairFigures& g = got[0];
    // Each figure's better measurement, with the count it ran (and the
    // latency its own iterations).
    if (g.latency_us > 0 && g.latency_us < f.latency_us) {
      f.latency_us = g.latency_us;
      f.latency_seconds = g.latency_seconds;
      f.ran.round_trips = g.ran.round_trips;
      f.latency_iterations = g.latency_iterations;
      f.latency_p99_us = g.latency_p99_us;
    }
    if (g.bw_mbs > f.bw_mbs) {
      f.bw_mbs = g.bw_mbs;
      f.bw_seconds = g.bw_seconds;
      f.ran.windows = g.ran.windows;
    }
  }
  return true;
}

}  // namespace

PairBuffers::PairBuffers(const FleetOptions& opt)
    : send_(written_buffer(std::max<std::uint64_t>(opt.message_bytes, 8), 64)),
      recv_(written_buffer(std::max<std::uint64_t>(opt.message_bytes, 8), 64)) {}

double pair_turn_seconds(const FleetOptions& opt, const Layout& layout, const std::vector<Round>& schedule,
                         double step_timeout) {
  const auto host_of = host_numbers(layout);
  std::size_t turns = 1;  // the bisection's
  if (!schedule.empty()) turns += host_turns(schedule.front(), host_of).size();
  for (const auto& round : schedule) turns += host_turns(round, host_of).size();
  return turn_seconds(opt.time_budget, static_cast<int>(turns), step_timeout);
}

std::vector<PairFigures> measure_pairs(const FleetOptions& opt, const Layout& layout,
                                       const std::vector<Round>& schedule, net::Watchdog& dog, double step_timeout,
                                       double turn_seconds, const PairBuffers* buffers, Steps& steps) {
  const PairRun run{opt, layout, buffers, steps, dog, step_timeout, turn_seconds};
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
                            double turn_seconds, const PairBuffers* buffers, Steps& steps) {
  Round cut;
  const int half = layout.units / 2;
  for (int u = 0; u < half; ++u) cut.push_back({u, u + half});
  Bisection b;
  if (cut.empty()) return b;
  const std::string what = "bisection (half the units against the other half)";
  steps.begin("bisection");
  net::WatchedStep step(dog, step_timeout, "fleet " + what);
  b.pairs = measure_round({opt, layout, buffers, steps, dog, step_timeout, turn_seconds}, cut, -1, net::P2pTest::kBibw,
                          "bisection");
  for (const auto& p : b.pairs) b.total_mbs += p.bw_mbs;
  return b;
}

}  // namespace movebench::fleet
