// The parts of `movebench beff` that need no MPI: both definitions'
// message sizes and loop lengths, the communication patterns, and the
// formulas (docs/beff.md).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace movebench::net {

// ---- HPCC FPGA's b_eff ----
struct FpgaStep {
  unsigned exponent;     // message size 2^exponent bytes
  unsigned loop_length;  // exchanges per timed run
};
// HPCC FPGA's schedule: loop length max_ll up to exponent `offset`, then
// smaller by (max_ll - min_ll) / decrease per exponent, never below min_ll.
std::vector<FpgaStep> fpga_schedule(unsigned min_exp, unsigned max_exp, unsigned max_ll, unsigned min_ll,
                                    unsigned offset, unsigned decrease);
// HPCC FPGA's figure: every rank sends `bytes` to both ring neighbours
// (two "channels") loop_length times within `seconds` (the largest over
// ranks of each rank's best repetition).
double fpga_bandwidth(int ranks, std::uint64_t bytes, unsigned loop_length, double seconds);

// ---- Rabenseifner's b_eff (HPCC) ----
// 1 B to 4 KiB by doubling, then eight geometric steps to lmax (fewer
// sizes when lmax is below 4 KiB).
std::vector<std::uint64_t> hpcc_sizes(std::uint64_t lmax);
// memory per process / 128, at most 128 MiB, at least 1 B.
std::uint64_t hpcc_default_lmax(std::uint64_t memory_per_process);

// A pattern: for every rank, its left and right neighbour (equal in a ring
// of two). Every rank is in exactly one ring of at least two ranks.
struct Neighbours {
  int left = 0, right = 0;
};
using Pattern = std::vector<Neighbours>;
// Consecutive rings of `ring_size` ranks; a last ring that would hold a
// single rank joins the ring before it.
Pattern ring_pattern(int ranks, int ring_size);
// One ring through all ranks in the order `order` (a permutation).
Pattern ring_from_order(const std::vector<int>& order);
// A pseudo-random permutation of 0..ranks-1 (splitmix64 driven
// Fisher-Yates, the same on every machine).
std::vector<int> random_order(int ranks, std::uint64_t seed);
// Ring sizes of the ring patterns: 2, 4, 8 ... below `ranks`, then
// `ranks` itself; at most six, the largest kept.
std::vector<int> ring_sizes(int ranks);

// L * messages * loop_length / seconds.
double pattern_bandwidth(std::uint64_t bytes, int messages, unsigned loop_length, double seconds);
// Next loop length: what fills target_s at the measured time per
// iteration, between 1 and max_ll.
unsigned next_loop_length(double seconds_per_iteration, double target_s, unsigned max_ll);
double geometric_mean(std::span<const double> values);
double arithmetic_mean(std::span<const double> values);

}  // namespace movebench::net
