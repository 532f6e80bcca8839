#include "core/hdr_histogram.hpp"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace movebench {
namespace {

// HdrHistogram's V2 cookies with the word-size nibble 0x10 (ZigZag LEB128
// counts): the payload's, and the compressed envelope's.
constexpr std::uint32_t kEncodingCookie = 0x1c849303u | 0x10u;
constexpr std::uint32_t kCompressedCookie = 0x1c849304u | 0x10u;

void append_be32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
}

void append_be64(std::vector<std::uint8_t>& out, std::uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
}

// The buckets that reach `highest`: HdrHistogram's getBucketsNeededToCoverValue.
int buckets_needed(std::int64_t highest, std::int64_t sub_bucket_count, int unit_magnitude) {
  std::int64_t smallest_untrackable = sub_bucket_count << unit_magnitude;
  int needed = 1;
  while (smallest_untrackable <= highest) {
    if (smallest_untrackable > INT64_MAX / 2) return needed + 1;
    smallest_untrackable <<= 1;
    ++needed;
  }
  return needed;
}

std::vector<std::uint8_t> deflated(const std::vector<std::uint8_t>& raw) {
  uLongf size = compressBound(static_cast<uLong>(raw.size()));
  std::vector<std::uint8_t> out(size);
  if (compress2(out.data(), &size, raw.data(), static_cast<uLong>(raw.size()), Z_DEFAULT_COMPRESSION) != Z_OK) {
    throw std::runtime_error("zlib could not compress a histogram");
  }
  out.resize(size);
  return out;
}

}  // namespace

HdrHistogram::HdrHistogram(std::int64_t lowest, std::int64_t highest, int significant_digits)
    : lowest_(lowest), highest_(highest), digits_(significant_digits) {
  if (lowest < 1 || highest < 2 * lowest || significant_digits < 1 || significant_digits > 5) {
    throw std::invalid_argument("a histogram needs lowest >= 1, highest >= 2 * lowest and 1 to 5 digits");
  }
  const double single_unit = 2 * std::pow(10.0, significant_digits);
  const int count_magnitude = static_cast<int>(std::ceil(std::log2(single_unit)));
  unit_magnitude_ = static_cast<int>(std::floor(std::log2(static_cast<double>(lowest))));
  half_count_magnitude_ = std::max(count_magnitude - 1, 0);
  sub_bucket_count_ = std::int64_t{1} << (half_count_magnitude_ + 1);
  half_count_ = sub_bucket_count_ / 2;
  sub_bucket_mask_ = (sub_bucket_count_ - 1) << unit_magnitude_;
  const int buckets = buckets_needed(highest, sub_bucket_count_, unit_magnitude_);
  counts_.assign(static_cast<std::size_t>((buckets + 1) * half_count_), 0);
}

int HdrHistogram::bucket_index(std::int64_t value) const {
  const int pow2_ceiling = 64 - std::countl_zero(static_cast<std::uint64_t>(value | sub_bucket_mask_));
  return pow2_ceiling - unit_magnitude_ - (half_count_magnitude_ + 1);
}

std::size_t HdrHistogram::counts_index(std::int64_t value) const {
  const int bucket = bucket_index(value);
  const std::int64_t sub_bucket = value >> (bucket + unit_magnitude_);
  return static_cast<std::size_t>(((std::int64_t{bucket} + 1) << half_count_magnitude_) + (sub_bucket - half_count_));
}

std::int64_t HdrHistogram::value_from_index(std::size_t index) const {
  const auto i = static_cast<std::int64_t>(index);
  std::int64_t bucket = (i >> half_count_magnitude_) - 1;
  std::int64_t sub_bucket = (i & (half_count_ - 1)) + half_count_;
  if (bucket < 0) {
    sub_bucket -= half_count_;
    bucket = 0;
  }
  return sub_bucket << (bucket + unit_magnitude_);
}

std::int64_t HdrHistogram::lowest_equivalent(std::int64_t value) const {
  const int bucket = bucket_index(value);
  return (value >> (bucket + unit_magnitude_)) << (bucket + unit_magnitude_);
}

std::int64_t HdrHistogram::highest_equivalent(std::int64_t value) const {
  int bucket = bucket_index(value);
  const std::int64_t sub_bucket = value >> (bucket + unit_magnitude_);
  if (sub_bucket >= sub_bucket_count_) ++bucket;
  return lowest_equivalent(value) + (std::int64_t{1} << (unit_magnitude_ + bucket)) - 1;
}

void HdrHistogram::record(std::int64_t value, std::int64_t count) {
  if (value < 0 || value > highest_) {
    clamped_ += count;
    value = std::clamp<std::int64_t>(value, 0, highest_);
  }
  counts_[counts_index(value)] += count;
  total_ += count;
  max_ = std::max(max_, value);
}

std::int64_t HdrHistogram::value_at_percentile(double percent) const {
  const double wanted = std::min(std::max(percent, 0.0), 100.0);
  const auto at =
      std::max<std::int64_t>(static_cast<std::int64_t>(wanted * static_cast<double>(total_) / 100 + 0.5), 1);
  std::int64_t running = 0;
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    running += counts_[i];
    if (running >= at) {
      const std::int64_t value = value_from_index(i);
      return percent > 0 ? highest_equivalent(value) : lowest_equivalent(value);
    }
  }
  return 0;
}

std::int64_t HdrHistogram::max_value() const { return total_ == 0 ? 0 : highest_equivalent(max_); }

// The counts up to the greatest recorded value's, ZigZag LEB128, a run of
// two or more empty buckets as minus its length (HdrHistogram's
// fillBufferFromCountsArray).
std::vector<std::uint8_t> HdrHistogram::payload() const {
  std::vector<std::uint8_t> out;
  const std::size_t limit = total_ == 0 ? 0 : counts_index(max_) + 1;
  for (std::size_t i = 0; i < limit;) {
    const std::int64_t count = counts_[i++];
    std::int64_t zeros = 0;
    if (count == 0) {
      zeros = 1;
      while (i < limit && counts_[i] == 0) {
        ++zeros;
        ++i;
      }
    }
    append_zigzag(out, zeros > 1 ? -zeros : count);
  }
  return out;
}

std::string HdrHistogram::encoded() const {
  const std::vector<std::uint8_t> counts = payload();
  std::vector<std::uint8_t> raw;
  append_be32(raw, kEncodingCookie);
  append_be32(raw, static_cast<std::uint32_t>(counts.size()));
  append_be32(raw, 0);  // normalizing index offset
  append_be32(raw, static_cast<std::uint32_t>(digits_));
  append_be64(raw, static_cast<std::uint64_t>(lowest_));
  append_be64(raw, static_cast<std::uint64_t>(highest_));
  append_be64(raw, std::bit_cast<std::uint64_t>(1.0));  // integer-to-double conversion ratio
  raw.insert(raw.end(), counts.begin(), counts.end());
  const std::vector<std::uint8_t> packed = deflated(raw);
  std::vector<std::uint8_t> whole;
  append_be32(whole, kCompressedCookie);
  append_be32(whole, static_cast<std::uint32_t>(packed.size()));
  whole.insert(whole.end(), packed.begin(), packed.end());
  return base64_text(whole);
}

void append_zigzag(std::vector<std::uint8_t>& out, std::int64_t value) {
  auto v = (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63);
  for (int i = 0; i < 8; ++i) {
    if ((v >> 7) == 0) {
      out.push_back(static_cast<std::uint8_t>(v));
      return;
    }
    out.push_back(static_cast<std::uint8_t>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));  // the ninth byte: the last 8 bits whole
}

std::string base64_text(const std::vector<std::uint8_t>& bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t group = std::uint32_t{bytes[i]} << 16;
    if (n > 1) group |= std::uint32_t{bytes[i + 1]} << 8;
    if (n > 2) group |= bytes[i + 2];
    for (std::size_t k = 0; k < 4; ++k) out.push_back(k <= n ? kAlphabet[(group >> (18 - 6 * k)) & 0x3f] : '=');
  }
  return out;
}

}  // namespace movebench
