// fleet: the pairing schedule (simulated at thousands of units) and the
// blame of slow pairs on nodes or links (the outlier rule it blames by:
// test_judge_siblings.cpp).
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "fleet/fleet_logic.hpp"
#include "judge/siblings.hpp"

namespace movebench::fleet {
namespace {

// ---- the pairing schedule ----

// Every round a matching (no unit twice), no pair twice over the schedule.
void expect_valid(int n, const std::vector<Round>& schedule) {
  std::set<std::pair<int, int>> seen;
  for (const auto& round : schedule) {
    std::vector<char> busy(static_cast<std::size_t>(n), 0);
    for (const auto& p : round) {
      ASSERT_LT(p.a, p.b);
      ASSERT_GE(p.a, 0);
      ASSERT_LT(p.b, n);
      ASSERT_FALSE(busy[static_cast<std::size_t>(p.a)] || busy[static_cast<std::size_t>(p.b)])
          << "unit twice in a round";
      busy[static_cast<std::size_t>(p.a)] = busy[static_cast<std::size_t>(p.b)] = 1;
      ASSERT_TRUE(seen.insert({p.a, p.b}).second) << "pair " << p.a << "," << p.b << " twice";
    }
  }
}

TEST(FleetSchedule, RingComesFirstAndCoversEveryNeighbour) {
  const auto s = pair_schedule(6, 0, 1);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0], (Round{{0, 1}, {2, 3}, {4, 5}}));
  EXPECT_EQ(s[1], (Round{{1, 2}, {3, 4}, {0, 5}}));
  EXPECT_EQ(pair_schedule(5, 0, 1).size(), 3u);  // odd: three rounds for n edges
}

TEST(FleetSchedule, SmallFleets) {
  EXPECT_TRUE(pair_schedule(1, 4, 1).empty());
  const auto two = pair_schedule(2, 4, 1);
  ASSERT_EQ(two.size(), 1u);
  EXPECT_EQ(two[0], (Round{{0, 1}}));
  // Four units: the ring's two matchings and the third; then every pair is done.
  const auto four = pair_schedule(4, 4, 7);
  expect_valid(4, four);
  ASSERT_EQ(four.size(), 3u);
  for (const auto& p : partners(4, four)) EXPECT_EQ(p.size(), 3u);
}

TEST(FleetSchedule, EverySmallFleetIsValid) {
  for (int n = 1; n <= 40; ++n) {
    for (int rounds : {0, 1, 4, 40}) expect_valid(n, pair_schedule(n, rounds, static_cast<std::uint64_t>(n)));
  }
}

TEST(FleetSchedule, SameSeedSameScheduleOtherSeedOther) {
  EXPECT_EQ(pair_schedule(64, 3, 42), pair_schedule(64, 3, 42));
  EXPECT_NE(pair_schedule(64, 3, 42), pair_schedule(64, 3, 43));
}

// The simulation the issue asks for: thousands of units, as many ranks.
void simulate(int n, int random_rounds) {
  const auto s = pair_schedule(n, random_rounds, 2024);
  expect_valid(n, s);
  const int ring_rounds = n % 2 == 0 ? 2 : 3;
  ASSERT_EQ(static_cast<int>(s.size()), ring_rounds + random_rounds);
  std::size_t total = 0;
  for (std::size_t r = 0; r < s.size(); ++r) {
    total += s[r].size();
    // The random rounds are perfect matchings: every unit (all but one when n is odd).
    if (static_cast<int>(r) >= ring_rounds) {
      EXPECT_EQ(s[r].size(), static_cast<std::size_t>(n / 2));
    }
  }
  EXPECT_EQ(total, static_cast<std::size_t>(n + random_rounds * (n / 2)));  // O(n) per round
  EXPECT_LT(total, static_cast<std::size_t>(n) * (n - 1) / 2 / 10);         // nowhere near all n(n-1)/2 pairs
  const auto p = partners(n, s);
  std::size_t idle_total = 0;
  for (int u = 0; u < n; ++u) {
    // Two ring neighbours and one new partner per random round it is not idle in.
    const std::size_t got = p[static_cast<std::size_t>(u)].size();
    EXPECT_GE(got, 2u);
    EXPECT_LE(got, static_cast<std::size_t>(2 + random_rounds));
    idle_total += static_cast<std::size_t>(2 + random_rounds) - got;
  }
  EXPECT_EQ(idle_total, n % 2 == 0 ? 0u : static_cast<std::size_t>(random_rounds));
}

TEST(FleetSchedule, Simulated4096UnitsEveryOneGetsItsPartners) { simulate(4096, 4); }
TEST(FleetSchedule, Simulated4097UnitsOneIdlePerRound) { simulate(4097, 4); }
TEST(FleetSchedule, Simulated1000UnitsManyRounds) { simulate(1000, 12); }

TEST(FleetSchedule, PairsOnOneHostTakeTurnsPairsAcrossHostsDoNot) {
  const Round round{{0, 1}, {2, 3}, {4, 5}};
  const auto one_host = host_turns(round, {0, 0, 0, 0, 0, 0});
  ASSERT_EQ(one_host.size(), 3u);
  for (const auto& t : one_host) EXPECT_EQ(t.size(), 1u);
  EXPECT_EQ(host_turns(round, {0, 1, 2, 3, 4, 5}), std::vector<Round>{round});
  // Two ranks per host: (0,1) is within host 0; (2,3) joins hosts 1 and 1.
  const auto two = host_turns(round, {0, 0, 1, 1, 2, 2});
  EXPECT_EQ(two, std::vector<Round>{round});
  EXPECT_EQ(host_turns(Round{{0, 2}, {1, 3}}, {0, 0, 1, 1}).size(), 2u);
}

// ---- the pairs' work, sized by time ----

TEST(FleetPairTime, ATurnIsTheBudgetsShareAndAtMostAQuarterOfTheWatchdog) {
  EXPECT_DOUBLE_EQ(turn_seconds(60, 10, 120), 6);   // the budget's share
  EXPECT_DOUBLE_EQ(turn_seconds(600, 2, 120), 30);  // the watchdog's quarter
  EXPECT_DOUBLE_EQ(turn_seconds(20, 0, 120), 20);   // no turn planned: one
}

TEST(FleetPairTime, WhatFitsIsRunAsAsked) {
  // 20 us a round trip, 1 ms a window: 20000 and 50 take 0.44 s and 0.05 s
  // a repeat, each under its half of a 6 s turn's third.
  const PairCounts got = pair_counts(6, {20000, 50}, 16, 16 * 20e-6, 1, 1e-3);
  EXPECT_EQ(got.round_trips, 20000);
  EXPECT_EQ(got.windows, 50);
  // A clock too coarse to time the first round: as asked.
  EXPECT_EQ(pair_counts(6, {20000, 50}, 16, 0, 1, 0).round_trips, 20000);
}

TEST(FleetPairTime, UnderLoadARepeatFitsItsShareWarmUpsIncluded) {
  // 3 ms a round trip (a ping-pong beside CPU hogs), 60 ms a window: a 2 s
  // turn leaves each repeat 1/3 s, half of it to each loop.
  for (const double trip : {3e-3, 1e-3, 2e-4, 5e-5}) {
    const PairCounts got = pair_counts(2, {20000, 50}, 16, 16 * trip, 1, 60e-3);
    const double share = 2.0 / kPairRepeats / 2;
    EXPECT_LE((got.round_trips + latency_warmup(got.round_trips)) * trip, share * (1 + 1e-9)) << trip;
    EXPECT_GT((got.round_trips + latency_warmup(got.round_trips) + 12) * trip, share) << trip;  // not far under
    EXPECT_LT(got.round_trips, 20000);
    EXPECT_EQ(got.windows, 3);  // 5 windows of 60 ms fit 1/3 s: 2 warm up, 3 timed
  }
}

TEST(FleetPairTime, TheBisectionsTurnIsAllWindowsAndNothingIsCutToNothing) {
  // No latency loop asked (the bisection): the windows get the whole repeat.
  const PairCounts bisection = pair_counts(2, {0, 50}, 0, 0, 1, 60e-3);
  EXPECT_EQ(bisection.round_trips, 0);
  EXPECT_EQ(bisection.windows, 9);  // 11 of 60 ms fit 2/3 s
  // Far too slow for the turn: the fewest that still measure something.
  const PairCounts least = pair_counts(0.01, {20000, 50}, 16, 16, 1, 10);
  EXPECT_EQ(least.round_trips, kLeastRoundTrips);
  EXPECT_EQ(least.windows, 1);
  EXPECT_EQ(pair_counts(0.01, {4, 50}, 4, 4, 1, 10).round_trips, 4);  // never more than asked
}

// ---- blame ----

std::vector<PairValue> measured(const std::vector<Round>& s, double fast, double slow, const std::set<int>& slow_units,
                                const std::set<std::pair<int, int>>& slow_links) {
  std::vector<PairValue> out;
  for (const auto& round : s) {
    for (const auto& p : round) {
      const bool is_slow = slow_units.contains(p.a) || slow_units.contains(p.b) || slow_links.contains({p.a, p.b});
      out.push_back({p, is_slow ? slow : fast + 0.001 * (p.a % 7)});
    }
  }
  return out;
}

Blame judge(int n, const std::vector<PairValue>& pairs) {
  std::vector<double> values;
  for (const auto& p : pairs) values.push_back(p.value);
  std::vector<bool> slow(pairs.size(), false);
  for (const auto& o : judge::find_outliers(values, true, {})) slow[o.index] = true;
  return blame_pairs(n, pairs, slow);
}

TEST(FleetBlame, ASlowNodeIsNamedNotItsLinks) {
  const int n = 4096;
  const auto s = pair_schedule(n, 4, 5);
  const auto pairs = measured(s, 10000, 2000, {1234}, {});
  const Blame b = judge(n, pairs);
  EXPECT_EQ(b.slow_units, std::vector<int>{1234});
  EXPECT_TRUE(b.slow_links.empty());
}

TEST(FleetBlame, ASlowLinkIsNamedNotItsNodes) {
  const int n = 4096;
  const auto s = pair_schedule(n, 4, 5);
  const UnitPair link = s[3][17];
  const auto pairs = measured(s, 10000, 2000, {}, {{link.a, link.b}});
  const Blame b = judge(n, pairs);
  EXPECT_TRUE(b.slow_units.empty());
  ASSERT_EQ(b.slow_links.size(), 1u);
  EXPECT_EQ(pairs[b.slow_links[0]].pair, link);
}

TEST(FleetBlame, ASlowNodeAndASlowLinkElsewhereAreToldApart) {
  const int n = 64;
  const auto s = pair_schedule(n, 4, 9);
  UnitPair link = s[4][0];
  if (link.a == 7 || link.b == 7) link = s[4][1];
  const auto pairs = measured(s, 10000, 2000, {7}, {{link.a, link.b}});
  const Blame b = judge(n, pairs);
  EXPECT_EQ(b.slow_units, std::vector<int>{7});
  ASSERT_EQ(b.slow_links.size(), 1u);
  EXPECT_EQ(pairs[b.slow_links[0]].pair, link);
}

TEST(FleetBlame, OneSlowPairOfTwoIsNotEnoughToBlameTheNode) {
  const std::vector<PairValue> pairs{{{0, 1}, 1}, {{1, 2}, 9}};
  const std::vector<bool> slow{true, false};
  const Blame b = blame_pairs(3, pairs, slow);
  EXPECT_TRUE(b.slow_units.empty());
  EXPECT_EQ(b.slow_links, std::vector<std::size_t>{0});
}

}  // namespace
}  // namespace movebench::fleet
