// The whole node's core matrix (issue 27): the cache-line round trip
// between CPUs, every pair up to kEveryPairBound CPUs, beyond it each cache
// domain's pair and a sample; summarised per relation and judged (a CPU or
// domain slower to its siblings than its peers is named).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/output.hpp"
#include "core/report.hpp"
#include "node/core_latency.hpp"
#include "node/core_matrix.hpp"
#include "node/core_pairs.hpp"

namespace movebench::node {

// How a budget is spent: each pair gets an equal share of most of it, in
// blocks of at most kBlockMostSeconds (short enough that a timeslice of
// another process lands in few of them: the median steps over those),
// kLeastBlocks to kMostBlocks of them planned; on a loaded machine, where
// blocks last longer than planned, no block begins past the pair's share
// once PingPong::least_blocks are timed.
inline constexpr double kBlockMostSeconds = 200e-6;
inline constexpr int kLeastBlocks = 21;
inline constexpr int kMostBlocks = 2001;
PingPong ping_pong_for(double budget_seconds, std::size_t pairs);

struct CoresRequest {
  std::vector<int> cpus;  // the endpoints (--cpus, else the allowed CPUs), at least 2
  double budget_seconds = 2;
  std::uint64_t seed = 1;  // the sample of pairs beyond the bound (--seed)
  // Every pair up to this many CPUs; beyond, the domains' pairs and
  // `sampled` drawn at random (--core-sample N: bound 0, N drawn).
  std::size_t every_pair_bound = kEveryPairBound;
  std::size_t sampled = kSampledPairs;
};

struct CoresRun {
  CoreMatrix matrix;
  std::vector<RelationSummary> relations;
  std::vector<Siblings> siblings;  // what the findings judge
  PingPong how;
};

// Measures every planned pair (each one record, node.cores), adds the
// per-relation results (node.cores.<relation>), prints the matrix and the
// summary. A pair that fails is a run error (errors["node.cores.A-B"]).
CoresRun run_core_matrix(const CoresRequest& request, Report& report, Output& out);

struct NodeContext;
// Each sibling set (a relation's CPUs, its domains) judged by node_findings'
// one rule, each finding kept in ctx.
void judge_cores(NodeContext& ctx, const std::vector<Siblings>& sets);

}  // namespace movebench::node
