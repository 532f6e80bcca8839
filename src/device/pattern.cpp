#include "device/pattern.hpp"

#include <cstring>

namespace movebench::device {

void fill_pattern(std::uint32_t* words, std::size_t count, std::uint32_t seed, std::size_t first) {
  for (std::size_t i = 0; i < count; ++i) words[i] = pattern_word(seed, first + i);
}

std::optional<std::size_t> first_mismatch(const std::uint32_t* words, std::size_t count, std::uint32_t seed,
                                          std::size_t first) {
  for (std::size_t i = 0; i < count; ++i) {
    if (words[i] != pattern_word(seed, first + i)) return i;
  }
  return std::nullopt;
}

std::optional<std::size_t> first_difference(const std::uint32_t* got, const std::uint32_t* want, std::size_t count) {
  if (std::memcmp(got, want, count * 4) == 0) return std::nullopt;  // the common case, at memory speed
  for (std::size_t i = 0; i < count; ++i) {
    if (got[i] != want[i]) return i;
  }
  return std::nullopt;
}

std::optional<std::size_t> first_stream_mismatch(const std::uint32_t* out, std::size_t count, std::uint32_t seed) {
  for (std::size_t i = 0; i < count; ++i) {
    if (out[i] != pattern_word(seed, i) * 3u + 1u) return i;
  }
  return std::nullopt;
}

}  // namespace movebench::device
