// The DRAM analysis behind dram_facts: DIMMs placed on sockets and channels,
// the peak, and the faults that lower it. Internal to the facts layer.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "facts/cpu_table.hpp"
#include "facts/locator.hpp"
#include "facts/smbios.hpp"

namespace movebench::facts {

struct PlacedDimm {
  MemoryDevice device;
  SlotPlace place;
  int socket = -1;  // 0-based; -1 unknown
};

// A channel: (socket, name); socket -1 when the board does not say it.
using ChannelKey = std::pair<int, std::string>;

struct DramLayout {
  std::vector<PlacedDimm> dimms;  // installed
  std::vector<PlacedDimm> empty_slots;
  std::map<ChannelKey, std::vector<const PlacedDimm*>> channels;  // installed DIMMs by known channel
  std::vector<const PlacedDimm*> unplaced;                        // installed, channel unknown
  int sockets = 1;
  std::optional<CpuMemoryRow> cpu;    // the table's row, none: not in the table
  nlohmann::json package_numa_nodes;  // per socket, from this machine's hwloc; null when not known
};

// Bytes one channel moves per transfer: 8 (64 data bits) for a DIMM whatever
// width its entry reports: 72 counts the ECC bits, and DDR5's 32 or 40 is one
// of its two sub-channels, both on the same 64-bit channel. Soldered LPDDR
// reports each entry's own data width, which is its share, narrower or wider
// than 64 bits: NVIDIA Grace lists all its LPDDR5X as one entry of 480 data
// bits (540 with ECC; tests/data/dmi/grace_csit_c1_lpddr5.txt).
double bytes_per_transfer(const MemoryDevice& device);

// The slowest configured speed of a channel's DIMMs (they run together);
// the rated speed where no configured one is given; none when neither is.
std::optional<std::uint32_t> channel_mts(const std::vector<const PlacedDimm*>& dimms);

// {"kind", "text"} objects; the limiting fault ({"kind", "text", "loss"}).
nlohmann::json dram_faults(const DramLayout& layout);
nlohmann::json limiting_fault(const DramLayout& layout, const nlohmann::json& faults);

// Channels of the CPU in all (per socket x sockets); none when not in the table.
std::optional<int> channels_total(const DramLayout& layout);

}  // namespace movebench::facts
