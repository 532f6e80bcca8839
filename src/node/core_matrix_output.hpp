// The core matrix's text, from what it measured (core_matrix.hpp) alone:
// the matrix (rows and columns CPUs, one-way latency in ns, as c2clat
// prints it), then the summary per relation.
#pragma once
#include <vector>

#include "core/output.hpp"
#include "node/core_matrix.hpp"

namespace movebench::node {

// "." where a pair was not measured (a sample beyond the bound, a failure),
// "-" on the diagonal.
void write_core_matrix(Output& out, const CoreMatrix& m, int blocks);
void write_relations(Output& out, const std::vector<RelationSummary>& relations);

}  // namespace movebench::node
