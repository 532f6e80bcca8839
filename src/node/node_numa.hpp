// The numa part's matrices and how they are judged, apart from how they are
// measured (node_numa.cpp), so that unit tests give them figures.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/figure.hpp"
#include "node/node_parts.hpp"

namespace movebench::node {

// One initiator x target cell: read-only (sum) and triad bandwidth in
// MB/s, the chase's latency in ns; none where not measured. Each with the
// relative spread of its repeated samples (judge::relative_spread of the
// rounds' call times, of the chase's samples, one a round: see
// measure_in_rounds): the noise the sibling rule allows for.
// And each figure in each round (the round's call or chase sample as that
// figure: MB/s, ns), round r of every cell taken in the same round, so
// siblings are judged round by round (node_findings.hpp).
struct Cell {
  std::optional<double> sum, triad, latency;
  std::optional<double> sum_spread{}, triad_spread{}, latency_spread{};
  std::vector<double> sum_rounds{}, triad_rounds{}, latency_rounds{};
};

// How the cells are measured: in rounds, every cell once a round (one sum
// and one triad call; one sample of the chase), round r starting at cell r
// mod n (A B C, B C A, C A B, ...), so that a burst of noise (the VM, other
// load) lands on one round of every cell rather than on every round of one
// cell, and drift in time shows in every cell's spread alike. At least
// kLeastRounds; as many as `seconds` holds, sized by core's calls_to_fill
// from the first round (within the budget), fewer when later rounds are
// slower (a round begins only when one more at the pace so far fits); at
// most kMostRounds.
// `measure(i)` takes one more sample of cell i and returns false when a
// signal asks to stop (no more rounds). Returns the rounds completed.
inline constexpr int kLeastRounds = 5, kMostRounds = 20;
int measure_in_rounds(std::size_t cells, double seconds, const std::function<bool(std::size_t)>& measure);

struct NumaGrid {
  std::vector<int> initiators;             // NUMA nodes (os numbers) with CPUs, the rows
  std::vector<int> targets;                // every NUMA node, the columns
  std::vector<std::vector<Cell>> cells;    // [row][column]
  std::vector<std::vector<int>> distance;  // [row][column]: the SLIT distance, 0 unknown

  // The initiator's own node's cell (its local memory); none when absent.
  const Cell* local(std::size_t row) const;
};

// MLC's three matrices (read, triad, latency) and the NUMA factor of each
// pair (local over remote bandwidth, remote over local latency).
std::string numa_matrices_text(const NumaGrid& grid);

// Each initiator's local triad against its node's DRAM peak (the facts'
// numa_node_peaks, by mem's band), each initiator's local bandwidth and
// latency against its sibling nodes', and each pair's NUMA factor against
// the other pairs at the same distance (node_findings.hpp), allowing for the
// cells' measured spread (a factor's: its two cells' spreads added). Also
// writes the factors to the result document.
void judge_numa(NodeContext& ctx, const NumaGrid& grid);

// The part's headlines, each the median over the initiators of a kernel's
// figure: `node.numa.local.<kernel>` of each initiator's own node's cell,
// `node.numa.remote.<kernel>` of every other cell (none on one node);
// kernel sum and triad (MB/s), chase (ns). `movebench run` shows them and
// fleet's node step compares them across units (node_step.hpp).
std::vector<Figure> numa_headlines(const NumaGrid& grid);

// The DRAM peak (bytes/s) of NUMA node `node` from a document's facts: its
// socket's numa_node_peaks; none when not known (no SMBIOS, sub-NUMA
// clustering).
std::optional<double> node_dram_peak(const nlohmann::json& facts, int node);

// The default --array-bytes: four times the last-level cache that serves
// one NUMA node's cores (the machine's over the nodes with CPUs), at least
// 64 MiB, so that every cell streams from memory.
inline constexpr std::uint64_t kLeastNumaArrayBytes = std::uint64_t{64} << 20;
std::uint64_t default_numa_bytes(std::uint64_t llc_bytes_in_all, std::size_t nodes_with_cpus);
// The same from this machine's caches (hwloc's last level, all instances).
std::uint64_t machine_numa_bytes(std::size_t nodes_with_cpus);

}  // namespace movebench::node
