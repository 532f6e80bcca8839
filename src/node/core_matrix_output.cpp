#include "node/core_matrix_output.hpp"

#include <fmt/format.h>

#include <map>
#include <utility>

#include "core/figure.hpp"

namespace movebench::node {

void write_core_matrix(Output& out, const CoreMatrix& m, int blocks) {
  out.text(fmt::format("Core-to-core latency (ns, one way: half the median round trip of {} timed blocks{})\n", blocks,
                       m.every_pair ? "" : "; beyond the bound, each domain's pair and a sample: . not measured"));
  std::map<std::pair<int, int>, double> cell;
  for (const auto& p : m.pairs) {
    if (!p.failure.empty()) continue;
    cell[{p.pair.a, p.pair.b}] = p.one_way_ns;
    cell[{p.pair.b, p.pair.a}] = p.one_way_ns;
  }
  std::string line = fmt::format("{:>5}", "CPU");
  for (const auto& c : m.cpus) line += fmt::format(" {:>7}", c.cpu);
  out.text(line + "\n");
  for (const auto& row : m.cpus) {
    line = fmt::format("{:>5}", row.cpu);
    for (const auto& col : m.cpus) {
      const auto it = cell.find({row.cpu, col.cpu});
      const std::string text = row.cpu == col.cpu ? "-" : it == cell.end() ? "." : significant_text(it->second);
      line += fmt::format(" {:>7}", text);
    }
    out.text(line + "\n");
  }
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
