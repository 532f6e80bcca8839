#include "beff/beff_logic.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "core/clock.hpp"
#include "core/splitmix64.hpp"

namespace movebench::net {

std::vector<FpgaStep> fpga_schedule(unsigned min_exp, unsigned max_exp, unsigned max_ll, unsigned min_ll,
                                    unsigned offset, unsigned decrease) {
  std::vector<FpgaStep> steps;
  const unsigned per_step = decrease > 0 && max_ll > min_ll ? (max_ll - min_ll) / decrease : 0;
  for (unsigned e = min_exp; e <= max_exp; ++e) {
    const unsigned past = e > offset ? e - offset : 0;
    const unsigned long cut = static_cast<unsigned long>(past) * per_step;
    const unsigned reduced = max_ll > cut ? static_cast<unsigned>(max_ll - cut) : 0;
    steps.push_back({e, std::max(reduced, min_ll)});
  }
  return steps;
}

double fpga_bandwidth(int ranks, std::uint64_t bytes, unsigned loop_length, double seconds) {
  constexpr double kChannels = 2;  // both ring directions
  return static_cast<double>(ranks) * kChannels * static_cast<double>(bytes) * loop_length / seconds;
}

std::vector<std::uint64_t> hpcc_sizes(std::uint64_t lmax) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t s = 1; s <= std::min<std::uint64_t>(lmax, 4096); s *= 2) sizes.push_back(s);
  if (lmax <= 4096) return sizes;
  const double ratio = std::pow(static_cast<double>(lmax) / 4096.0, 1.0 / 8.0);
  for (int i = 1; i <= 8; ++i) {
    const auto s = i == 8 ? lmax : static_cast<std::uint64_t>(std::llround(4096.0 * std::pow(ratio, i)));
    if (s > sizes.back()) sizes.push_back(s);
  }
  return sizes;
}

std::uint64_t hpcc_default_lmax(std::uint64_t memory_per_process) {
  return std::clamp<std::uint64_t>(memory_per_process / 128, 1, 128ull << 20);
}

Pattern ring_from_order(const std::vector<int>& order) {
  const auto n = order.size();
  Pattern p(n);
  for (std::size_t i = 0; i < n; ++i) {
    auto& nb = p[static_cast<std::size_t>(order[i])];
    nb.left = order[(i + n - 1) % n];
    nb.right = order[(i + 1) % n];
  }
  return p;
}

Pattern ring_pattern(int ranks, int ring_size) {
  if (ranks < 2 || ring_size < 2) throw std::invalid_argument("a ring needs two ranks");
  Pattern p(static_cast<std::size_t>(ranks));
  for (int start = 0; start < ranks;) {
    int end = std::min(ranks, start + ring_size);
    if (ranks - end == 1) end = ranks;  // no ring of one
    std::vector<int> members(static_cast<std::size_t>(end - start));
    std::iota(members.begin(), members.end(), 0);  // positions within the ring
    const auto ring = ring_from_order(members);
    for (int r = start; r < end; ++r) {
      p[static_cast<std::size_t>(r)] = {ring[static_cast<std::size_t>(r - start)].left + start,
                                        ring[static_cast<std::size_t>(r - start)].right + start};
    }
    start = end;
  }
  return p;
}

std::vector<int> random_order(int ranks, std::uint64_t seed) {
  std::vector<int> order(static_cast<std::size_t>(ranks));
  std::iota(order.begin(), order.end(), 0);
  SplitMix64 generator(seed);
  for (int i = ranks - 1; i > 0; --i) {
    const auto j = static_cast<int>(generator.next() % static_cast<std::uint64_t>(i + 1));
    std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(j)]);
  }
  return order;
}

std::vector<int> ring_sizes(int ranks) {
  std::vector<int> sizes;
  for (int s = 2; s < ranks; s *= 2) sizes.push_back(s);
  if (ranks >= 2) sizes.push_back(ranks);
  if (sizes.size() > 6) sizes.erase(sizes.begin(), sizes.end() - 6);
  return sizes;
}

double pattern_bandwidth(std::uint64_t bytes, int messages, unsigned loop_length, double seconds) {
  return static_cast<double>(bytes) * messages * loop_length / seconds;
}

unsigned next_loop_length(double seconds_per_iteration, double target_s, unsigned max_ll) {
  return static_cast<unsigned>(calls_to_fill(target_s, seconds_per_iteration, 1, 1, max_ll));
}

double geometric_mean(std::span<const double> values) {
  if (values.empty()) throw std::invalid_argument("geometric mean of nothing");
  double log_sum = 0;
  for (double v : values) log_sum += std::log(v);
  return std::exp(log_sum / static_cast<double>(values.size()));
}

double arithmetic_mean(std::span<const double> values) {
  if (values.empty()) throw std::invalid_argument("mean of nothing");
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

}  // namespace movebench::net
