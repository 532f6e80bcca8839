// A histogram of non-negative integer values in HdrHistogram's layout
// (Gil Tene's HdrHistogram: buckets of 2^k sub-buckets, each value kept to
// `significant_digits` decimal digits), and its V2 compressed encoding: the
// base64 of a big-endian header and the zlib-deflated payload of ZigZag
// LEB128 counts, runs of empty buckets written as one negative count. Every
// HdrHistogram reads it (Java's Histogram.decodeFromCompressedByteBuffer,
// HdrHistogram_c's hdr_log_decode, PyPI's hdrhistogram: HdrHistogram.decode).
// Written here because Debian packages no C or C++ HdrHistogram (only the
// Java and Go ones): docs/architecture.md.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace movebench {

class HdrHistogram {
 public:
  // lowest >= 1, highest >= 2 * lowest, significant_digits in 1..5: as
  // HdrHistogram's own constructor asks.
  HdrHistogram(std::int64_t lowest, std::int64_t highest, int significant_digits);

  // Values above `highest` count at `highest`, below 0 at 0 (recorded as
  // clamped(); callers say so).
  void record(std::int64_t value, std::int64_t count = 1);
  std::int64_t total_count() const { return total_; }
  std::int64_t clamped() const { return clamped_; }
  // HdrHistogram's getValueAtPercentile: the first bucket where the running
  // count reaches max(1, floor(percent * total / 100 + 0.5)), as that
  // bucket's highest equivalent value (percent 0: its lowest). 0 when empty.
  std::int64_t value_at_percentile(double percent) const;
  // The highest equivalent value of the greatest value recorded
  // (HdrHistogram's getMaxValue); 0 when empty.
  std::int64_t max_value() const;
  // The values a value is counted with: [lowest_equivalent, highest_equivalent].
  std::int64_t lowest_equivalent(std::int64_t value) const;
  std::int64_t highest_equivalent(std::int64_t value) const;

  // The V2 compressed encoding, base64 (HdrHistogram's "HISTF..." text).
  std::string encoded() const;

 private:
  int bucket_index(std::int64_t value) const;
  std::size_t counts_index(std::int64_t value) const;
  std::int64_t value_from_index(std::size_t index) const;
  std::vector<std::uint8_t> payload() const;

  std::int64_t lowest_, highest_;
  int digits_;
  int unit_magnitude_ = 0, half_count_magnitude_ = 0;
  std::int64_t sub_bucket_count_ = 0, half_count_ = 0, sub_bucket_mask_ = 0;
  std::vector<std::int64_t> counts_;
  std::int64_t total_ = 0, clamped_ = 0, max_ = 0;
};

// Standard base64 (RFC 4648, with padding, no line breaks).
std::string base64_text(const std::vector<std::uint8_t>& bytes);
// One signed value as HdrHistogram's ZigZag LEB128 (at most 9 bytes: the
// ninth carries 8 bits), appended to `out`.
void append_zigzag(std::vector<std::uint8_t>& out, std::int64_t value);

}  // namespace movebench
