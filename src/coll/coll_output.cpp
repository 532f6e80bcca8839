#include "coll/coll_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <span>

#include "coll/coll_logic.hpp"
#include "core/output.hpp"

namespace movebench::net {

std::string mpibench_start(const std::vector<std::string>& hosts) {
  std::string text = "START mpiBench v1.5\n";
  for (std::size_t r = 0; r < hosts.size(); ++r) text += fmt::format("{} : {}\n", r, hosts[r]);
  return text;
}

std::string mpibench_step(const CollStep& s) {
  const Summary& t = s.seconds;
  return mpibench_line(s.operation, s.bytes, s.iterations, t.mean * 1e6, t.min * 1e6, t.max * 1e6, s.comm, s.ranks) +
         "\n";
}

namespace {
constexpr const char* kMeanEvent = "iteration, the ranks' mean (OSU -z)";
constexpr const char* kSlowestEvent = "iteration, the slowest rank's time (the max over the ranks)";
}  // namespace

CollTails coll_tails(const std::vector<std::vector<double>>& per_rank) {
  CollTails t{Distribution(kMeanEvent), Distribution(kSlowestEvent), {}};
  std::size_t iters = per_rank.empty() ? 0 : per_rank.front().size();
  for (const auto& r : per_rank) iters = std::min(iters, r.size());
  for (std::size_t i = 0; i < iters; ++i) {
    double sum = 0, most = 0;
    for (const auto& r : per_rank) {
      sum += r[i];
      most = std::max(most, r[i]);
    }
    t.mean.add(sum / static_cast<double>(per_rank.size()));
    t.slowest.add(most);
  }
  for (std::size_t r = 0; r < per_rank.size(); ++r) {
    t.ranks.emplace_back(fmt::format("iteration on rank {}", r));
    t.ranks.back().add(std::span<const double>(per_rank[r].data(), iters));
  }
  return t;
}

nlohmann::json coll_tails_json(const CollTails& tails) {
  nlohmann::json out = tails.slowest.to_json();
  out["mean"] = tails.mean.to_json();  // OSU -z's view: the p50 ... p99_9 figures' own samples
  out["per_rank"] = nlohmann::json::array();
  for (const auto& r : tails.ranks) out["per_rank"].push_back(r.to_json());
  return out;
}

std::string mpibench_tails(const CollTails& t) {
  return fmt::format("# percentiles (us): ranks' mean {}; slowest rank {}\n",
                     percentile_text(t.mean, 1e6, {}, kPercentiles.size()), percentile_text(t.slowest, 1e6));
}

std::string mpibench_tails_note(bool per_call, bool barrier, const SampleCounts& counts) {
  const char* event = per_call  ? "iteration (the call alone, OSU's procedure)"
                      : barrier ? "iteration (the call and its barrier)"
                                : "iteration (the call; no barrier)";
  return fmt::format("# {}\n", distribution_note(event, counts, 1e6, "us"));
}

std::string mpibench_end(std::uint64_t buffer_bytes) {
  return fmt::format("Message buffers (KB):\t{}\nEND mpiBench\n", buffer_bytes / 1024);
}

void CollWriter::start(const std::vector<std::string>& hosts) { send_now(out_, mpibench_start(hosts)); }
void CollWriter::step(const CollStep& s) { send_now(out_, mpibench_step(s)); }
void CollWriter::tails(const CollTails& t) {
  send_now(out_, mpibench_tails(t));
  counts_.add(t.mean);
}
void CollWriter::tails_note(bool per_call, bool barrier) {
  send_now(out_, mpibench_tails_note(per_call, barrier, counts_));
}
void CollWriter::end(std::uint64_t buffer_bytes) { send_now(out_, mpibench_end(buffer_bytes)); }

}  // namespace movebench::net
