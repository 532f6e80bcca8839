// What beff's two definitions hand their writer, and the writer: --test's
// configuration, HPCC FPGA's table and b_eff line, Rabenseifner's heading,
// table per size and summary, the ping-pong line, as functions of those
// results (beff_command.cpp, beff_fpga.cpp and beff_hpcc.cpp print
// nothing). Rank 0 calls it.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/output.hpp"
#include "beff/beff_logic.hpp"

namespace movebench::net {

// --test: what a run would do. `hpcc_sizes` empty: L_max is the job's
// (known only once MPI runs).
struct BeffConfiguration {
  int ranks = 0;
  std::string definition;
  double time_budget = 0;  // fpga's loop lengths are cut to it when above 0
  std::vector<FpgaStep> fpga_schedule;
  std::vector<std::uint64_t> hpcc_sizes;
};
std::string beff_configuration(const BeffConfiguration& c);

// HPCC FPGA: one size, the slowest rank's best repetition.
struct FpgaRow {
  std::uint64_t bytes = 0;
  unsigned loop_length = 0;
  double seconds = 0, bandwidth = 0;  // B/s
};
std::string fpga_heading(int ranks);
std::string fpga_row(const FpgaRow& r);
std::string fpga_b_eff(double b_eff);

// Rabenseifner's: what is measured, then the figures.
struct HpccPlan {
  int ranks = 0;
  std::uint64_t lmax = 0;
  std::size_t sizes = 0;
  std::vector<std::string> patterns;  // "ring-2", "random-1"
  int repetitions = 0;
};
struct HpccFigures {
  int ranks = 0;
  std::vector<std::uint64_t> sizes;
  std::vector<double> ring, random;  // per size: the geometric mean over the patterns, B/s
  double b_eff = 0, ring_average = 0, random_average = 0;
  double ring_latency_s = 0;  // full ring, 1 B, best method, per iteration
};
std::string hpcc_heading(const HpccPlan& p);
std::string hpcc_figures(const HpccFigures& f);
std::string hpcc_skipped();
// Ranks 0 and 1: latency at 1 B (us) and bandwidth at L_max (B/s).
std::string pingpong_line(double latency_us, std::uint64_t lmax, double bandwidth);

// Where the earlier printf flushed, the piece leaves at once
// (send_now, core/output.hpp): the rows, and what ends a phase.
class BeffWriter {
 public:
  explicit BeffWriter(Output& out) : out_(out) {}
  void configuration(const BeffConfiguration& c) { out_.text(beff_configuration(c)); }
  void fpga_begin(int ranks) { out_.text(fpga_heading(ranks)); }
  void fpga_size(const FpgaRow& r);
  void fpga_end(double b_eff);
  void hpcc_begin(const HpccPlan& p);
  void hpcc_end(const HpccFigures& f);
  void hpcc_skip() { out_.text(hpcc_skipped()); }
  void pingpong(double latency_us, std::uint64_t lmax, double bandwidth);
  // -f names a kernel file that no run uses.
  void kernel_ignored(std::string_view file);
  void copy_failed(std::string_view file, std::string_view why);

 private:
  Output& out_;
};

}  // namespace movebench::net
