// The two b_eff definitions `movebench beff` runs (docs/beff.md).
#pragma once
#include <cstdint>
#include <string>
#include <utility>

#include "core/report.hpp"
#include "beff/beff_output.hpp"
#include "net/mpi_env.hpp"

namespace movebench::net {

// What both definitions need from the command.
struct BeffContext {
  Report& report;
  Watchdog& dog;
  BeffWriter& out;  // rank 0's text
  double step_timeout = 120;
  FailMode fail = FailMode::kNone;
  bool validate = true;
  bool check_every = false;  // -C: every iteration of a loop length, not one exchange
};

// HPCC FPGA's b_eff variant, on CPUs: every rank exchanges 2^e bytes
// with both ring neighbours, loop_length times, repetitions times.
struct FpgaOptions {
  unsigned max_ll = 65536, min_ll = 256, offset = 11, decrease = 7;
  unsigned min_exp = 0, max_exp = 20;
  int repetitions = 10;
  // Seconds one timed loop (one channel of one repetition) aims at: the
  // schedule's loop length of a size, cut to what fills it at the time per
  // exchange a probe measures (at least 1). 0: the schedule uncut (HPCC
  // FPGA's fixed loop lengths).
  double time_budget = 5e-3;
};
// Writes HPCC FPGA's table and `b_eff = ... B/s`. False when stopped early.
bool run_fpga(const FpgaOptions& o, BeffContext& ctx);

// Rabenseifner's b_eff as in the HPC Challenge suite.
struct HpccOptions {
  std::uint64_t lmax = 0;  // 0: memory per process / 128, at most 128 MiB
  int random_patterns = 3;
  unsigned max_ll = 300;
  double target_s = 5e-3;  // time of one measurement the loop length aims at
  int repetitions = 3;
  std::uint64_t seed = 1;
};
bool run_hpcc(const HpccOptions& o, BeffContext& ctx);
// The default L_max on this job: the smallest memory per process / 128.
std::uint64_t hpcc_job_lmax();

// Shared by both: the largest over ranks of `value`, on every rank.
double max_over_ranks(double value);

// Both definitions' bandwidths and the b_eff built from them: the bytes of
// every message of every rank, to both ring neighbours, over the least time
// (HPCC: of the slowest rank's; HPCC FPGA: the slowest rank's least), in
// B/s as both print them.
inline Figure beff_bandwidth(std::string name, double bytes_per_second) {
  return Figure::bandwidth(std::move(name), bytes_per_second, Stat::kMin, Of::kTime, application_bytes(2), Scale::kOne);
}

}  // namespace movebench::net
