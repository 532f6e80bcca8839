// What the core matrix measured, and what is made of it without measuring:
// the summary per relation and the findings (a CPU, or a cache domain,
// whose latency to its siblings is worse than its peers'). Unit-tested on
// made-up results.
#pragma once
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "node/core_pairs.hpp"

namespace movebench::node {

struct PairLatency {
  CpuPair pair;
  double one_way_ns = 0;      // half the median round trip of the pair's blocks
  double one_way_min_ns = 0;  // half the least (c2clat's statistic)
  std::string failure;        // not empty: not measured, and why
};

struct CoreMatrix {
  std::vector<CpuPlace> cpus;  // the endpoints, in the matrix's order
  std::vector<PairLatency> pairs;
  bool every_pair = true;
};

// One relation's pairs: how many, the median of their figures and their
// spread (min, max, MAD scaled to sigma, as fleet's rule reads it).
struct RelationSummary {
  Relation relation = Relation::kSmtSibling;
  std::size_t pairs = 0;
  double median_ns = 0, min_ns = 0, max_ns = 0, mad_ns = 0;
};
// The relations that have measured pairs, closest first.
std::vector<RelationSummary> summarize_relations(const CoreMatrix& m);

// One set of siblings judged: what each is (a CPU, or a domain), its figure
// (the median of its pairs of one relation), and which relation.
struct Siblings {
  Relation relation = Relation::kSmtSibling;
  std::string kind;                // "cpu" or the domain: "core", "L2", "L3", "socket"
  std::vector<std::string> names;  // place_text of a CPU, "L3 2" of a domain
  std::vector<double> values_ns;
};
// Per relation: each CPU's median to its partners of that relation; each
// domain's median over its own pairs of the relation that spans it (each
// core's SMT pairs, each L2's same-L2 pairs ...). Sets of fewer than 3 are
// left out (no majority to compare with).
std::vector<Siblings> sibling_sets(const CoreMatrix& m);

}  // namespace movebench::node
