#include "beff/beff_output.hpp"

#include <fmt/format.h>
#include <fmt/printf.h>

#include "core/output.hpp"

namespace movebench::net {

// printf's formats, kept (fmt::sprintf): the tests and the peers' readers
// take this text as b_eff and HPCC FPGA print it.

std::string beff_configuration(const BeffConfiguration& c) {
  std::string text = fmt::sprintf("# movebench beff --test: %d ranks, definition %s\n", c.ranks, c.definition);
  if (c.time_budget > 0) {
    text += fmt::sprintf(
        "# fpga schedule (MSize looplength; the most: each is cut to what fills --time-budget %g s, "
        "measured at the run):\n",
        c.time_budget);
  } else {
    text += "# fpga schedule (MSize looplength):\n";
  }
  for (const auto& s : c.fpga_schedule) text += fmt::sprintf("%20llu   %20u\n", 1ull << s.exponent, s.loop_length);
  const std::string sizes = c.hpcc_sizes.empty() ? std::string("1 B .. L_max (memory per process / 128)")
                                                 : fmt::format("{}", fmt::join(c.hpcc_sizes, " "));
  return text + fmt::sprintf("# hpcc sizes: %s\n", sizes);
}

std::string fpga_heading(int ranks) {
  return fmt::sprintf("\n# b_eff, HPCC FPGA definition, %d ranks in a ring\n%20s   %20s   %20s   %20s\n", ranks,
                      "MSize", "looplength", "transfer", "B/s");
}

std::string fpga_row(const FpgaRow& r) {
  return fmt::sprintf("%20llu   %20u   %20.5e   %20.5e\n", static_cast<unsigned long long>(r.bytes), r.loop_length,
                      r.seconds, r.bandwidth);
}

std::string fpga_b_eff(double b_eff) { return fmt::sprintf("\nb_eff = %.5e B/s\n", b_eff); }

std::string hpcc_heading(const HpccPlan& p) {
  std::string names;
  for (const auto& name : p.patterns) names += " " + name;
  return fmt::sprintf(
      "\n# b_eff, HPCC definition (Rabenseifner), %d ranks, L_max %llu B, %zu sizes\n# patterns:%s\n"
      "# methods: Sendrecv, Alltoallv, Isend/Irecv; best of %d repetitions\n",
      p.ranks, static_cast<unsigned long long>(p.lmax), p.sizes, names, p.repetitions);
}

std::string hpcc_figures(const HpccFigures& f) {
  std::string text = fmt::sprintf("%12s   %16s   %16s\n", "L", "ring B/s", "random B/s");
  for (std::size_t i = 0; i < f.sizes.size(); ++i) {
    text +=
        fmt::sprintf("%12llu   %16.5e   %16.5e\n", static_cast<unsigned long long>(f.sizes[i]), f.ring[i], f.random[i]);
  }
  text += fmt::sprintf("\nb_eff (HPCC) = %.5e B/s = %.5e B/s per process (%d ranks)\n", f.b_eff, f.b_eff / f.ranks,
                       f.ranks);
  text += fmt::sprintf("ring average = %.5e B/s, random ring average = %.5e B/s\n", f.ring_average, f.random_average);
  return text + fmt::sprintf("latency (full ring, 1 B, best method) = %.3f us per iteration\n", f.ring_latency_s * 1e6);
}

std::string hpcc_skipped() { return "\n# b_eff, HPCC definition: needs 2 or more ranks; skipped\n"; }

std::string pingpong_line(double latency_us, std::uint64_t lmax, double bandwidth) {
  return fmt::sprintf("ping-pong ranks 0-1: latency (1 B) = %.3f us, bandwidth (%llu B) = %.5e B/s\n", latency_us,
                      static_cast<unsigned long long>(lmax), bandwidth);
}

void BeffWriter::fpga_size(const FpgaRow& r) { send_now(out_, fpga_row(r)); }
void BeffWriter::fpga_end(double b_eff) { send_now(out_, fpga_b_eff(b_eff)); }
void BeffWriter::hpcc_begin(const HpccPlan& p) { send_now(out_, hpcc_heading(p)); }
void BeffWriter::hpcc_end(const HpccFigures& f) { send_now(out_, hpcc_figures(f)); }
void BeffWriter::pingpong(double latency_us, std::uint64_t lmax, double bandwidth) {
  send_now(out_, pingpong_line(latency_us, lmax, bandwidth));
}

void BeffWriter::kernel_ignored(std::string_view file) {
  out_.problem(
      fmt::format("movebench beff: note: -f {} ignored: no FPGA kernel runs, the ranks exchange through MPI "
                  "on the CPUs (HPCC FPGA's cpu_only communication)",
                  file));
}

void BeffWriter::copy_failed(std::string_view file, std::string_view why) {
  out_.problem(fmt::format("movebench beff: error: cannot write the result copy '{}': {}", file, why));
}

}  // namespace movebench::net
