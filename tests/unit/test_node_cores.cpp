// The core matrix's logic on made-up machines: which pairs are measured
// (every pair up to the bound; beyond it each domain's pair, each two
// packages' and a sample), how two CPUs relate, the summary per relation,
// the sibling sets the findings judge, and the budget's split.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <sstream>
#include <string>

#include "core/output.hpp"
#include "node/core_matrix.hpp"
#include "node/core_matrix_output.hpp"
#include "node/core_pairs.hpp"
#include "node/node_cores.hpp"
#include "node/node_parts.hpp"

namespace movebench::node {
namespace {

// `packages` sockets of `l3s` L3 domains of `l2s` L2 domains of `cores`
// cores of `smt` CPUs; CPUs numbered in that order, every id logical.
std::vector<CpuPlace> machine(int packages, int l3s, int l2s, int cores, int smt) {
  std::vector<CpuPlace> out;
  int cpu = 0;
  for (int p = 0; p < packages; ++p)
    for (int l3 = 0; l3 < l3s; ++l3)
      for (int l2 = 0; l2 < l2s; ++l2)
        for (int c = 0; c < cores; ++c)
          for (int t = 0; t < smt; ++t) {
            const int l3_id = p * l3s + l3, l2_id = l3_id * l2s + l2, core_id = l2_id * cores + c;
            out.push_back({cpu++, core_id, l2_id, l3_id, p});
          }
  return out;
}

std::set<Relation> relations_in(const PairPlan& plan) {
  std::set<Relation> out;
  for (const auto& p : plan.pairs) out.insert(p.relation);
  return out;
}

TEST(NodeCores, RelationIsTheClosestSharedDomain) {
  const auto m = machine(2, 2, 2, 2, 2);  // 32 CPUs
  EXPECT_EQ(relation_of(m[0], m[1]), Relation::kSmtSibling);
  EXPECT_EQ(relation_of(m[0], m[2]), Relation::kSameL2);
  EXPECT_EQ(relation_of(m[0], m[4]), Relation::kSameL3);
  EXPECT_EQ(relation_of(m[0], m[8]), Relation::kSameSocket);
  EXPECT_EQ(relation_of(m[0], m[16]), Relation::kOtherSocket);
  // No domain known at all (no hwloc): one socket, nothing closer shared.
  EXPECT_EQ(relation_of(CpuPlace{0}, CpuPlace{1}), Relation::kSameSocket);
  // L2 per core (this VM): two cores of one L3 are same_l3.
  EXPECT_EQ(relation_of({0, 0, 0, 0, 0}, {1, 1, 1, 0, 0}), Relation::kSameL3);
}

TEST(NodeCores, EveryPairUpToTheBound) {
  const auto m = machine(2, 2, 2, 2, 2);  // 32 CPUs
  const PairPlan plan = plan_pairs(m, 32);
  EXPECT_TRUE(plan.every_pair);
  EXPECT_EQ(plan.pairs.size(), 32u * 31 / 2);
  EXPECT_EQ(relations_in(plan).size(), kRelations);
  for (const auto& p : plan.pairs) EXPECT_LT(p.a, p.b);
  // Two CPUs: the one pair.
  const PairPlan two = plan_pairs(machine(1, 1, 1, 2, 1));
  ASSERT_EQ(two.pairs.size(), 1u);
  EXPECT_EQ(two.pairs[0], (CpuPair{0, 1, Relation::kSameL2}));
}

TEST(NodeCores, BeyondTheBoundEachDomainItsPairAndASample) {
  const auto m = machine(2, 4, 4, 2, 2);  // 128 CPUs: 64 cores, 32 L2, 8 L3, 2 packages
  const PairPlan plan = plan_pairs(m, kEveryPairBound, 0);
  EXPECT_FALSE(plan.every_pair);
  // 64 SMT pairs, 32 L2 pairs, 8 L3 pairs, 2 package pairs, 1 pair of packages.
  EXPECT_EQ(plan.pairs.size(), 64u + 32 + 8 + 2 + 1);
  EXPECT_EQ(relations_in(plan).size(), kRelations);
  std::set<int> cores_with_smt_pair;
  for (const auto& p : plan.pairs) {
    if (p.relation == Relation::kSmtSibling) cores_with_smt_pair.insert(m[p.a].core);
  }
  EXPECT_EQ(cores_with_smt_pair.size(), 64u);
  const PairPlan sampled = plan_pairs(m, kEveryPairBound, 100, 7);
  EXPECT_EQ(sampled.pairs.size(), plan.pairs.size() + 100);
  EXPECT_EQ(plan_pairs(m, kEveryPairBound, 100, 7).pairs, sampled.pairs);  // the seed decides
  std::set<std::pair<int, int>> distinct;
  for (const auto& p : sampled.pairs) distinct.insert({p.a, p.b});
  EXPECT_EQ(distinct.size(), sampled.pairs.size());
}

TEST(NodeCores, BoundCountsCpusNotCores) {
  const auto m = machine(1, 1, 1, 33, 2);  // 66 CPUs
  EXPECT_FALSE(plan_pairs(m).every_pair);
  EXPECT_TRUE(plan_pairs(machine(1, 1, 1, 32, 2)).every_pair);
}

PairLatency measured(const std::vector<CpuPlace>& m, int a, int b, double ns) {
  return {{a, b, relation_of(m[a], m[b])}, ns, ns, ""};
}

TEST(NodeCores, SummaryPerRelation) {
  const auto m = machine(2, 1, 1, 2, 1);  // 4 CPUs: 2 per socket
  CoreMatrix cm{m, {}, true};
  cm.pairs = {measured(m, 0, 1, 20),  measured(m, 2, 3, 22),  measured(m, 0, 2, 100),
              measured(m, 0, 3, 110), measured(m, 1, 2, 104), measured(m, 1, 3, 0)};
  cm.pairs.back().failure = "no reply";
  const auto r = summarize_relations(cm);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].relation, Relation::kSameL2);
  EXPECT_EQ(r[0].pairs, 2u);
  EXPECT_DOUBLE_EQ(r[0].median_ns, 21);
  EXPECT_EQ(r[1].relation, Relation::kOtherSocket);
  EXPECT_EQ(r[1].pairs, 3u);  // the failed pair is left out
  EXPECT_DOUBLE_EQ(r[1].median_ns, 104);
  EXPECT_DOUBLE_EQ(r[1].min_ns, 100);
  EXPECT_DOUBLE_EQ(r[1].max_ns, 110);
  EXPECT_DOUBLE_EQ(r[1].mad_ns, 1.4826 * 4);
}

TEST(NodeCores, SiblingSetsPerCpuAndPerDomain) {
  const auto m = machine(1, 4, 2, 1, 1);  // 8 CPUs, 4 L3s of 2 cores with an L2 each
  CoreMatrix cm{m, {}, true};
  for (int l3 = 0; l3 < 4; ++l3) cm.pairs.push_back(measured(m, 2 * l3, 2 * l3 + 1, l3 == 2 ? 60 : 20));
  const auto sets = sibling_sets(cm);
  ASSERT_EQ(sets.size(), 2u);  // same_l3 per CPU (8), per L3 (4)
  EXPECT_EQ(sets[0].kind, "cpu");
  EXPECT_EQ(sets[0].values_ns.size(), 8u);
  EXPECT_EQ(sets[1].kind, "L3");
  EXPECT_EQ(sets[1].names[2], "L3 2");
  EXPECT_EQ(sets[1].values_ns, (std::vector<double>{20, 20, 60, 20}));
  // Fewer than 3 siblings: nothing to judge.
  const auto two = machine(1, 1, 1, 2, 1);
  EXPECT_TRUE(sibling_sets(CoreMatrix{two, {measured(two, 0, 1, 20)}, true}).empty());
}

// The words of the matrix's line that starts with `first`.
std::vector<std::string> row_of(const std::string& text, const std::string& first) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> row{std::istream_iterator<std::string>(words), {}};
    if (!row.empty() && row.front() == first) return row;
  }
  return {};
}

TEST(NodeCores, MatrixTextHasEveryCpuAndMarksTheUnmeasured) {
  const auto m = machine(1, 1, 1, 3, 1);
  CoreMatrix cm{m, {measured(m, 0, 1, 21.5), measured(m, 1, 2, 30)}, false};
  CapturedOutput out;
  write_core_matrix(out, cm);
  EXPECT_EQ(row_of(out.out, "CPU"), (std::vector<std::string>{"CPU", "0", "1", "2"})) << out.out;
  EXPECT_EQ(row_of(out.out, "0"), (std::vector<std::string>{"0", "-", "21.5", "-"})) << out.out;
  EXPECT_EQ(row_of(out.out, "2"), (std::vector<std::string>{"2", "-", "30", "-"})) << out.out;
  write_relations(out, summarize_relations(cm));
  EXPECT_EQ(row_of(out.out, "same_l2"), (std::vector<std::string>{"same_l2", "2", "25.75", "21.5", "30", "6.301"}))
      << out.out;
}

// Every pair of 8 CPUs, 4 L3s of 2 cores: same_l3 pairs at `l3_ns` per L3,
// the others (same_socket) at 100 ns.
CoreMatrix four_l3s(const std::vector<double>& l3_ns) {
  const auto m = machine(1, 4, 2, 1, 1);
  CoreMatrix cm{m, {}, true};
  for (int a = 0; a < 8; ++a) {
    for (int b = a + 1; b < 8; ++b) cm.pairs.push_back(measured(m, a, b, m[a].l3 == m[b].l3 ? l3_ns[a / 2] : 100));
  }
  return cm;
}

std::vector<std::string> endpoints_named(const CoreMatrix& cm) {
  NodeOptions opt;
  Report report{"node", {}, {}};
  CapturedOutput out;
  NodeContext ctx{opt, report, out, {}, {}, 0, {}};
  judge_cores(ctx, sibling_sets(cm));
  std::vector<std::string> names;
  for (const auto& f : ctx.findings) names.push_back(f.endpoint);
  return names;
}

TEST(NodeCores, TheSlowDomainAndItsCpusAreNamedNothingElse) {
  const auto named = endpoints_named(four_l3s({20, 21, 60, 20}));
  EXPECT_EQ(named, (std::vector<std::string>{"cpu 4 (core 4, L2 4, L3 2, socket 0)",
                                             "cpu 5 (core 5, L2 5, L3 2, socket 0)", "L3 2"}));
  EXPECT_TRUE(endpoints_named(four_l3s({20, 21, 20, 20})).empty());
}

TEST(NodeCores, BudgetSplitsIntoBoundedBlocks) {
  const PingPong one = ping_pong_for(2, 1);  // 1.4 s timed: the most blocks, the longest
  EXPECT_EQ(one.blocks, kMostBlocks);
  EXPECT_DOUBLE_EQ(one.block_seconds, kBlockMostSeconds);
  const PingPong many = ping_pong_for(2, 2016);  // 0.7 ms per pair: the least blocks, shorter
  EXPECT_EQ(many.blocks, kLeastBlocks);
  EXPECT_LE(many.blocks * many.block_seconds, 0.7 * 2 / 2016 * 1.0001);
}

}  // namespace
}  // namespace movebench::node
