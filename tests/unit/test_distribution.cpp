// core/hdr_histogram and core/distribution: HdrHistogram's bucket layout and
// percentile rule, the encoding's pieces, the support rule and the figures.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/clock.hpp"
#include "core/distribution.hpp"
#include "core/hdr_histogram.hpp"

namespace movebench {
namespace {

// The textbook reference HdrHistogram's rule names: the sample of rank
// max(1, floor(q * n + 0.5)) of the sorted samples.
double nearest_rank(std::vector<double> v, double percent) {
  std::sort(v.begin(), v.end());
  const auto n = static_cast<double>(v.size());
  const auto rank = std::max<std::size_t>(1, static_cast<std::size_t>(percent * n / 100 + 0.5));
  return v[rank - 1];
}

TEST(HdrHistogram, ValuesBelowTwiceTheDigitsAreExact) {
  HdrHistogram h(1, 3'600'000'000, 3);
  for (std::int64_t v : {0, 1, 5, 1000, 2047}) {
    EXPECT_EQ(h.lowest_equivalent(v), v);
    EXPECT_EQ(h.highest_equivalent(v), v);
  }
  // Above 2048 a bucket holds 2^k values: 2048 and 2049 share one.
  EXPECT_EQ(h.lowest_equivalent(2049), 2048);
  EXPECT_EQ(h.highest_equivalent(2048), 2049);
}

TEST(HdrHistogram, ABucketIsWithinATenthOfAPercent) {
  HdrHistogram h(1, 3'600'000'000'000'000, 3);
  for (std::int64_t v = 1; v < 1'000'000'000'000'000; v = v * 3 + 7) {
    EXPECT_LE(h.lowest_equivalent(v), v);
    EXPECT_GE(h.highest_equivalent(v), v);
    EXPECT_LE(static_cast<double>(h.highest_equivalent(v) - h.lowest_equivalent(v)), 1e-3 * static_cast<double>(v) + 1);
  }
}

TEST(HdrHistogram, PercentilesAreNearestRankWithinABucket) {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> d(8, 1.5);
  std::vector<double> values;
  HdrHistogram h(1, 3'600'000'000'000'000, 3);
  for (int i = 0; i < 10007; ++i) {
    const double v = std::round(d(rng));
    values.push_back(v);
    h.record(static_cast<std::int64_t>(v));
  }
  for (double q : {1.0, 50.0, 90.0, 99.0, 99.9, 100.0}) {
    const double want = nearest_rank(values, q);
    const auto got = static_cast<double>(h.value_at_percentile(q));
    EXPECT_GE(got, want) << q;
    EXPECT_LE(got, want * 1.001 + 1) << q;
  }
  EXPECT_EQ(h.max_value(),
            h.highest_equivalent(static_cast<std::int64_t>(*std::max_element(values.begin(), values.end()))));
  EXPECT_EQ(h.total_count(), 10007);
}

TEST(HdrHistogram, OutOfRangeValuesAreClampedAndCounted) {
  HdrHistogram h(1, 1000, 3);
  h.record(-5);
  h.record(5000);
  h.record(10);
  EXPECT_EQ(h.clamped(), 2);
  EXPECT_EQ(h.total_count(), 3);
  EXPECT_EQ(h.value_at_percentile(0), 0);
}

TEST(HdrHistogram, ZigZagLeb128AsHdrHistogramWritesIt) {
  const auto bytes = [](std::int64_t v) {
    std::vector<std::uint8_t> out;
    append_zigzag(out, v);
    return out;
  };
  EXPECT_EQ(bytes(0), (std::vector<std::uint8_t>{0x00}));
  EXPECT_EQ(bytes(-1), (std::vector<std::uint8_t>{0x01}));
  EXPECT_EQ(bytes(1), (std::vector<std::uint8_t>{0x02}));
  EXPECT_EQ(bytes(64), (std::vector<std::uint8_t>{0x80, 0x01}));
  EXPECT_EQ(bytes(-3), (std::vector<std::uint8_t>{0x05}));
  // The ninth byte carries 8 bits: INT64_MIN is zigzag 2^64 - 1.
  const auto most = bytes(INT64_MIN);
  ASSERT_EQ(most.size(), 9u);
  EXPECT_EQ(most.back(), 0xff);
}

TEST(HdrHistogram, Base64IsRfc4648) {
  const auto text = [](std::string s) { return base64_text(std::vector<std::uint8_t>(s.begin(), s.end())); };
  EXPECT_EQ(text(""), "");
  EXPECT_EQ(text("f"), "Zg==");
  EXPECT_EQ(text("fo"), "Zm8=");
  EXPECT_EQ(text("foo"), "Zm9v");
  EXPECT_EQ(text("foobar"), "Zm9vYmFy");
}

TEST(HdrHistogram, TheEncodingStartsWithTheCompressedCookie) {
  HdrHistogram h(1, 3'600'000'000, 3);
  h.record(1234, 10);
  // 0x1c849314 in base64 begins "HIST": HdrHistogram's compressed V2 texts all do.
  EXPECT_EQ(h.encoded().substr(0, 4), "HIST");
}

TEST(HdrHistogram, TheEncodingIsBoundedHoweverLongTheRun) {
  // core/distribution's layout (picoseconds, 1 ps to an hour, 3 digits) and
  // a latency's spread (log-normal about 2 us, a tail to 20 us): ten times
  // the samples past a million add counts and a few tail buckets, so the
  // text grows by far less than the samples (x1.5 here: 8.1 to 12.3 KB),
  // and stays within tens of KB however many there are.
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> ps(std::log(2e6), 0.5);
  HdrHistogram h(1, 3'600'000'000'000'000, 3);
  std::size_t at_million = 0;
  for (int i = 1; i <= 10'000'000; ++i) {
    h.record(static_cast<std::int64_t>(ps(rng)));
    if (i == 1'000'000) at_million = h.encoded().size();
  }
  const std::size_t at_ten_million = h.encoded().size();
  EXPECT_LT(static_cast<double>(at_ten_million), 2.0 * static_cast<double>(at_million));
  EXPECT_LT(at_ten_million, 64u * 1024u);
}

TEST(Distribution, TheSupportRuleIsTheOrderStatisticInterval) {
  EXPECT_EQ(least_samples_for(50), 6u);
  EXPECT_EQ(least_samples_for(90), 29u);
  EXPECT_EQ(least_samples_for(99), 299u);
  EXPECT_EQ(least_samples_for(99.9), 2995u);
  EXPECT_FALSE(percentile_supported(99.9, 1000));
  EXPECT_TRUE(percentile_supported(99, 1000));
}

TEST(Distribution, UnsupportedPercentilesAreNoFigures) {
  Distribution d("iteration");
  for (int i = 1; i <= 1000; ++i) d.add(i * 1e-9);
  std::vector<std::string> names;
  for (const auto& f : d.figures("latency")) names.push_back(f.name());
  EXPECT_EQ(names, (std::vector<std::string>{"latency_p50", "latency_p90", "latency_p99", "latency_max"}));
  const auto cells = d.cells(1e9);
  ASSERT_EQ(cells.size(), 5u);
  // Nearest rank, to the top of the sample's bucket (within 1/1000).
  EXPECT_NEAR(d.percentile_seconds(50) * 1e9, 500, 0.5);
  EXPECT_NEAR(d.percentile_seconds(99) * 1e9, 990, 1);
  EXPECT_EQ(cells[0], significant_text(d.percentile_seconds(50) * 1e9));
  EXPECT_EQ(cells[3], "n/a");
  EXPECT_EQ(cells[4], significant_text(d.max_seconds() * 1e9));
  SampleCounts counts;
  counts.add(d);
  const std::string note = distribution_note("iteration", counts, 1e9, "ns");
  EXPECT_NE(note.find("(P50 6, P90 29, P99 299, P99.9 2995)"), std::string::npos);
  EXPECT_NE(note.find("one sample per iteration, 1000 samples a row;"), std::string::npos) << note;
  const auto j = d.to_json();
  EXPECT_EQ(j["count"], 1000);
  EXPECT_EQ(j["percentiles"]["p99.9"]["supported"], false);
  EXPECT_EQ(j["hdr"]["unit"], "ps");
}

TEST(Distribution, TheNoteSaysHowManySamplesTheRowsRestOn) {
  SampleCounts counts;
  EXPECT_EQ(counts.text(), "no samples");
  Distribution few("iteration");
  Distribution many("iteration");
  for (int i = 1; i <= 1000; ++i) many.add(i * 1e-9);
  for (int i = 1; i <= 100; ++i) few.add(i * 1e-9);
  counts.add(many);
  EXPECT_EQ(counts.text(), "1000 samples a row");
  counts.add(few);
  counts.add(many);
  EXPECT_EQ(counts.text(), "100 to 1000 samples a row");
}

TEST(Distribution, FiguresAreInNanosecondsWithTheirStatistic) {
  Distribution d("probe");
  for (int i = 0; i < 3000; ++i) d.add(2e-6);
  const auto figures = d.figures("latency", [](double s) { return s - 1e-6; });
  ASSERT_EQ(figures.size(), 5u);
  EXPECT_EQ(figures[3].name(), "latency_p99_9");
  EXPECT_EQ(stat_name(figures[3].stat()), "p99.9");
  EXPECT_NEAR(figures[3].value(), 1000, 1);
  EXPECT_EQ(figures[3].unit(), "ns");
  // A net value at or below zero is under the clock's resolution: no figure.
  EXPECT_TRUE(d.figures("latency", [](double s) { return s - 1; }).empty());
}

TEST(Distribution, NoBaseNamesTheFiguresAsOsuZsCollectives) {
  Distribution d("iteration");
  for (int i = 1; i <= 10; ++i) d.add(i * 1e-6);
  std::vector<std::string> names;
  for (const auto& f : d.figures("")) names.push_back(f.name());
  EXPECT_EQ(names, (std::vector<std::string>{"p50", "max"}));
}

TEST(Distribution, PercentileTextLabelsEachCell) {
  Distribution d("iteration");
  for (int i = 1; i <= 10; ++i) d.add(i * 1e-6);
  const auto cells = d.cells(1e6);
  EXPECT_EQ(percentile_text(d, 1e6), fmt::format("P50 {} P90 n/a P99 n/a P99.9 n/a Max {}", cells[0], cells[4]));
  EXPECT_EQ(percentile_text(d, 1e6, {}, 2), fmt::format("P50 {} P90 n/a", cells[0]));
}

TEST(Distribution, TheClockCostIsMeasured) {
  const ClockCost& c = clock_read_cost();
  EXPECT_EQ(c.reads, 1000);
  EXPECT_GE(c.median_s, c.min_s);
  EXPECT_GE(c.min_s, 0);
}

}  // namespace
}  // namespace movebench
