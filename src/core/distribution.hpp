// The distribution of a latency measured one event at a time (a ping-pong
// iteration, a probe, a timed block of a chase): the one way every command
// keeps and summarises it. The samples go into an HdrHistogram (integer
// picoseconds, 3 significant digits: core/hdr_histogram), which the result
// keeps whole in HdrHistogram's V2 compressed encoding (bounded in size
// however long the run); the percentiles P50, P90, P99, P99.9 and the max
// are read from it as HdrHistogram reads them, and a percentile the count
// cannot support is not a figure (docs/results.md, "Distributions").
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/figure.hpp"
#include "core/hdr_histogram.hpp"

namespace movebench {

struct PercentileSpec {
  std::string_view key;     // "p99.9": the `stat`, and the key in the record's distribution
  std::string_view suffix;  // "_p99_9": the figure's name after its base ("latency_p99_9")
  std::string_view label;   // "P99.9": the text column
  double percent;           // 99.9
  Stat stat;
};
inline constexpr std::array<PercentileSpec, 4> kPercentiles{{
    {"p50", "_p50", "P50", 50, Stat::kP50},
    {"p90", "_p90", "P90", 90, Stat::kP90},
    {"p99", "_p99", "P99", 99, Stat::kP99},
    {"p99.9", "_p99_9", "P99.9", 99.9, Stat::kP999},
}};

// The support rule: a percentile q is supported by n samples when a
// distribution-free 95% confidence interval for it exists among them, i.e.
// when the least and the greatest sample bracket it with probability
// 1 - q^n - (1 - q)^n >= 0.95 (Le Boudec, Performance Evaluation of Computer
// and Communication Systems, 2010, section 2.2.2 and its Theorem 2.1). For
// a high q that is about three samples beyond the percentile: P50 needs 6,
// P90 29, P99 299, P99.9 2995.
constexpr double kSupportConfidence = 0.95;
std::uint64_t least_samples_for(double percent);
bool percentile_supported(double percent, std::uint64_t count);

class Distribution {
 public:
  // `event`: what one sample is, as the result says it ("iteration (half a
  // round trip)", "probe", "block of 4096 loads, per load").
  explicit Distribution(std::string event);

  // A sample in seconds (below 0 is counted at 0, above an hour at an hour:
  // the record says how many in `clamped`).
  void add(double seconds);
  void add(std::span<const double> seconds);
  std::uint64_t count() const { return static_cast<std::uint64_t>(histogram_.total_count()); }
  const std::string& event() const { return event_; }

  // HdrHistogram's value at `percent` (nearest rank, rank max(1,
  // floor(percent * n / 100 + 0.5)), as the highest value of that sample's
  // bucket: within 1/1000 of the sample), in seconds; the max the same way.
  double percentile_seconds(double percent) const;
  double max_seconds() const;
  bool supported(const PercentileSpec& p) const { return percentile_supported(p.percent, count()); }

  // `name`_p50 ... of the supported percentiles and `name`_max (an empty
  // `name`: p50 ... and max, as OSU -z names a collective's), each value
  // passed through `net` first (seconds to seconds: link's T(n) - T(0)); a
  // net value at or below 0 is under the clock's resolution and left out.
  std::vector<Figure> figures(std::string_view name, const std::function<double(double)>& net = {}) const;

  // The record's `distribution`: event, count, the histogram's unit and
  // digits, its encoding, each percentile's least count and whether it is
  // supported, the clock's read cost (not subtracted).
  nlohmann::json to_json() const;

  // Text: the P50, P90, P99, P99.9 and max columns in `per_second` units
  // (1e6: us; 1e9: ns) after `net`, each a number or "n/a".
  std::vector<std::string> cells(double per_second, const std::function<double(double)>& net = {}) const;

 private:
  std::string event_;
  HdrHistogram histogram_;
};

// How many samples a table's rows rest on: the least and the most of its
// distributions' counts, as the note under the table says them.
class SampleCounts {
 public:
  void add(const Distribution& d);
  // "10000 samples a row", "1000 to 10000 samples a row"; "no samples".
  std::string text() const;

 private:
  std::uint64_t least_ = 0;
  std::uint64_t most_ = 0;
  bool any_ = false;
};

// The line under a table of percentiles: what one sample is, how many each
// row rests on, what a clock read costs in `per_second` units (1e6: us) and
// that it is not subtracted, and what n/a means (the support rule's least
// counts).
std::string distribution_note(std::string_view event, const SampleCounts& counts, double per_second,
                              std::string_view unit);
// "a clock read costs 20 ns (median of 1000 back-to-back pairs)": what every
// timed sample holds besides its event, in `per_second` units.
std::string clock_note(double per_second, std::string_view unit);

// The text columns' labels: "P50", "P90", "P99", "P99.9", "Max".
std::vector<std::string> percentile_labels();

// The cells with their labels on one line, "P50 1.2 P90 1.5 P99 n/a P99.9
// n/a Max 3.1" (the first `columns`: 4 leaves the max out), for text
// without a table to put columns in.
std::string percentile_text(const Distribution& d, double per_second, const std::function<double(double)>& net = {},
                            std::size_t columns = kPercentiles.size() + 1);

}  // namespace movebench
