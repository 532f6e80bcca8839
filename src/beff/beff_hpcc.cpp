// Rabenseifner's b_eff as in the HPC Challenge suite: ring and random ring
// patterns, every rank exchanging with both neighbours, over three methods;
// the best method and repetition per size, the mean over sizes, geometric
// means over patterns, and b_eff the geometric mean of ring and random.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/buffer.hpp"
#include "core/clock.hpp"
#include "core/sizes.hpp"
#include "beff/beff.hpp"
#include "beff/beff_logic.hpp"
#include "net/message_pattern.hpp"
#include "p2p/p2p.hpp"

namespace movebench::net {
namespace {

enum class Method { kSendrecv, kAlltoallv, kNonblocking };
constexpr Method kMethods[] = {Method::kSendrecv, Method::kAlltoallv, Method::kNonblocking};
const char* method_name(Method m) {
  return m == Method::kSendrecv ? "Sendrecv" : m == Method::kAlltoallv ? "Alltoallv" : "Isend/Irecv";
}
constexpr int kRightward = 1, kLeftward = 2;  // tags: which way a message travels

struct NamedPattern {
  std::string name;  // "ring-4", "random-2"
  bool random;
  Pattern pattern;
};

// This rank's buffers: [to left | to right] and [from left | from right],
// each half L_max, so that Alltoallv sends both with one displacement table.
struct Exchange {
  Neighbours nb;
  std::byte* send;
  std::byte* recv;
  std::uint64_t half;  // L_max
  std::vector<int> counts, displs;
};

void set_alltoallv(Exchange& x, std::uint64_t bytes) {
  std::fill(x.counts.begin(), x.counts.end(), 0);
  std::fill(x.displs.begin(), x.displs.end(), 0);
  const int b = static_cast<int>(bytes);
  if (x.nb.left == x.nb.right) {  // a ring of two: both halves in one block
    x.counts[static_cast<std::size_t>(x.nb.left)] = 2 * b;
    return;
  }
  x.counts[static_cast<std::size_t>(x.nb.left)] = b;
  x.counts[static_cast<std::size_t>(x.nb.right)] = b;
  x.displs[static_cast<std::size_t>(x.nb.right)] = b;
}

// One iteration of the pattern with one method. Halves are packed at
// offsets 0 and `bytes` so that Alltoallv's ring-of-two block is contiguous.
void exchange_once(Method m, const Exchange& x, std::uint64_t bytes) {
  const int b = static_cast<int>(bytes);
  std::byte* to_left = x.send;
  std::byte* to_right = x.send + bytes;
  std::byte* from_left = x.recv;
  std::byte* from_right = x.recv + bytes;
  switch (m) {
    case Method::kSendrecv:
      MPI_Sendrecv(to_right, b, MPI_BYTE, x.nb.right, kRightward, from_left, b, MPI_BYTE, x.nb.left, kRightward,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Sendrecv(to_left, b, MPI_BYTE, x.nb.left, kLeftward, from_right, b, MPI_BYTE, x.nb.right, kLeftward,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      break;
    case Method::kAlltoallv:
      MPI_Alltoallv(x.send, x.counts.data(), x.displs.data(), MPI_BYTE, x.recv, x.counts.data(), x.displs.data(),
                    MPI_BYTE, MPI_COMM_WORLD);
      break;
    case Method::kNonblocking: {
      MPI_Request req[4];
      MPI_Irecv(from_left, b, MPI_BYTE, x.nb.left, kRightward, MPI_COMM_WORLD, &req[0]);
      MPI_Irecv(from_right, b, MPI_BYTE, x.nb.right, kLeftward, MPI_COMM_WORLD, &req[1]);
      MPI_Isend(to_right, b, MPI_BYTE, x.nb.right, kRightward, MPI_COMM_WORLD, &req[2]);
      MPI_Isend(to_left, b, MPI_BYTE, x.nb.left, kLeftward, MPI_COMM_WORLD, &req[3]);
      MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
      break;
    }
  }
}

// Seconds for loop_length iterations, the slowest rank's.
double timed(Method m, const Exchange& x, std::uint64_t bytes, unsigned ll) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = now_seconds();
  for (unsigned l = 0; l < ll; ++l) exchange_once(m, x, bytes);
  return max_over_ranks(now_seconds() - t0);
}

// Untimed: `passes` exchanges, each with data of its own (sender, which
// half, method, iteration) into a cleared buffer; both neighbours' data
// must arrive in the right half.
std::string check(Method m, const Exchange& x, std::uint64_t bytes, unsigned passes, bool corrupt) {
  const int me = world_rank();
  constexpr std::uint64_t kToLeft = 0, kToRight = 1;
  auto key = [&](int sender, std::uint64_t half, unsigned i) {
    return message_key(sender, 2 * static_cast<std::uint64_t>(m) + half, i);
  };
  // Alltoallv in a ring of two moves both halves as one block: the
  // neighbour's [to left | to right] lands as [from left | from right].
  const bool one_block = m == Method::kAlltoallv && x.nb.left == x.nb.right;
  std::string error;  // the first; every pass still runs, as on the other ranks
  for (unsigned i = 0; i < passes; ++i) {
    fill_message(x.send, bytes, key(me, kToLeft, i));
    fill_message(x.send + bytes, bytes, key(me, kToRight, i));
    std::memset(x.recv, 0, 2 * bytes);
    exchange_once(m, x, bytes);
    if (corrupt && i == 0) x.recv[bytes - 1] ^= std::byte{1};
    const std::uint64_t from_left = one_block ? key(x.nb.left, kToLeft, i) : key(x.nb.left, kToRight, i);
    const std::uint64_t from_right = one_block ? key(x.nb.right, kToRight, i) : key(x.nb.right, kToLeft, i);
    const std::size_t wrong_left = first_wrong_byte(x.recv, bytes, from_left);
    const std::size_t wrong_right = first_wrong_byte(x.recv + bytes, bytes, from_right);
    if (error.empty() && (wrong_left < bytes || wrong_right < bytes)) {
      const bool left = wrong_left < bytes;
      error = fmt::format("{}: byte {} of message {} from rank {} is wrong", method_name(m),
                          left ? wrong_left : wrong_right, i, left ? x.nb.left : x.nb.right);
    }
  }
  return error;
}

std::vector<NamedPattern> make_patterns(const HpccOptions& o) {
  const int n = world_size();
  std::vector<NamedPattern> out;
  for (int s : ring_sizes(n)) out.push_back({fmt::format("ring-{}", s), false, ring_pattern(n, s)});
  for (int k = 0; k < o.random_patterns; ++k) {
    out.push_back({fmt::format("random-{}", k + 1), true,
                   ring_from_order(random_order(n, o.seed + static_cast<std::uint64_t>(k)))});
  }
  return out;
}

struct SizeResult {
  double best_bw = 0;
  double best_iteration_s = 0;
  Method best_method = Method::kSendrecv;
  std::vector<double> samples;  // seconds per timed run, every method and repetition
};

class HpccRun {
 public:
  HpccRun(const HpccOptions& o, BeffContext& ctx, std::uint64_t lmax)
      : o_(o), ctx_(ctx), lmax_(lmax), send_(written_buffer(2 * lmax, 64)), recv_(written_buffer(2 * lmax, 64)) {}

  bool run() {
    const int n = world_size();
    const auto sizes = hpcc_sizes(lmax_);
    const auto patterns = make_patterns(o_);
    print_header(patterns, sizes);
    // per_size[p][i]: best bandwidth of pattern p at size i
    std::vector<std::vector<double>> best(patterns.size());
    double ring_latency = 0;
    ctx_.report.progress().begin("beff hpcc", patterns.size() * sizes.size());
    for (std::size_t p = 0; p < patterns.size(); ++p) {
      Exchange x{patterns[p].pattern[static_cast<std::size_t>(world_rank())],
                 send_.as<std::byte>(),
                 recv_.as<std::byte>(),
                 lmax_,
                 std::vector<int>(static_cast<std::size_t>(n)),
                 std::vector<int>(static_cast<std::size_t>(n))};
      unsigned ll = o_.max_ll;
      for (auto bytes : sizes) {
        SizeResult r;
        ctx_.report.progress().step(fmt::format("{} {}", patterns[p].name, format_bytes(static_cast<double>(bytes))));
        if (!measure_size(patterns[p], x, bytes, ll, r)) return false;
        best[p].push_back(r.best_bw);
        // The last ring pattern is the one ring through all ranks.
        if (p + 1 == ring_sizes(n).size() && bytes == sizes.front()) {
          ring_latency = r.best_iteration_s;
        }
        ll = next_loop_length(r.best_iteration_s, o_.target_s, o_.max_ll);
      }
    }
    ctx_.report.progress().clear();  // the summary is flushed at once
    summarize_run(patterns, sizes, best, ring_latency);
    return true;
  }

 private:
  bool measure_size(const NamedPattern& pat, Exchange& x, std::uint64_t bytes, unsigned ll, SizeResult& r) {
    set_alltoallv(x, bytes);
    std::string error;
    {
      WatchedStep guard(ctx_.dog, ctx_.step_timeout, fmt::format("b_eff (HPCC) {} {} B", pat.name, bytes));
      maybe_fail(ctx_.fail);
      for (Method m : kMethods) {
        exchange_once(m, x, bytes);  // priming
        for (int rep = 0; rep < o_.repetitions; ++rep) {
          const double t = timed(m, x, bytes, ll);
          r.samples.push_back(t);
          const double bw = pattern_bandwidth(bytes, 2 * world_size(), ll, t);
          if (bw > r.best_bw) {
            r.best_bw = bw;
            r.best_iteration_s = t / ll;
            r.best_method = m;
          }
        }
        if (ctx_.validate && error.empty()) {
          error = check(m, x, bytes, ctx_.check_every ? ll : 1,
                        ctx_.fail == FailMode::kCorrupt && world_rank() == world_size() - 1);
        }
      }
    }
    if (world_rank() == 0) {
      Record rec{"beff",
                 "hpcc",
                 bytes,
                 {{"pattern", pat.name},
                  {"looplength", ll},
                  {"ranks", world_size()},
                  {"best_method", method_name(r.best_method)},
                  {"repetitions", o_.repetitions},
                  {"methods", {"Sendrecv", "Alltoallv", "Isend/Irecv"}}},
                 r.samples,
                 {beff_bandwidth("bandwidth", r.best_bw)}};
      ctx_.report.add(std::move(rec));
    }
    return settle_step(ctx_.report, "beff", fmt::format("hpcc {} {} B", pat.name, bytes), error, ctx_.validate);
  }

  void print_header(const std::vector<NamedPattern>& patterns, const std::vector<std::uint64_t>& sizes) const {
    if (world_rank() != 0) return;
    std::vector<std::string> names;
    for (const auto& p : patterns) names.push_back(p.name);
    ctx_.out.hpcc_begin({world_size(), lmax_, sizes.size(), names, o_.repetitions});
  }

  void summarize_run(const std::vector<NamedPattern>& patterns, const std::vector<std::uint64_t>& sizes,
                     const std::vector<std::vector<double>>& best, double ring_latency) {
    std::vector<double> ring_avgs, random_avgs;
    for (std::size_t p = 0; p < patterns.size(); ++p) {
      (patterns[p].random ? random_avgs : ring_avgs).push_back(arithmetic_mean(best[p]));
    }
    const double ring = geometric_mean(ring_avgs);
    const double random = geometric_mean(random_avgs);
    const double b_eff = geometric_mean(std::vector<double>{ring, random});
    const int n = world_size();
    auto& rep = ctx_.report;
    rep.set_result(beff_bandwidth("beff.hpcc.b_eff", b_eff));
    rep.set_result(beff_bandwidth("beff.hpcc.b_eff_per_process", b_eff / n));
    rep.set_result(beff_bandwidth("beff.hpcc.ring_average", ring));
    rep.set_result(beff_bandwidth("beff.hpcc.random_average", random));
    rep.set_result(Figure::latency("beff.hpcc.ring_latency_1B", ring_latency, Stat::kMin));
    if (world_rank() != 0) return;
    HpccFigures figures{n, sizes, {}, {}, b_eff, ring, random, ring_latency};
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      std::vector<double> rings, randoms;
      for (std::size_t p = 0; p < patterns.size(); ++p) (patterns[p].random ? randoms : rings).push_back(best[p][i]);
      figures.ring.push_back(geometric_mean(rings));
      figures.random.push_back(geometric_mean(randoms));
    }
    ctx_.out.hpcc_end(figures);
  }

  const HpccOptions& o_;
  BeffContext& ctx_;
  std::uint64_t lmax_;
  HostBuffer send_, recv_;
};

// Ping-pong between ranks 0 and 1 beside b_eff: latency at 1 B and
// bandwidth at L_max, timed as OSU's osu_latency.
void pingpong_figures(BeffContext& ctx, std::uint64_t lmax) {
  HostBuffer send = written_buffer(lmax, 64), recv = written_buffer(lmax, 64);
  const P2pPair pair{0, 1};
  double lat = 0, bw = 0;
  {
    WatchedStep guard(ctx.dog, ctx.step_timeout, "b_eff ping-pong");
    const int iters_small = 1000, iters_large = 20;
    const double t1 =
        p2p_seconds(P2pTest::kLatency, pair, send.as<std::byte>(), recv.as<std::byte>(), 1, iters_small, 100, 1);
    const double tl =
        p2p_seconds(P2pTest::kLatency, pair, send.as<std::byte>(), recv.as<std::byte>(), lmax, iters_large, 2, 1);
    lat = t1 * 1e6 / (2.0 * iters_small);
    bw = tl > 0 ? static_cast<double>(lmax) * 2.0 * iters_large / tl : 0;
  }
  lat = max_over_ranks(lat);
  bw = max_over_ranks(bw);
  // As osu_latency and IMB's PingPong: the mean over the iterations of half
  // a round trip, and L over that one-way time.
  ctx.report.set_result(Figure::latency("beff.pingpong.latency_1B", lat * 1e-6, Stat::kMean));
  ctx.report.set_result(
      Figure::bandwidth("beff.pingpong.bandwidth_Lmax", bw, Stat::kMean, Of::kTime, application_bytes(), Scale::kOne));
  if (world_rank() == 0) ctx.out.pingpong(lat, lmax, bw);
}

}  // namespace

std::uint64_t hpcc_job_lmax() {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int local = 1;
  MPI_Comm_size(node, &local);
  MPI_Comm_free(&node);
  const double here =
      static_cast<double>(hpcc_default_lmax(available_memory_bytes() / static_cast<std::uint64_t>(local)));
  double smallest = 0;
  MPI_Allreduce(&here, &smallest, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  return static_cast<std::uint64_t>(smallest);
}

bool run_hpcc(const HpccOptions& o, BeffContext& ctx) {
  if (world_size() < 2) {
    if (world_rank() == 0) ctx.out.hpcc_skip();
    return true;
  }
  const std::uint64_t lmax = o.lmax ? o.lmax : hpcc_job_lmax();
  ctx.report.settings("beff")["hpcc_lmax_bytes"] = lmax;
  HpccRun run(o, ctx, lmax);
  if (!run.run()) return false;
  pingpong_figures(ctx, lmax);
  return true;
}

}  // namespace movebench::net
