#include "node/core_matrix_output.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "core/figure.hpp"
#include "node/node_findings.hpp"

namespace movebench::node {

void write_core_matrix(Output& out, const CoreMatrix& m) {
  Matrix matrix;
  matrix.title =
      fmt::format("Core-to-core latency, ns (one way: half the median round trip of a pair's timed blocks{})",
                  m.every_pair ? "" : "; beyond the bound each domain's pair and a sample, - not measured");
  matrix.corner = "CPU";
  std::map<std::pair<int, int>, double> cell;
  for (const auto& p : m.pairs) {
    if (!p.failure.empty()) continue;
    cell[{p.pair.a, p.pair.b}] = p.one_way_ns;
    cell[{p.pair.b, p.pair.a}] = p.one_way_ns;
  }
  for (const auto& row : m.cpus) {
    matrix.rows.push_back(std::to_string(row.cpu));
    matrix.columns.push_back(std::to_string(row.cpu));
    auto& cells = matrix.cells.emplace_back();
    for (const auto& col : m.cpus) {
      const auto it = cell.find({row.cpu, col.cpu});
      cells.push_back(it == cell.end() ? std::nullopt : std::optional<double>(it->second));
    }
  }
  out.text(matrix_text(matrix));
}

void write_relations(Output& out, const std::vector<RelationSummary>& relations) {
  out.text(fmt::format("\n{:<14} {:>6} {:>10} {:>10} {:>10} {:>10}\n", "relation", "pairs", "median ns", "min ns",
                       "max ns", "MAD ns"));
  for (const auto& r : relations) {
    out.text(fmt::format("{:<14} {:>6} {:>10} {:>10} {:>10} {:>10}\n", relation_name(r.relation), r.pairs,
                         significant_text(r.median_ns), significant_text(r.min_ns), significant_text(r.max_ns),
                         significant_text(r.mad_ns)));
  }
}

}  // namespace movebench::node
