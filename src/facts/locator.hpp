// Where a DIMM slot sits (socket, channel, slot on the channel), from what
// the board calls it: SMBIOS type 17's Locator ("CPU1_DIMM_A1") and Bank
// Locator ("P0 CHANNEL A"). Boards name slots freely; only the patterns in
// locator.cpp, each seen on real boards (tests/data/dmi), are read, and a
// part they do not tell stays unknown: "A1" on a Dell board is CPU 1's first
// slot, not channel A, so it says nothing.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace movebench::facts {

struct SlotPlace {
  std::optional<int> socket;  // as the board numbers it (CPU1 -> 1, P0 -> 0): not yet 0-based
  std::string channel;        // the channel's name on its socket ("A", "Controller0-ChannelA"); "" unknown
  std::optional<int> slot;    // position on the channel, as the board numbers it
  std::string rule;           // the pattern that told it; "" when none did
};

SlotPlace place_of(std::string_view locator, std::string_view bank_locator);

}  // namespace movebench::facts
