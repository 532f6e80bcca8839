// splitmix64 (Steele, Lea and Flood's SplittableRandom, as Sebastiano Vigna
// published it: https://prng.di.unimi.it/splitmix64.c), written once: mem's
// initial values, the MPI commands' message data and beff's random rings
// all take their numbers from here. Not for anything secret.
#pragma once
#include <cstdint>

namespace movebench {

// The step splitmix64 adds to its state (2^64 over the golden ratio).
inline constexpr std::uint64_t kSplitMix64Gamma = 0x9e3779b97f4a7c15ull;

// The output of splitmix64.c's next() when its state is `state`: the state
// plus the step, mixed so that every input bit affects every output bit. As
// a hash of `state`, it has no short period along consecutive inputs.
constexpr std::uint64_t splitmix64(std::uint64_t state) {
  std::uint64_t z = state + kSplitMix64Gamma;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The generator: next() gives the same numbers as splitmix64.c's next()
// seeded with `seed`, on every machine.
class SplitMix64 {
 public:
  constexpr explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  constexpr std::uint64_t next() {
    const std::uint64_t out = splitmix64(state_);
    state_ += kSplitMix64Gamma;
    return out;
  }

 private:
  std::uint64_t state_;
};

}  // namespace movebench
