// fleet's writer: the text of a run from hand-made results, caught by a
// CapturedOutput. The expected lines are written out in full: they are
// what scripts (and tests/integration/test_fleet*.py) read.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/output.hpp"
#include "fleet/fleet_node.hpp"
#include "fleet/fleet_output.hpp"
#include "judge/siblings.hpp"

namespace movebench::fleet {
namespace {

// Three units: two on host a (two turns), one on host b.
Layout three_units() {
  Layout l;
  l.units = 3;
  l.host = {"a", "a", "b"};
  l.leader = {0, 1, 2};
  l.slot = {0, 1, 0};
  l.ranks = {{0}, {1}, {2}};
  l.slots = 2;
  return l;
}

MemoryFigures unit(double copy, double triad, double latency) {
  MemoryFigures m;
  m.copy_mbs = copy;
  m.triad_mbs = triad;
  m.latency_ns = latency;
  m.threads = 4;
  return m;
}

PairFigures pair(int a, int b, double latency_us, double bw_mbs) {
  PairFigures p;
  p.pair = {a, b};
  p.latency_us = latency_us;
  p.bw_mbs = bw_mbs;
  return p;
}

TEST(FleetOutput, HeadingSaysWhatIsMeasuredAndTheRule) {
  FleetOptions opt;
  const std::vector<Round> schedule{{{0, 1}}, {{1, 2}, {0, 2}}};
  EXPECT_EQ(fleet_heading(opt, three_units(), schedule),
            "# movebench fleet: 3 units (per host), 2 hosts, 2 turns per host; arrays 64.00 MiB, chase 64.00 MiB\n"
            "# pairs: 2 rounds (ring, then 4 random from seed 42), 3 pairs; outlier: worse than the median by more "
            "than max(5 x MAD, 10%)\n");
}

TEST(FleetOutput, ResultsInOrderUnitsPairsWholeOutliers) {
  const Layout layout = three_units();
  const std::vector<MemoryFigures> units{unit(10000.4, 11000.6, 80.04), unit(9000, 9500, 81), unit(4000, 4100, 120)};
  const std::vector<PairFigures> pairs{pair(0, 1, 1.5, 9000), pair(1, 2, 2.25, 5000), pair(0, 2, 1.75, 8000)};
  Bisection bisection;
  bisection.pairs = {pair(0, 2, 0, 7000)};
  bisection.total_mbs = 7000.4;
  const std::vector<double> triads{11000.6, 9500, 4100};
  const judge::Whole triad = judge::whole_of(triads);
  FleetOutlier slow_memory{"mem.triad", "MB/s", 2, {}, 4100, 9500, 0.5684};
  FleetOutlier slow_latency{"mem.latency", "ns", 2, {}, 120, 81, 0.48};
  FleetOutlier slow_link{"p2p.bw", "MB/s", -1, {1, 2}, 5000, 8000, 0.375};
  const std::vector<FleetOutlier> outliers{slow_memory, slow_latency, slow_link};

  CapturedOutput out;
  FleetWriter w(out);
  const std::vector<bool> all_measured(3, false);
  w.results({layout, units, all_measured, pairs, triad, bisection, outliers});
  w.failed(layout, {});  // none: nothing written
  w.end();
  EXPECT_EQ(out.out,
            "# unit host                       rank  threads      copy MB/s     triad MB/s   latency ns\n"
            "0      a                             0        4          10000          11001         80.0\n"
            "1      a                             1        4           9000           9500         81.0\n"
            "2      b                             2        4           4000           4100        120.0\n"
            "pairs: 3, latency us min/median/max 1.50 / 1.75 / 2.25, bandwidth MB/s min/median/max 5000 / 8000 / 9000\n"
            "memory triad: sum 24601 MB/s over 3 units (per unit min 4100, median 9500, max 11001)\n"
            "bisection: 7000 MB/s (1 pairs across the cut, both ways at once)\n"
            "outliers: 3\n"
            "OUTLIER node host b rank 2: mem.triad 4100 MB/s vs median 9500 MB/s (57% worse)\n"
            "OUTLIER node host b rank 2: mem.latency 120 ns vs median 81 ns (48% worse)\n"
            "OUTLIER link host a rank 1 <-> host b rank 2: p2p.bw 5000 MB/s vs median 8000 MB/s (38% worse)\n"
            "scontrol update nodename=b state=drain reason=\"movebench: mem.triad 4100 MB/s vs median 9500 MB/s\"\n");
  EXPECT_EQ(out.err, "");
}

TEST(FleetOutput, PairsCutToTheTimeBudgetAreCountedWithTheFewest) {
  auto cut = [](int a, int b, int trips, int windows) {
    PairFigures p = pair(a, b, 1, 1000);
    p.ran = {trips, windows};
    return p;
  };
  const std::vector<PairFigures> pairs{cut(0, 1, 20000, 50), cut(1, 2, 180, 50), cut(0, 2, 300, 7)};
  Bisection bisection;
  bisection.pairs = {cut(0, 2, 0, 3)};
  EXPECT_EQ(cut_line(pairs, bisection, {20000, 50}),
            "# cut to fit --time-budget: 2 of 3 pairs ran fewer ping-pongs than the 20000 asked (fewest 180); 2 of "
            "4 pairs and bisection pairs fewer windows than the 50 asked (fewest 3)\n");
  EXPECT_EQ(cut_line({cut(0, 1, 20000, 50)}, {}, {20000, 50}), "");  // nothing cut: nothing said
}

TEST(FleetOutput, AFailedUnitHasNoFiguresInItsLineAndOneLineLast) {
  const Layout layout = three_units();
  // Unit 1 failed in its memory set-up: its figures are zero and not shown.
  const std::vector<MemoryFigures> units{unit(10000, 11000, 80), MemoryFigures{}, unit(4000, 4100, 120)};
  const std::vector<bool> no_memory{false, true, false};
  const std::vector<double> triads{11000, 4100};
  const std::vector<UnitFailure> failures{{1, "memory set-up", "out of memory: arrays of 64.00 MiB each"}};
  CapturedOutput out;
  FleetWriter w(out);
  w.results({layout, units, no_memory, {}, judge::whole_of(triads), {}, {}});
  w.failed(layout, failures);
  w.end();
  EXPECT_EQ(out.out,
            "# unit host                       rank  threads      copy MB/s     triad MB/s   latency ns\n"
            "0      a                             0        4          10000          11000         80.0\n"
            "1      a                             1        -              -              -            -\n"
            "2      b                             2        4           4000           4100        120.0\n"
            "memory triad: sum 15100 MB/s over 2 of 3 units (per unit min 4100, median 7550, max 11000)\n"
            "outliers: 0\n"
            "FAILED unit host a rank 1 in memory set-up: out of memory: arrays of 64.00 MiB each\n");
  EXPECT_EQ(out.err,
            "movebench fleet: error: 1 of 3 units failed: host a rank 1 in memory set-up: out of memory: "
            "arrays of 64.00 MiB each\n");
  EXPECT_EQ(triad_line({}, 0, 3), "memory triad: no unit measured\n");
}

TEST(FleetOutput, UnitsMeasuredAgainAreListedUnderTheTable) {
  std::vector<MemoryFigures> units{unit(10000, 11000, 80), unit(9000, 10000, 85), unit(9500, 10500, 90)};
  units[1].measured_again = true;
  units[2].measured_again = true;
  EXPECT_EQ(unit_table(three_units(), units, {}),
            "# unit host                       rank  threads      copy MB/s     triad MB/s   latency ns\n"
            "0      a                             0        4          10000          11000         80.0\n"
            "1      a                             1        4           9000          10000         85.0\n"
            "2      b                             2        4           9500          10500         90.0\n"
            "# measured again after the pairs, the best of both kept (suspect at first): unit 1 2\n");
  units[1].measured_again = units[2].measured_again = false;
  EXPECT_EQ(unit_table(three_units(), units, {}).find("measured again"), std::string::npos);
}

TEST(FleetOutput, TheFailuresLineNamesTenAndCountsTheRest) {
  Layout l;
  for (int r = 0; r < 12; ++r) {
    l.host.push_back(fmt::format("n{}", r));
    l.leader.push_back(r);
  }
  l.units = 12;
  std::vector<UnitFailure> failures;
  for (int u = 0; u < 12; ++u) failures.push_back({u, "pairs set-up", "no"});
  const std::string line = failures_line(l, failures);
  EXPECT_EQ(line.rfind("12 of 12 units failed: host n0 rank 0 in pairs set-up: no; host n1 rank 1 in ", 0), 0u) << line;
  EXPECT_NE(line.find("host n9 rank 9 in pairs set-up: no; and 2 more (failed_units)"), std::string::npos) << line;
  EXPECT_EQ(line.find("host n10 "), std::string::npos) << line;
}

TEST(FleetOutput, NoPairsNoBisectionNoOutliers) {
  EXPECT_EQ(pairs_line({}), "");
  EXPECT_EQ(bisection_line({}), "");
  EXPECT_EQ(outlier_lines(three_units(), {}), "outliers: 0\n");
}

TEST(FleetOutput, EveryHostNamedIsDrainedOnce) {
  Layout l = three_units();
  const std::vector<FleetOutlier> outliers{{"mem.copy", "MB/s", 0, {}, 1, 2, 0.5},
                                           {"mem.copy", "MB/s", 1, {}, 1, 2, 0.5},
                                           {"mem.copy", "MB/s", 2, {}, 1, 2, 0.5}};
  const std::string text = outlier_lines(l, outliers);
  EXPECT_NE(text.find("scontrol update nodename=a state=drain"), std::string::npos) << text;
  EXPECT_NE(text.find("scontrol update nodename=b state=drain"), std::string::npos) << text;
  EXPECT_EQ(text.find("nodename=a", text.find("nodename=a") + 1), std::string::npos) << text;  // host a once
}

TEST(FleetOutput, NodeStepLinesPerUnitThenTheirOwnFindings) {
  const Layout layout = three_units();
  std::vector<NodeStepFigures> node(3);
  node[0].figures = {{"node.numa.local.sum", 10000.4}, {"node.cores.same_l3", 41.25}};
  node[2].figures = {{"node.numa.local.sum", 9000}};
  node[2].findings = nlohmann::json::array({{{"text", "cpu 3: same_l3 latency 90 ns vs median 41 ns"}}});
  EXPECT_EQ(node_lines(layout, node),
            "node step (movebench node's numa matrix and a sample of its core matrix, per unit):\n"
            "  host a rank 0: numa.local.sum 10000 MB/s; cores.same_l3 41.25 ns;\n"
            "  host a rank 1: -\n"
            "  host b rank 2: numa.local.sum 9000 MB/s;\n"
            "node step findings within units: 1\n"
            "  host b rank 2: cpu 3: same_l3 latency 90 ns vs median 41 ns\n");
  EXPECT_EQ(node_lines(layout, {}), "");  // no --node
}

TEST(FleetOutput, BaselineSummarySaysWhatIsMissing) {
  Baseline b;
  b.path = "ref.json";
  b.kind = "reference";
  BaselineVerdict v;
  v.compared = 7;
  v.missing = {"host c", "host d"};
  EXPECT_EQ(baseline_lines(b, v, 0.05),
            "baseline: ref.json (reference figures), 7 figures compared, threshold 5%: 0 slower; not in it: host c, "
            "host d\n");
}

// --node's headlines across units: the slow one named, a unit without the
// figure neither counted nor named.
TEST(FleetNode, TheSlowUnitsStepFigureIsAnOutlier) {
  std::vector<NodeStepFigures> node(5);
  const std::vector<double> latency{40, 41, 40.5, 95, 0};
  for (std::size_t u = 0; u < 4; ++u) {
    node[u].figures["node.cores.same_l3"] = latency[u];
    node[u].figures["node.numa.local.sum"] = 10000 + 10.0 * static_cast<double>(u);
  }
  const auto outliers = node_step_outliers(node, judge::OutlierRule{});
  ASSERT_EQ(outliers.size(), 1u);
  EXPECT_EQ(outliers[0].figure, "node.cores.same_l3");
  EXPECT_EQ(outliers[0].unit_name, "ns");
  EXPECT_EQ(outliers[0].unit, 3);
  EXPECT_DOUBLE_EQ(outliers[0].median, 40.75);
}

}  // namespace
}  // namespace movebench::fleet
