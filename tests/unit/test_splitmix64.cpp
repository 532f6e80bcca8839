// core/splitmix64.hpp against the published algorithm's reference outputs:
// splitmix64.c (https://prng.di.unimi.it/splitmix64.c) seeded with 0 gives
// these four numbers first (the seeds of xoshiro's reference state).
#include "core/splitmix64.hpp"

#include <gtest/gtest.h>

#include <array>

TEST(SplitMix64, SeedZeroGivesThePublishedOutputs) {
  constexpr std::array<std::uint64_t, 4> kPublished{0xe220a8397b1dcdafull, 0x6e789e6aa1b965f4ull, 0x06c45d188009454full,
                                                    0xf88bb8a8724c81ecull};
  movebench::SplitMix64 generator(0);
  for (const std::uint64_t expected : kPublished) EXPECT_EQ(generator.next(), expected);
}

TEST(SplitMix64, TheHashIsOneStepFromThatState) {
  static_assert(movebench::splitmix64(0) == 0xe220a8397b1dcdafull);
  // The second output is the hash of the state after one step.
  EXPECT_EQ(movebench::splitmix64(movebench::kSplitMix64Gamma), 0x6e789e6aa1b965f4ull);
  movebench::SplitMix64 generator(12345);
  EXPECT_EQ(generator.next(), movebench::splitmix64(12345));
}
