// The data every transfer carries, and its check: word i of pattern `seed`
// is a hash of (seed, i), so a stale, shifted or partial copy cannot pass.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>

namespace movebench::device {

inline std::uint32_t pattern_word(std::uint32_t seed, std::size_t i) {
  std::uint64_t x = (static_cast<std::uint64_t>(seed) << 32) ^ i;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return static_cast<std::uint32_t>(x);
}

void fill_pattern(std::uint32_t* words, std::size_t count, std::uint32_t seed, std::size_t first = 0);

// The index of the first word that differs from `expected(i)`, if any.
std::optional<std::size_t> first_mismatch(const std::uint32_t* words, std::size_t count, std::uint32_t seed,
                                          std::size_t first = 0);
// The index of the first word where `got` differs from `want`, if any.
std::optional<std::size_t> first_difference(const std::uint32_t* got, const std::uint32_t* want, std::size_t count);
// As above for the streaming kernel's output: pattern * 3 + 1.
std::optional<std::size_t> first_stream_mismatch(const std::uint32_t* out, std::size_t count, std::uint32_t seed);

}  // namespace movebench::device
