#include "node/core_pairs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <random>
#include <set>
#include <utility>

namespace movebench::node {
namespace {

bool shared(int a, int b) { return a >= 0 && a == b; }

// The domain of one level of the hierarchy: its id in a CpuPlace, and the
// relation of two of its CPUs that no smaller domain holds together.
struct Level {
  int CpuPlace::*id;
  Relation spans;
};
constexpr std::array<Level, 4> kLevels = {{{&CpuPlace::core, Relation::kSmtSibling},
                                           {&CpuPlace::l2, Relation::kSameL2},
                                           {&CpuPlace::l3, Relation::kSameL3},
                                           {&CpuPlace::package, Relation::kSameSocket}}};

CpuPair pair_of(const CpuPlace& x, const CpuPlace& y) {
  return {std::min(x.cpu, y.cpu), std::max(x.cpu, y.cpu), relation_of(x, y)};
}

// Per domain of each level, its first CPU and the first CPU of another of
// its subdomains (the pair that spans it).
void add_domain_pairs(const std::vector<CpuPlace>& cpus, std::map<std::pair<int, int>, CpuPair>& out) {
  for (const Level& level : kLevels) {
    std::map<int, std::size_t> first;  // domain id -> index of its first CPU
    std::set<int> done;
    for (std::size_t i = 0; i < cpus.size(); ++i) {
      const int id = cpus[i].*level.id;
      if (id < 0 || done.contains(id)) continue;
      const auto [it, fresh] = first.emplace(id, i);
      if (fresh || relation_of(cpus[it->second], cpus[i]) != level.spans) continue;
      const CpuPair p = pair_of(cpus[it->second], cpus[i]);
      out.emplace(std::pair{p.a, p.b}, p);
      done.insert(id);
    }
  }
}

// One pair per two packages: their first CPUs.
void add_package_pairs(const std::vector<CpuPlace>& cpus, std::map<std::pair<int, int>, CpuPair>& out) {
  std::map<int, std::size_t> first;
  for (std::size_t i = 0; i < cpus.size(); ++i) first.emplace(cpus[i].package, i);
  for (auto x = first.begin(); x != first.end(); ++x) {
    for (auto y = std::next(x); y != first.end(); ++y) {
      const CpuPair p = pair_of(cpus[x->second], cpus[y->second]);
      out.emplace(std::pair{p.a, p.b}, p);
    }
  }
}

void add_sampled_pairs(const std::vector<CpuPlace>& cpus, std::size_t sampled, std::uint64_t seed,
                       std::map<std::pair<int, int>, CpuPair>& out) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, cpus.size() - 1);
  std::size_t added = 0;
  // Bounded tries: a draw that repeats a pair (or a CPU with itself) is lost.
  for (std::size_t tries = 0; added < sampled && tries < 8 * sampled; ++tries) {
    const std::size_t i = pick(rng), j = pick(rng);
    if (i == j) continue;
    const CpuPair p = pair_of(cpus[i], cpus[j]);
    if (out.emplace(std::pair{p.a, p.b}, p).second) ++added;
  }
}

}  // namespace

std::string_view relation_name(Relation r) {
  switch (r) {
    case Relation::kSmtSibling: return "smt_sibling";
    case Relation::kSameL2: return "same_l2";
    case Relation::kSameL3: return "same_l3";
    case Relation::kSameSocket: return "same_socket";
    case Relation::kOtherSocket: return "other_socket";
  }
  return "?";
}

Relation relation_of(const CpuPlace& a, const CpuPlace& b) {
  if (shared(a.core, b.core)) return Relation::kSmtSibling;
  if (shared(a.l2, b.l2)) return Relation::kSameL2;
  if (shared(a.l3, b.l3)) return Relation::kSameL3;
  // An unknown package (-1 on both) is one machine's one socket.
  if (a.package == b.package) return Relation::kSameSocket;
  return Relation::kOtherSocket;
}

PairPlan plan_pairs(const std::vector<CpuPlace>& cpus, std::size_t bound, std::size_t sampled, std::uint64_t seed) {
  PairPlan plan;
  plan.every_pair = cpus.size() <= bound;
  std::map<std::pair<int, int>, CpuPair> pairs;
  if (plan.every_pair) {
    for (std::size_t i = 0; i < cpus.size(); ++i) {
      for (std::size_t j = i + 1; j < cpus.size(); ++j) {
        const CpuPair p = pair_of(cpus[i], cpus[j]);
        pairs.emplace(std::pair{p.a, p.b}, p);
      }
    }
  } else {
    add_domain_pairs(cpus, pairs);
    add_package_pairs(cpus, pairs);
    add_sampled_pairs(cpus, sampled, seed, pairs);
  }
  for (const auto& [key, p] : pairs) plan.pairs.push_back(p);
  return plan;
}

std::optional<std::size_t> place_index(const std::vector<CpuPlace>& cpus, int cpu) {
  for (std::size_t i = 0; i < cpus.size(); ++i) {
    if (cpus[i].cpu == cpu) return i;
  }
  return std::nullopt;
}

std::string place_text(const CpuPlace& p) {
  const auto part = [](std::string_view name, int id) {
    return id < 0 ? std::string() : fmt::format(", {} {}", name, id);
  };
  std::string where = part("core", p.core) + part("L2", p.l2) + part("L3", p.l3) + part("socket", p.package);
  if (where.empty()) return fmt::format("cpu {}", p.cpu);
  return fmt::format("cpu {} ({})", p.cpu, where.substr(2));
}

}  // namespace movebench::node
