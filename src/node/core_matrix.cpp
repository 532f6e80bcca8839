#include "node/core_matrix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <utility>

namespace movebench::node {
namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The MAD times this estimates the standard deviation of normal data.
constexpr double kMadToSigma = 1.4826;

RelationSummary summary_of(Relation r, const std::vector<double>& values) {
  RelationSummary s;
  s.relation = r;
  s.pairs = values.size();
  s.median_ns = median_of(values);
  s.min_ns = *std::min_element(values.begin(), values.end());
  s.max_ns = *std::max_element(values.begin(), values.end());
  std::vector<double> deviations;
  for (double v : values) deviations.push_back(std::abs(v - s.median_ns));
  s.mad_ns = kMadToSigma * median_of(std::move(deviations));
  return s;
}

// The domain of a level that holds both CPUs of a pair of the relation
// that spans it, by the relation.
struct DomainOf {
  Relation relation;
  const char* kind;
  int CpuPlace::*id;
};
constexpr DomainOf kDomains[] = {{Relation::kSmtSibling, "core", &CpuPlace::core},
                                 {Relation::kSameL2, "L2", &CpuPlace::l2},
                                 {Relation::kSameL3, "L3", &CpuPlace::l3},
                                 {Relation::kSameSocket, "socket", &CpuPlace::package}};

void add_set(std::vector<Siblings>& out, Relation r, std::string kind, const std::map<int, std::vector<double>>& by,
             const std::function<std::string(int)>& name) {
  if (by.size() < 3) return;
  Siblings s{r, std::move(kind), {}, {}};
  for (const auto& [key, values] : by) {
    s.names.push_back(name(key));
    s.values_ns.push_back(median_of(values));
  }
  out.push_back(std::move(s));
}

}  // namespace

std::vector<RelationSummary> summarize_relations(const CoreMatrix& m) {
  std::array<std::vector<double>, kRelations> by;
  for (const auto& p : m.pairs) {
    if (p.failure.empty()) by[static_cast<std::size_t>(p.pair.relation)].push_back(p.one_way_ns);
  }
  std::vector<RelationSummary> out;
  for (std::size_t r = 0; r < kRelations; ++r) {
    if (!by[r].empty()) out.push_back(summary_of(static_cast<Relation>(r), by[r]));
  }
  return out;
}

std::vector<Siblings> sibling_sets(const CoreMatrix& m) {
  std::vector<Siblings> out;
  for (std::size_t r = 0; r < kRelations; ++r) {
    const auto relation = static_cast<Relation>(r);
    std::map<int, std::vector<double>> per_cpu, per_domain;
    const DomainOf* domain = r < std::size(kDomains) ? &kDomains[r] : nullptr;
    for (const auto& p : m.pairs) {
      if (!p.failure.empty() || p.pair.relation != relation) continue;
      per_cpu[p.pair.a].push_back(p.one_way_ns);
      per_cpu[p.pair.b].push_back(p.one_way_ns);
      if (domain) {
        const auto at = place_index(m.cpus, p.pair.a);
        if (at && m.cpus[*at].*domain->id >= 0) per_domain[m.cpus[*at].*domain->id].push_back(p.one_way_ns);
      }
    }
    add_set(out, relation, "cpu", per_cpu, [&](int cpu) {
      const auto at = place_index(m.cpus, cpu);
      return at ? place_text(m.cpus[*at]) : fmt::format("cpu {}", cpu);
    });
    if (domain)
      add_set(out, relation, domain->kind, per_domain, [&](int id) { return fmt::format("{} {}", domain->kind, id); });
  }
  return out;
}

}  // namespace movebench::node
