#include "coll/coll_logic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <tuple>

#include "core/clock.hpp"
#include "coll/coll_rows.hpp"

namespace movebench::net {

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

template <class Row>
CollInfo info_of(std::size_t index) {
  return {index,           Row::name,       Row::reduction, Row::by_default, Row::sized, Row::moved_bytes,
          Row::bus_factor, Row::set_counts, Row::expected};
}

template <class... Rows>
std::vector<CollInfo> table_of(std::tuple<Rows...>*) {
  std::size_t index = 0;
  return {info_of<Rows>(index++)...};  // braced list: evaluated in order
}

}  // namespace

const std::vector<CollInfo>& coll_table() {
  static const std::vector<CollInfo> table = table_of(static_cast<rows::CollRows*>(nullptr));
  return table;
}

std::string coll_key(const CollInfo& info) { return lower(info.name); }

const CollInfo* coll_by_name(std::string_view name) {
  const std::string wanted = lower(name);
  for (const auto& info : coll_table()) {
    if (coll_key(info) == wanted) return &info;
  }
  return nullptr;
}

std::string coll_names() {
  std::string out;
  for (const auto& info : coll_table()) out += (out.empty() ? "" : ", ") + std::string(info.name);
  return out;
}

CollShape coll_shape(const CollInfo& info, int rank, int nranks, std::uint64_t bytes) {
  CollShape c;
  c.op = info.index;
  c.rank = rank;
  c.nranks = nranks;
  c.bytes = bytes;
  c.elem = info.reduction ? sizeof(double) : 1;
  c.count = static_cast<int>(bytes / c.elem);
  info.set_counts(c);
  return c;
}

std::vector<std::uint64_t> coll_sizes(std::uint64_t start, std::uint64_t stop) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t s = start; s <= stop; s = s > 0 ? s * 2 : 1) sizes.push_back(s);
  return sizes;
}

std::uint64_t fit_stop_to_memory(std::uint64_t stop, int ranks, std::uint64_t mem_limit) {
  const auto n = static_cast<std::uint64_t>(ranks);
  while (stop > 0 && stop * n * 2 > mem_limit) stop /= 2;
  return stop;
}

int fit_iterations(double estimate_s, double limit_s, int max_iters, int est_iters) {
  // Whole calls within the limit; a zero estimate (a clock too coarse for
  // the call) means "no limit".
  const auto most = static_cast<std::uint64_t>(std::max(max_iters, 0));
  const auto limit = limit_s > 0 ? calls_to_fill(limit_s, estimate_s, 1, 0, most, Fill::kWithin) : most;
  return std::max(static_cast<int>(limit), est_iters);
}

int v_count(int i, int shift, int count, int ranks) {
  const long chunk = std::max(1, count / ranks);
  return static_cast<int>((static_cast<long>(i + shift) * chunk) % (static_cast<long>(count) + 1));
}

std::vector<int> v_counts(int shift, int count, int ranks) {
  std::vector<int> counts(static_cast<std::size_t>(ranks));
  for (int i = 0; i < ranks; ++i) counts[static_cast<std::size_t>(i)] = v_count(i, shift, count, ranks);
  return counts;
}

std::vector<int> displacements(const std::vector<int>& counts) {
  std::vector<int> displs(counts.size());
  int disp = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    displs[i] = disp;
    disp += counts[i];
  }
  return displs;
}

double v_mean_received_bytes(VReceivers who, int count, int ranks, std::uint64_t elem_bytes) {
  double total = 0;  // summed over receiving ranks
  for (int r = 0; r < ranks; ++r) {
    for (int i = 0; i < ranks; ++i) {
      // Alltoallv: rank r receives v_count(i, r) from every i; Allgatherv
      // and Gatherv: everybody (Gatherv: only the root) receives i's part.
      if (who == VReceivers::kAlltoall) total += v_count(i, r, count, ranks);
      if (who == VReceivers::kEveryRank || (who == VReceivers::kRoot && r == 0)) total += v_count(i, 0, count, ranks);
    }
  }
  const double receivers = who == VReceivers::kRoot ? 1.0 : ranks;
  return total * static_cast<double>(elem_bytes) / receivers;
}

std::string mpibench_line(std::string_view title, std::uint64_t bytes, int iters, double avg_us, double min_us,
                          double max_us, std::string_view comm, int ranks) {
  // printf's %-20.20s: padded and cut at 20 characters.
  const std::string_view cut = title.substr(0, std::min<std::size_t>(title.size(), 20));
  return fmt::format(
      "{:<20}\tBytes:\t{:>8}\tIters:\t{:>7}\tAvg:\t{:>8.4f}\tMin:\t{:>8.4f}\tMax:\t{:>8.4f}\tComm: {}\tRanks: {}", cut,
      bytes, iters, avg_us, min_us, max_us, comm, ranks);
}

}  // namespace movebench::net
