// The data every MPI benchmark sends when it checks what arrived: a
// different byte sequence for every sender, stream (channel, method) and
// iteration, with no short period along the message, so data that arrives
// from the wrong rank, from an earlier iteration, or shifted by any number
// of bytes is caught. One splitmix64 hash per 8 bytes keeps filling and
// checking cheap (untimed, but they run once per checked call).
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/splitmix64.hpp"

namespace movebench::net {

// Names one message: who sent it, on which stream, in which iteration.
constexpr std::uint64_t message_key(int sender, std::uint64_t stream, std::uint64_t iteration) {
  return splitmix64(splitmix64(splitmix64(static_cast<std::uint64_t>(sender) + 1) ^ stream) ^ iteration);
}

// Byte j of the message `key`.
constexpr std::byte message_byte(std::uint64_t key, std::size_t j) {
  return static_cast<std::byte>(splitmix64(key ^ (j / 8)) >> (8 * (j % 8)));
}

// Element k of a message of doubles (reductions): whole numbers from 1 to
// 65536, so a sum over up to 2^37 ranks is exact in any order.
constexpr double message_value(std::uint64_t key, std::size_t k) {
  return static_cast<double>((splitmix64(key ^ k) & 0xffff) + 1);
}

inline void fill_message(std::byte* data, std::size_t bytes, std::uint64_t key) {
  for (std::size_t j = 0; j < bytes; j += 8) {
    const std::uint64_t word = splitmix64(key ^ (j / 8));
    for (std::size_t b = 0; b < 8 && j + b < bytes; ++b) data[j + b] = static_cast<std::byte>(word >> (8 * b));
  }
}

// The offset of the first wrong byte, or `bytes` when all are right.
inline std::size_t first_wrong_byte(const std::byte* data, std::size_t bytes, std::uint64_t key) {
  for (std::size_t j = 0; j < bytes; j += 8) {
    const std::uint64_t word = splitmix64(key ^ (j / 8));
    for (std::size_t b = 0; b < 8 && j + b < bytes; ++b) {
      if (data[j + b] != static_cast<std::byte>(word >> (8 * b))) return j + b;
    }
  }
  return bytes;
}

}  // namespace movebench::net
