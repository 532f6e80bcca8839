#include "fleet/fleet_logic.hpp"

#include <algorithm>
#include <random>
#include <set>
#include <utility>

#include "core/clock.hpp"

namespace movebench::fleet {
namespace {

UnitPair ordered(int a, int b) { return a < b ? UnitPair{a, b} : UnitPair{b, a}; }

// Pairs as one number, for the set of pairs already scheduled.
using PairKey = std::uint64_t;
PairKey key_of(const UnitPair& p) {
  return (static_cast<PairKey>(static_cast<std::uint32_t>(p.a)) << 32) | static_cast<std::uint32_t>(p.b);
}

// Each ring edge (i, i+1 mod n) into the first round where both ends are free.
std::vector<Round> ring_rounds(int n, std::set<PairKey>& used) {
  std::vector<Round> rounds;
  std::vector<std::vector<char>> busy;
  for (int i = 0; i < n; ++i) {
    const UnitPair p = ordered(i, (i + 1) % n);
    if (p.a == p.b || !used.insert(key_of(p)).second) continue;  // n = 1; n = 2 has one edge
    std::size_t r = 0;
    while (r < rounds.size() && (busy[r][static_cast<std::size_t>(p.a)] || busy[r][static_cast<std::size_t>(p.b)])) ++r;
    if (r == rounds.size()) {
      rounds.emplace_back();
      busy.emplace_back(static_cast<std::size_t>(n), 0);
    }
    rounds[r].push_back(p);
    busy[r][static_cast<std::size_t>(p.a)] = busy[r][static_cast<std::size_t>(p.b)] = 1;
  }
  return rounds;
}

// A random perfect matching: a shuffle (Fisher-Yates with our own draw, so
// the same seed gives the same schedule with any standard library) paired
// off in order; with odd n the last unit sits this round out.
Round random_matching(int n, std::mt19937_64& rng) {
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
  Round round;
  for (std::size_t i = 0; i + 1 < order.size(); i += 2) round.push_back(ordered(order[i], order[i + 1]));
  return round;
}

// Swaps partners of a repeated pair (a,b) with another pair (c,d) of the
// round, to (a,c)(b,d) or (a,d)(b,c), when both are new. Linear per pair.
bool make_new(Round& round, std::size_t i, const std::set<PairKey>& used) {
  const auto is_new = [&](const UnitPair& p) { return !used.contains(key_of(p)); };
  for (std::size_t step = 1; step < round.size(); ++step) {
    const std::size_t j = (i + step) % round.size();
    const UnitPair x = round[i], y = round[j];  // y may be a repeat too: both are replaced
    for (const auto& [p, q] :
         {std::pair{ordered(x.a, y.a), ordered(x.b, y.b)}, std::pair{ordered(x.a, y.b), ordered(x.b, y.a)}}) {
      if (is_new(p) && is_new(q)) {
        round[i] = p;
        round[j] = q;
        return true;
      }
    }
  }
  return false;
}

}  // namespace

std::vector<Round> pair_schedule(int units, int random_rounds, std::uint64_t seed) {
  std::set<PairKey> used;
  std::vector<Round> rounds = ring_rounds(units, used);
  std::mt19937_64 rng(seed);
  for (int r = 0; r < random_rounds && units > 3; ++r) {
    Round round = random_matching(units, rng);
    for (std::size_t i = 0; i < round.size(); ++i) {
      if (used.contains(key_of(round[i]))) make_new(round, i, used);
    }
    std::erase_if(round, [&](const UnitPair& p) { return used.contains(key_of(p)); });
    if (round.empty()) break;  // every pair the rounds could give is measured
    for (const auto& p : round) used.insert(key_of(p));
    rounds.push_back(std::move(round));
  }
  return rounds;
}

std::vector<Round> host_turns(const Round& round, const std::vector<int>& host_of) {
  std::vector<Round> turns;
  std::vector<std::set<int>> hosts;  // per turn
  for (const auto& p : round) {
    const int ha = host_of[static_cast<std::size_t>(p.a)], hb = host_of[static_cast<std::size_t>(p.b)];
    std::size_t t = 0;
    while (t < turns.size() && (hosts[t].contains(ha) || hosts[t].contains(hb))) ++t;
    if (t == turns.size()) {
      turns.emplace_back();
      hosts.emplace_back();
    }
    turns[t].push_back(p);
    hosts[t].insert({ha, hb});
  }
  return turns;
}

std::vector<std::vector<int>> partners(int units, const std::vector<Round>& schedule) {
  std::vector<std::set<int>> sets(static_cast<std::size_t>(units));
  for (const auto& round : schedule) {
    for (const auto& p : round) {
      sets[static_cast<std::size_t>(p.a)].insert(p.b);
      sets[static_cast<std::size_t>(p.b)].insert(p.a);
    }
  }
  std::vector<std::vector<int>> out;
  for (const auto& s : sets) out.emplace_back(s.begin(), s.end());
  return out;
}

double turn_seconds(double time_budget, int turns, double step_timeout) {
  return std::min(time_budget / std::max(turns, 1), kTurnShareOfTimeout * step_timeout);
}

int latency_warmup(int round_trips) { return std::max(10, round_trips / 10); }

PairCounts pair_counts(double seconds, PairCounts asked, int probe_trips, double trip_seconds, int probe_windows,
                       double window_seconds) {
  const bool latency = asked.round_trips > 0 && probe_trips > 0;
  const double repeat = seconds / kPairRepeats;
  PairCounts out;
  if (latency) {
    // n timed and latency_warmup(n) untimed fit the `fit` that fill the share.
    const auto most = static_cast<std::uint64_t>(asked.round_trips + latency_warmup(asked.round_trips));
    const std::uint64_t fit =
        calls_to_fill(repeat / 2, trip_seconds, static_cast<std::uint64_t>(probe_trips), 0, most, Fill::kWithin);
    std::uint64_t n = fit * 10 / 11;
    if (n / 10 < 10) n = fit > 10 ? fit - 10 : 0;
    out.round_trips = static_cast<int>(
        std::clamp<std::uint64_t>(n, static_cast<std::uint64_t>(std::min(asked.round_trips, kLeastRoundTrips)),
                                  static_cast<std::uint64_t>(asked.round_trips)));
  }
  const auto most = static_cast<std::uint64_t>(asked.windows + kBandwidthWarmup);
  const std::uint64_t fit =
      calls_to_fill(latency ? repeat / 2 : repeat, window_seconds,
                    static_cast<std::uint64_t>(std::max(probe_windows, 1)), 0, most, Fill::kWithin);
  const std::uint64_t n = fit > kBandwidthWarmup ? fit - kBandwidthWarmup : 0;
  out.windows = static_cast<int>(std::clamp<std::uint64_t>(n, 1, static_cast<std::uint64_t>(asked.windows)));
  return out;
}

Blame blame_pairs(int units, std::span<const PairValue> pairs, const std::vector<bool>& slow) {
  std::vector<int> measured(static_cast<std::size_t>(units)), slow_count(static_cast<std::size_t>(units));
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    for (int u : {pairs[i].pair.a, pairs[i].pair.b}) {
      ++measured[static_cast<std::size_t>(u)];
      if (slow[i]) ++slow_count[static_cast<std::size_t>(u)];
    }
  }
  Blame blame;
  std::vector<char> is_slow(static_cast<std::size_t>(units), 0);
  for (int u = 0; u < units; ++u) {
    const auto i = static_cast<std::size_t>(u);
    if (measured[i] >= 2 && 2 * slow_count[i] > measured[i]) {
      blame.slow_units.push_back(u);
      is_slow[i] = 1;
    }
  }
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const bool on_a_node =
        is_slow[static_cast<std::size_t>(pairs[i].pair.a)] || is_slow[static_cast<std::size_t>(pairs[i].pair.b)];
    if (slow[i] && !on_a_node) blame.slow_links.push_back(i);
  }
  return blame;
}

}  // namespace movebench::fleet
