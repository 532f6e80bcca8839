// HPCC FPGA's b_eff (cpu_only communication) on MPI: a ring in
// which every rank sends to its right neighbour and receives from its left
// one ("channel" 0), then the other way round (channel 1). Unlike HPCC
// FPGA's pairing of even and odd ranks, a ring works for odd rank counts.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/buffer.hpp"
#include "core/clock.hpp"
#include "core/sizes.hpp"
#include "core/stats.hpp"
#include "beff/beff.hpp"
#include "beff/beff_logic.hpp"
#include "net/message_pattern.hpp"

namespace movebench::net {
namespace {

struct Ring {
  int left, right;
};

Ring world_ring() {
  const int r = world_rank(), n = world_size();
  return {(r + n - 1) % n, (r + 1) % n};
}

// One repetition: both channels, each loop_length exchanges; seconds.
double one_repetition(const Ring& ring, std::byte* send, std::byte* recv, std::uint64_t bytes, unsigned ll) {
  double total = 0;
  const int n = static_cast<int>(bytes);
  for (unsigned channel = 0; channel < 2; ++channel) {
    const int to = channel == 0 ? ring.right : ring.left;
    const int from = channel == 0 ? ring.left : ring.right;
    std::byte* s = send + channel * bytes;
    std::byte* r = recv + channel * bytes;
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = now_seconds();
    for (unsigned l = 0; l < ll; ++l) {
      MPI_Sendrecv(s, n, MPI_BYTE, to, 0, r, n, MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    total += now_seconds() - t0;
  }
  return total;
}

// Untimed: `passes` exchanges per channel, each with data of its own
// (sender, channel, size, iteration) into a cleared buffer, then compared.
std::string check_exchange(const Ring& ring, std::byte* send, std::byte* recv, std::uint64_t bytes, unsigned exponent,
                           unsigned passes, bool corrupt) {
  const int me = world_rank();
  auto key = [&](int sender, unsigned channel, unsigned i) { return message_key(sender, channel + 2 * exponent, i); };
  std::string error;  // the first; every pass still runs, as on the other ranks
  for (unsigned i = 0; i < passes; ++i) {
    for (unsigned channel = 0; channel < 2; ++channel) fill_message(send + channel * bytes, bytes, key(me, channel, i));
    std::memset(recv, 0, 2 * bytes);
    one_repetition(ring, send, recv, bytes, 1);
    if (corrupt && i == 0) recv[bytes - 1] ^= std::byte{1};
    for (unsigned channel = 0; channel < 2; ++channel) {
      const int from = channel == 0 ? ring.left : ring.right;
      const std::size_t wrong = first_wrong_byte(recv + channel * bytes, bytes, key(from, channel, i));
      if (wrong < bytes && error.empty())
        error = fmt::format("byte {} of message {} from rank {} is wrong", wrong, i, from);
    }
  }
  return error;
}

}  // namespace

double max_over_ranks(double value) {
  double out = 0;
  MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

namespace {

// One timed loop of `ll` exchanges on channel 0 (rightward), the slowest
// rank's seconds: the same number on every rank.
double probe_loop(const Ring& ring, std::byte* send, std::byte* recv, std::uint64_t bytes, std::uint64_t ll) {
  const int n = static_cast<int>(bytes);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = now_seconds();
  for (std::uint64_t l = 0; l < ll; ++l) {
    MPI_Sendrecv(send, n, MPI_BYTE, ring.right, 0, recv, n, MPI_BYTE, ring.left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return max_over_ranks(now_seconds() - t0);
}

// The loop length of one size under `time_budget` (0: `scheduled`, HPCC
// FPGA's): the count that fills the budget at the probed time per exchange,
// between 1 and `scheduled`. The probes are untimed warm-up as well.
unsigned budgeted_loop_length(const Ring& ring, std::byte* send, std::byte* recv, std::uint64_t bytes,
                              unsigned scheduled, double time_budget) {
  if (!(time_budget > 0)) return scheduled;
  // Doubling probes from 1 exchange until one lasts a quarter of the budget
  // or reaches the schedule's count; every decision is on the reduced time.
  const Probe probe{1, 2, 0.25, scheduled};
  unsigned ll = static_cast<unsigned>(calls_for_budget(
      [&](std::uint64_t n) { return probe_loop(ring, send, recv, bytes, n); }, time_budget, probe, 1, scheduled));
  // Identical on every rank already (from MPI_Allreduce'd times); rank 0's
  // count is the one, whatever happens, so that no rank loops on alone.
  MPI_Bcast(&ll, 1, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
  return ll;
}

}  // namespace

bool run_fpga(const FpgaOptions& o, BeffContext& ctx) {
  const auto steps = fpga_schedule(o.min_exp, o.max_exp, o.max_ll, o.min_ll, o.offset, o.decrease);
  const std::uint64_t top = 1ull << o.max_exp;
  HostBuffer send = written_buffer(2 * top, 64), recv = written_buffer(2 * top, 64);
  const Ring ring = world_ring();
  const bool root = world_rank() == 0;
  if (root) ctx.out.fpga_begin(world_size());
  std::vector<double> bandwidths;
  ctx.report.progress().begin("beff fpga", steps.size());
  for (const auto& step : steps) {
    const std::uint64_t bytes = 1ull << step.exponent;
    ctx.report.progress().step(format_bytes(static_cast<double>(bytes)));
    std::vector<double> reps(static_cast<std::size_t>(o.repetitions));
    std::string error;
    unsigned ll = step.loop_length;
    {
      WatchedStep guard(ctx.dog, ctx.step_timeout, fmt::format("b_eff (FPGA) {} B", bytes));
      maybe_fail(ctx.fail);
      ll = budgeted_loop_length(ring, send.as<std::byte>(), recv.as<std::byte>(), bytes, step.loop_length,
                                o.time_budget);
      for (auto& t : reps) t = one_repetition(ring, send.as<std::byte>(), recv.as<std::byte>(), bytes, ll);
      if (ctx.validate) {
        error = check_exchange(ring, send.as<std::byte>(), recv.as<std::byte>(), bytes, step.exponent,
                               ctx.check_every ? ll : 1,
                               ctx.fail == FailMode::kCorrupt && world_rank() == world_size() - 1);
      }
    }
    ctx.report.progress().clear();  // the row below is flushed at once
    // HPCC FPGA: each rank's best repetition, then the slowest rank.
    const double best_here = *std::min_element(reps.begin(), reps.end());
    const double max_min = max_over_ranks(best_here);
    std::vector<double> slowest(reps.size());
    MPI_Allreduce(reps.data(), slowest.data(), static_cast<int>(reps.size()), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    const double bw = fpga_bandwidth(world_size(), bytes, ll, max_min);
    bandwidths.push_back(bw);
    if (root) {
      ctx.out.fpga_size({bytes, ll, max_min, bw});
      Record r{"beff",
               "fpga",
               bytes,
               {{"looplength", ll},
                {"scheduled_looplength", step.loop_length},
                {"ranks", world_size()},
                {"max_min_time_s", max_min}},
               slowest,
               {beff_bandwidth("bandwidth", bw)}};
      ctx.report.add(std::move(r));
    }
    if (!settle_step(ctx.report, "beff", fmt::format("fpga {} B", bytes), error, ctx.validate)) return false;
  }
  const double b_eff = arithmetic_mean(bandwidths);
  if (root) ctx.out.fpga_end(b_eff);
  ctx.report.set_result(beff_bandwidth("beff.fpga.b_eff", b_eff));
  return true;
}

}  // namespace movebench::net
