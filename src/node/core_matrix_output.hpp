// The core matrix's text, from what it measured (core_matrix.hpp) alone:
// the matrix (rows and columns CPUs, one-way latency in ns, as c2clat
// prints it; node_findings' matrix_text lays it out), then the summary per
// relation.
#pragma once
#include <vector>

#include "core/output.hpp"
#include "node/core_matrix.hpp"

namespace movebench::node {

// "-" on the diagonal and where a pair was not measured (beyond the bound,
// a failure).
void write_core_matrix(Output& out, const CoreMatrix& m);
void write_relations(Output& out, const std::vector<RelationSummary>& relations);

}  // namespace movebench::node
