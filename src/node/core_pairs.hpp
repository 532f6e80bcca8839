// Which pairs of CPUs the core matrix measures, and how two CPUs relate
// (SMT sibling, same L2, same L3, same socket, other socket). Pure logic on
// a topology given as data (core_topology reads the machine's from hwloc),
// so that the selection is unit-tested on made-up machines of any size.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace movebench::node {

// The closest cache domain two CPUs share, closest first.
enum class Relation { kSmtSibling, kSameL2, kSameL3, kSameSocket, kOtherSocket };
inline constexpr std::size_t kRelations = 5;

// "smt_sibling", "same_l2", "same_l3", "same_socket", "other_socket": the
// records' `relation` and the text's summary rows.
std::string_view relation_name(Relation r);

// Where one CPU (a hardware thread, hwloc's PU) sits: the logical index of
// its core, L2, L3 and package; -1 where the machine has no such domain
// (no L3: two CPUs sharing nothing closer are "same socket").
struct CpuPlace {
  int cpu = 0;
  int core = -1, l2 = -1, l3 = -1, package = -1;
};

Relation relation_of(const CpuPlace& a, const CpuPlace& b);

struct CpuPair {
  int a = 0, b = 0;  // CPU numbers (CpuPlace::cpu), a < b
  Relation relation = Relation::kOtherSocket;
  bool operator==(const CpuPair&) const = default;
};

// Every pair up to this many CPUs (c2clat and core-to-core-latency measure
// all pairs; 64 CPUs are 2016 pairs).
inline constexpr std::size_t kEveryPairBound = 64;
// Beyond it, this many pairs drawn at random besides the domains' own.
inline constexpr std::size_t kSampledPairs = 256;

struct PairPlan {
  std::vector<CpuPair> pairs;  // sorted by (a, b), no pair twice
  bool every_pair = true;      // false: the domains' pairs and a sample
};

// Up to `bound` CPUs, every pair. Beyond, per domain one pair that spans it
// (each core's first two CPUs, each L2's first CPUs of two cores, each L3's
// of two L2s, each package's of two L3s), one pair per two packages (their
// first CPUs) and `sampled` more pairs drawn from `seed`: O(CPUs +
// packages^2 + sampled) pairs, each relation the machine has measured.
PairPlan plan_pairs(const std::vector<CpuPlace>& cpus, std::size_t bound = kEveryPairBound,
                    std::size_t sampled = kSampledPairs, std::uint64_t seed = 1);

// Where CPU `cpu` is in `cpus`; nullopt when it is not there.
std::optional<std::size_t> place_index(const std::vector<CpuPlace>& cpus, int cpu);

// "cpu 5 (core 2, L2 2, L3 0, socket 0)" for the findings.
std::string place_text(const CpuPlace& p);

}  // namespace movebench::node
