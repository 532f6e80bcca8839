// node: the matrix printer, the one sibling judge every part uses, the
// numa part's judging on made-up grids, and where the kernel says memory is.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/buffer.hpp"
#include "judge/siblings.hpp"
#include "node/node_numa.hpp"
#include "node/node_topology.hpp"
#include "node/numa_placement.hpp"

namespace movebench::node {
namespace {

struct Judged {
  NodeOptions opt;
  Report report{"node", {}, {}};
  CapturedOutput out;
  NodeContext ctx{opt, report, out, {}, {}, 0, {}};
};

TEST(NodeMatrix, RowsAreInitiatorsColumnsTargetsMissingIsADash) {
  const Matrix m{"Read, MB/s",
                 "initiator \\ target",
                 {"node 0", "node 1"},
                 {"node 0", "node 1"},
                 {{1000.0, 500.0}, {std::nullopt, 990.5}}};
  const std::string text = matrix_text(m);
  EXPECT_EQ(text,
            "Read, MB/s\n"
            "initiator \\ target  node 0  node 1\n"
            "node 0                1000     500\n"
            "node 1                   -   990.5\n");
}

TEST(NodeFindings, TheSlowSiblingIsNamedAndRecorded) {
  Judged j;
  const std::vector<Endpoint> nodes{{"node 0", 100}, {"node 1", 101}, {"node 2", 60}, {"node 3", 99}};
  const auto found = judge_siblings(j.ctx, "numa", "local read bandwidth", "MB/s", nodes, true);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].endpoint, "node 2");
  EXPECT_DOUBLE_EQ(found[0].reference, 99.5);
  EXPECT_NE(found[0].text.find("node 2 local read bandwidth 60"), std::string::npos) << found[0].text;
  ASSERT_EQ(j.ctx.findings.size(), 1u);
  ASSERT_EQ(j.report.document()["findings"].size(), 1u);
  EXPECT_EQ(j.report.document()["findings"][0]["endpoint"], "node 2");
  EXPECT_NE(findings_text(j.ctx.findings).find("findings: 1\n"), std::string::npos);
}

// Siblings measured in rounds are judged round by round: the slow one is
// named though every round moved all of them (their spread over the rounds
// 200%), and the document says how each was judged.
TEST(NodeFindings, SiblingsInRoundsAreJudgedRoundByRound) {
  Judged j;
  const std::vector<double> drift{1, 3, 1, 2, 1};
  std::vector<Endpoint> nodes;
  for (const auto& [name, level] : {std::pair{"node 0", 100.0}, {"node 1", 55.0}, {"node 2", 98.0}}) {
    Endpoint e{name, 3 * level, 2.0};
    for (double d : drift) e.rounds.push_back(level * d);
    nodes.push_back(e);
  }
  const auto found = judge_siblings(j.ctx, "numa", "local read bandwidth", "MB/s", nodes, true);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].endpoint, "node 1");
  EXPECT_NEAR(found[0].worse_by, 1 - 55.0 / 98, 1e-12);
  const std::string said =
      "node 1 local read bandwidth 165 MB/s: in each of 5 rounds lower than its 2 siblings' median in that round, by "
      "43.88%";
  EXPECT_NE(found[0].text.find(said), std::string::npos) << found[0].text;
  const auto& judged = j.report.document()["judged"][0];
  EXPECT_EQ(judged["rule"], "in rounds");
  EXPECT_EQ(judged["rounds"], drift.size());
  EXPECT_EQ(judged["endpoints"][1]["rounds"].size(), drift.size());
  // Without the rounds the same figures and spreads name nothing.
  Judged by_value;
  for (auto& e : nodes) e.rounds.clear();
  EXPECT_TRUE(judge_siblings(by_value.ctx, "numa", "local read bandwidth", "MB/s", nodes, true).empty());
}

TEST(NodeFindings, TwoSiblingsHaveNoMajority) {
  Judged j;
  const std::vector<Endpoint> nodes{{"node 0", 100}, {"node 1", 10}};
  EXPECT_TRUE(judge_siblings(j.ctx, "numa", "x", "MB/s", nodes, true).empty());
}

// Four nodes, one with a slow local memory, and a pair whose remote path is
// slow next to the other pairs at the same distance.
NumaGrid four_nodes() {
  NumaGrid g;
  g.initiators = g.targets = {0, 1, 2, 3};
  g.cells.assign(4, std::vector<Cell>(4));
  g.distance.assign(4, std::vector<int>(4, 21));
  for (int i = 0; i < 4; ++i) {
    for (int t = 0; t < 4; ++t) {
      g.cells[i][t] = i == t ? Cell{100, 80, 90} : Cell{50, 40, 150};
      if (i == t) g.distance[i][t] = 10;
    }
  }
  g.cells[2][2].sum = 60;  // node 2's own memory is slow
  g.cells[2][1].sum = 30;  // node 2's own factor stays 2: 60/30
  g.cells[0][3].sum = 20;  // the 0 -> 3 path is slow: factor 5
  return g;
}

TEST(NodeNuma, SlowLocalNodeAndSlowPairAreNamed) {
  Judged j;
  judge_numa(j.ctx, four_nodes());
  std::vector<std::string> named;
  for (const auto& f : j.ctx.findings) named.push_back(f.figure + ": " + f.endpoint);
  EXPECT_EQ(named, (std::vector<std::string>{"local read bandwidth (sum): node 2",
                                             "NUMA factor of read bandwidth (sum) at distance 21: node 0 -> node 3"}));
  EXPECT_EQ(j.report.document()["numa_factors"].size(), 3u * 12u);
}

// four_nodes() with every cell's samples spread by `spread` (a fraction).
NumaGrid four_nodes_spread(double spread) {
  NumaGrid g = four_nodes();
  for (auto& row : g.cells) {
    for (auto& c : row) c.sum_spread = c.triad_spread = c.latency_spread = spread;
  }
  return g;
}

TEST(NodeNuma, TheCellsMeasuredSpreadDecidesWhatIsNamed) {
  Judged quiet;  // 5%: the slow node (40% under) and the slow pair (factor 5 against 2) are named
  judge_numa(quiet.ctx, four_nodes_spread(0.05));
  ASSERT_EQ(quiet.ctx.findings.size(), 2u);
  EXPECT_DOUBLE_EQ(quiet.ctx.findings[0].noise, 0.05);
  EXPECT_DOUBLE_EQ(quiet.ctx.findings[1].noise, 0.10);  // a factor's: its two cells' added
  EXPECT_NE(quiet.ctx.findings[0].text.find("measured spread 5%"), std::string::npos) << quiet.ctx.findings[0].text;
  Judged noisy;  // 60%: 2 x 60% allows 120% for a node, 2 x 120% for a pair: none
  judge_numa(noisy.ctx, four_nodes_spread(0.60));
  EXPECT_TRUE(noisy.ctx.findings.empty());
  // What was judged, and with what noise, is written either way.
  const auto& judged = noisy.report.document()["judged"];
  ASSERT_FALSE(judged.empty());
  EXPECT_EQ(judged[0]["figure"], "local read bandwidth (sum)");
  EXPECT_DOUBLE_EQ(judged[0]["noise"].get<double>(), 0.60);
  EXPECT_EQ(judged[0]["named"], 0);
  EXPECT_EQ(judged[0]["endpoints"].size(), 4u);
  EXPECT_DOUBLE_EQ(judged[0]["endpoints"][2]["spread"].get<double>(), 0.60);
}

// Made-up facts: a Milan (whose DRAM band is normal from 75%) with one NUMA
// node per socket, node 0's socket with empty channels.
nlohmann::json milan_facts() {
  return nlohmann::json::parse(R"({
    "cpu": {"model": "AMD EPYC 7763 64-Core Processor"},
    "dram": {"sockets": [{"socket": 0, "numa_node_peaks": [{"node": 0, "peak_bytes_per_second": 200e6}]},
                         {"socket": 1, "numa_node_peaks": [{"node": 1, "peak_bytes_per_second": 100e6}]},
                         {"socket": 2, "numa_node_peaks": {"status": "unknown", "why": "sub-NUMA clustering"}}],
             "faults": [{"kind": "empty_channels", "text": "socket 0: 2 of 8 channels empty"}]}})");
}

TEST(NodeNuma, LocalTriadUnderTheDramBandIsAFindingWithTheFacts) {
  Judged j;
  j.report.extra("facts") = milan_facts();
  NumaGrid g = four_nodes();
  g.cells[2][2].sum = 100;  // no sibling outliers this time
  g.cells[0][3].sum = 50;
  g.cells[2][1].sum = 50;
  judge_numa(j.ctx, g);
  ASSERT_EQ(j.ctx.findings.size(), 1u);
  const Finding& f = j.ctx.findings[0];
  EXPECT_EQ(f.endpoint, "node 0");
  EXPECT_EQ(f.figure, "local triad bandwidth against the DRAM peak");
  EXPECT_NE(f.text.find("is 40% of its DRAM peak 200 MB/s, normal from 75%"), std::string::npos) << f.text;
  EXPECT_NE(f.text.find("the facts: socket 0: 2 of 8 channels empty"), std::string::npos) << f.text;
  EXPECT_NE(j.out.out.find("node 1: triad 80 MB/s = 80% of its DRAM peak 100 MB/s\n"), std::string::npos) << j.out.out;
}

TEST(NodeNuma, NoPeakWhereTheFactsDoNotSayWhichChannelsServeANode) {
  EXPECT_EQ(node_dram_peak(milan_facts(), 0), 200e6);
  EXPECT_EQ(node_dram_peak(milan_facts(), 2), std::nullopt);
  EXPECT_EQ(node_dram_peak(nlohmann::json::object(), 0), std::nullopt);
}

TEST(NodeNuma, MatricesPrintEveryCellAndTheFactors) {
  const std::string text = numa_matrices_text(four_nodes());
  EXPECT_NE(text.find("read bandwidth (sum), MB/s\n"), std::string::npos) << text;
  EXPECT_NE(text.find("idle latency (chase), ns\n"), std::string::npos) << text;
  EXPECT_NE(text.find("NUMA factor of read bandwidth (sum): times worse than local\n"), std::string::npos) << text;
  EXPECT_NE(text.find("node 0                   1       2       2       5\n"), std::string::npos) << text;
}

TEST(NodeNuma, DefaultArraysOutgrowTheCacheOfANode) {
  EXPECT_EQ(default_numa_bytes(0, 1), kLeastNumaArrayBytes);
  EXPECT_EQ(default_numa_bytes(std::uint64_t{384} << 20, 2), std::uint64_t{768} << 20);
}

TEST(NodeNumaRounds, EveryRoundMeasuresEveryCellStartingOneCellLater) {
  std::vector<std::size_t> order;
  const auto measure = [&](std::size_t cell) {
    order.push_back(cell);
    return true;
  };
  EXPECT_EQ(measure_in_rounds(3, 0, measure), kLeastRounds);  // no time: the least
  std::vector<std::size_t> expected;
  for (int r = 0; r < kLeastRounds; ++r) {
    for (std::size_t i = 0; i < 3; ++i) expected.push_back((static_cast<std::size_t>(r) + i) % 3);
  }
  EXPECT_EQ(order, expected);
  EXPECT_EQ(std::vector<std::size_t>(order.begin(), order.begin() + 9),
            (std::vector<std::size_t>{0, 1, 2, 1, 2, 0, 2, 0, 1}));
  order.clear();
  EXPECT_EQ(measure_in_rounds(3, 1e9, measure), kMostRounds);  // all the time there is: the most
  ASSERT_EQ(order.size(), 3u * kMostRounds);
  for (std::size_t cell = 0; cell < 3; ++cell) EXPECT_EQ(std::count(order.begin(), order.end(), cell), kMostRounds);
  EXPECT_EQ(measure_in_rounds(0, 1e9, measure), 0);
}

TEST(NodeNumaRounds, ASignalEndsTheRoundsAndCountsOnlyTheWholeOnes) {
  int calls = 0;
  EXPECT_EQ(measure_in_rounds(4, 1e9, [&](std::size_t) { return ++calls < 10; }), 2);
  EXPECT_EQ(calls, 10);
}

// A 3 x 3 grid whose 9 cells are measured in `order` (cell indices, row by
// row), each measurement a step in time that takes 1 s, or 1.5 s during a
// burst of noise over `burst_steps` steps from step `burst`. Each cell's
// figures from its samples as the numa part takes them: the fastest
// (bandwidth 1000 / seconds, latency 100 x seconds), the relative spread
// and the figure of each round.
NumaGrid grid_measured(const std::vector<std::size_t>& order, std::size_t burst, std::size_t burst_steps) {
  std::vector<std::vector<double>> samples(9);
  for (std::size_t step = 0; step < order.size(); ++step) {
    samples[order[step]].push_back(step >= burst && step < burst + burst_steps ? 1.5 : 1.0);
  }
  NumaGrid g;
  g.initiators = g.targets = {0, 1, 2};
  g.cells.assign(3, std::vector<Cell>(3));
  g.distance = {{10, 20, 20}, {20, 10, 20}, {20, 20, 10}};
  for (std::size_t i = 0; i < 9; ++i) {
    const double fastest = *std::min_element(samples[i].begin(), samples[i].end());
    const double spread = judge::relative_spread(samples[i]);
    Cell& cell = g.cells[i / 3][i % 3];
    cell = Cell{1000 / fastest, 1000 / fastest, 100 * fastest, spread, spread, spread};
    for (double s : samples[i]) {
      cell.sum_rounds.push_back(1000 / s);
      cell.triad_rounds.push_back(1000 / s);
      cell.latency_rounds.push_back(100 * s);
    }
  }
  return g;
}

// The guest's failure (docs/node.md): with cells measured one after the
// other, a burst of noise as long as one cell's rounds lands on all of them
// and the cell looks like a slow sibling. In rounds, the same burst, wherever
// it falls, lands on one round of each of the cells it meets: no cell is
// named.
TEST(NodeNumaRounds, ABurstAsLongAsACellsRoundsNamesNoCell) {
  std::vector<std::size_t> in_rounds;
  measure_in_rounds(9, 0, [&](std::size_t cell) {
    in_rounds.push_back(cell);
    return true;
  });
  std::vector<std::size_t> one_after_another;
  for (std::size_t cell = 0; cell < 9; ++cell) one_after_another.insert(one_after_another.end(), kLeastRounds, cell);
  ASSERT_EQ(in_rounds.size(), one_after_another.size());
  std::size_t named_one_after_another = 0;
  for (std::size_t burst = 0; burst + kLeastRounds <= in_rounds.size(); ++burst) {
    Judged rounds;
    judge_numa(rounds.ctx, grid_measured(in_rounds, burst, kLeastRounds));
    EXPECT_TRUE(rounds.ctx.findings.empty()) << "burst from step " << burst << ": " << rounds.ctx.findings[0].text;
    Judged back_to_back;
    judge_numa(back_to_back.ctx, grid_measured(one_after_another, burst, kLeastRounds));
    named_one_after_another += back_to_back.ctx.findings.empty() ? 0 : 1;
  }
  EXPECT_EQ(named_one_after_another, 9u);  // each burst that covers one cell's rounds exactly names it
}

// A node's meminfo as the kernel writes it (the H200 VM's node 0: little
// free, most of its RAM page cache): available counts the page cache and
// reclaimable slab with the free memory, and nothing else.
TEST(NodeTopologyMemory, AvailableIsFreePlusWhatTheKernelReclaims) {
  const auto root = std::filesystem::temp_directory_path() / ("movebench-meminfo-" + std::to_string(::getpid()));
  std::filesystem::create_directories(root / "devices/system/node/node0");
  std::ofstream(root / "devices/system/node/node0/meminfo") << "Node 0 MemTotal:       131000000 kB\n"
                                                               "Node 0 MemFree:          3000000 kB\n"
                                                               "Node 0 MemUsed:        128000000 kB\n"
                                                               "Node 0 Active(file):    60000000 kB\n"
                                                               "Node 0 Inactive(file):  50000000 kB\n"
                                                               "Node 0 Shmem:             100000 kB\n"
                                                               "Node 0 KReclaimable:     1000000 kB\n";
  EXPECT_EQ(node_available_bytes(0, root.string()), std::uint64_t{114000000} * 1024);
  EXPECT_EQ(node_available_bytes(1, root.string()), std::nullopt);
  std::filesystem::remove_all(root);
}

// The kernel's answer on this machine's node 0, which every Linux has.
TEST(NumaPlacement, PagesBoundToNodeZeroAreFoundThere) {
  HostBuffer b(std::size_t{4} << 20, 4096);
  ASSERT_EQ(bind_to_node(b.data(), b.size(), 0), "");
  std::memset(b.data(), 1, b.size());
  const PlacementCheck c = check_placement(b.data(), b.size(), 0, 16);
  EXPECT_TRUE(c.ok()) << placement_problem(c, 0);
  EXPECT_EQ(c.sampled, 16u);
  EXPECT_EQ(placement_problem(c, 0), "");
}

TEST(NumaPlacement, AskingForAnotherNodeNamesWhereThePagesAre) {
  HostBuffer b(std::size_t{1} << 20, 4096);
  std::memset(b.data(), 1, b.size());
  const int absent = 4095;  // no machine has it; the pages are on some real node
  const PlacementCheck c = check_placement(b.data(), b.size(), absent, 8);
  EXPECT_FALSE(c.ok());
  EXPECT_EQ(c.off_node, 8u);
  EXPECT_GE(c.found_node, 0);
  EXPECT_NE(placement_problem(c, absent).find("8 of 8 sampled pages are not on NUMA node 4095"), std::string::npos);
  EXPECT_NE(bind_to_node(b.data(), b.size(), absent), "");
}

TEST(NumaPlacement, UntouchedPagesAreNotPresent) {
  HostBuffer b(std::size_t{1} << 20, 4096);
  const PlacementCheck c = check_placement(b.data(), b.size(), 0, 4);
  EXPECT_EQ(c.off_node, 4u);
  EXPECT_EQ(c.found_node, -1);
  EXPECT_NE(placement_problem(c, 0).find("the first not present"), std::string::npos);
}

}  // namespace
}  // namespace movebench::node
