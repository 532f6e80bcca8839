// What lowers the DRAM peak below the CPU's own (all its channels at its
// highest speed), each fault named with its likely cause, and the one that
// costs the most: the "limit" a verdict quotes.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "facts/dram.hpp"

namespace movebench::facts {
namespace {

nlohmann::json fault(std::string_view kind, std::string text) { return {{"kind", kind}, {"text", std::move(text)}}; }

int dimms_on_channel_of(const DramLayout& layout, const PlacedDimm& d) {
  if (d.place.channel.empty()) return 0;
  auto it = layout.channels.find({d.socket, d.place.channel});
  return it == layout.channels.end() ? 0 : static_cast<int>(it->second.size());
}

// Why a DIMM runs below its rating: the CPU's ceiling, the DIMMs sharing
// its channel, or neither (a BIOS setting or the board), or not knowable.
std::string clock_cause(const DramLayout& layout, const PlacedDimm& d) {
  const std::uint32_t mts = *d.device.configured_mts;
  if (layout.cpu && layout.cpu->max_mts && mts >= static_cast<std::uint32_t>(*layout.cpu->max_mts)) {
    return fmt::format("the CPU's maximum ({} MT/s, {})", *layout.cpu->max_mts, layout.cpu->family);
  }
  const int dpc = dimms_on_channel_of(layout, d);
  if (dpc >= 2) return fmt::format("{} DIMMs per channel", dpc);
  if (dpc == 0) return "unknown: the slot names do not tell the channel, so 2 DIMMs per channel cannot be ruled out";
  return "not the CPU's maximum nor 2 DIMMs per channel: a BIOS setting, the board or the DIMM";
}

void clocked_down(const DramLayout& layout, nlohmann::json& faults) {
  std::map<std::string, int> causes;  // cause -> DIMMs
  std::set<std::pair<std::uint32_t, std::uint32_t>> speeds;
  for (const auto& d : layout.dimms) {
    const auto& m = d.device;
    if (!m.rated_mts || !m.configured_mts || *m.configured_mts >= *m.rated_mts) continue;
    ++causes[clock_cause(layout, d)];
    speeds.insert({*m.rated_mts, *m.configured_mts});
  }
  for (const auto& [cause, count] : causes) {
    std::string rates;
    for (const auto& [rated, configured] : speeds)
      rates += fmt::format("{}{} -> {}", rates.empty() ? "" : ", ", rated, configured);
    faults.push_back(
        fault("clocked_down",
              fmt::format("{} DIMM(s) run below their rated speed (MT/s {}): likely cause {}", count, rates, cause)));
  }
}

void mixed_speeds(const DramLayout& layout, nlohmann::json& faults) {
  std::set<std::uint32_t> rated, configured;
  for (const auto& d : layout.dimms) {
    if (d.device.rated_mts) rated.insert(*d.device.rated_mts);
    if (d.device.configured_mts) configured.insert(*d.device.configured_mts);
  }
  auto list = [](const std::set<std::uint32_t>& s) { return fmt::format("{}", fmt::join(s, ", ")); };
  if (configured.size() > 1)
    faults.push_back(fault("mixed_speeds", "DIMMs configured at different speeds: " + list(configured) + " MT/s"));
  else if (rated.size() > 1)
    faults.push_back(
        fault("mixed_speeds", "DIMMs of different rated speeds: " + list(rated) + " MT/s (all run at the slowest)"));
}

void channel_faults(const DramLayout& layout, nlohmann::json& faults) {
  std::map<int, int> channels_with;  // DIMMs per channel -> channels
  for (const auto& [key, dimms] : layout.channels) ++channels_with[static_cast<int>(dimms.size())];
  for (const auto& [dpc, count] : channels_with) {
    if (dpc < 2) continue;
    faults.push_back(fault("dimms_per_channel", fmt::format("{} channel(s) with {} DIMMs: they share the channel's "
                                                            "bandwidth and often run slower",
                                                            count, dpc)));
  }
  const auto total = channels_total(layout);
  if (!total) return;
  const int placed = static_cast<int>(layout.channels.size());
  const int most = std::min(*total, placed + static_cast<int>(layout.unplaced.size()));
  if (most < *total) {
    faults.push_back(fault(
        "empty_channels",
        fmt::format("{} of the CPU's {} channels ({} per socket x {}) have no DIMM{}", *total - most, *total,
                    layout.cpu->channels_per_socket, layout.sockets, layout.unplaced.empty() ? "" : " at least")));
  }
}

void unknowns(const DramLayout& layout, nlohmann::json& faults) {
  if (!layout.cpu) {
    faults.push_back(fault("unknown_cpu",
                           "the CPU model is not in the table: its channel count is unknown, the peak "
                           "counts the populated channels only"));
  }
  if (!layout.unplaced.empty()) {
    faults.push_back(
        fault("channel_map_unknown",
              fmt::format("{} DIMM(s) with slot names that do not tell the channel (e.g. '{}'): the peak is "
                          "an upper bound (each on a channel of its own)",
                          layout.unplaced.size(), layout.unplaced.front()->device.locator)));
  }
  for (const auto& d : layout.dimms) {
    if (!d.device.configured_mts && !d.device.rated_mts) {
      faults.push_back(
          fault("speed_unknown", "a DIMM with no speed given ('" + d.device.locator + "'): left out of the peak"));
      return;
    }
  }
}

void slow_dimms(const DramLayout& layout, nlohmann::json& faults) {
  if (!layout.cpu || !layout.cpu->max_mts) return;
  int count = 0;
  std::uint32_t rated = 0;
  for (const auto& d : layout.dimms) {
    if (d.device.rated_mts && *d.device.rated_mts < static_cast<std::uint32_t>(*layout.cpu->max_mts)) {
      ++count;
      rated = *d.device.rated_mts;
    }
  }
  if (count) {
    faults.push_back(fault("slow_dimms", fmt::format("{} DIMM(s) rated below the CPU's {} MT/s (e.g. {} MT/s)", count,
                                                     *layout.cpu->max_mts, rated)));
  }
}

}  // namespace

double bytes_per_transfer(const MemoryDevice& device) {
  if (device.type.starts_with("LPDDR") && device.data_width_bits) {
    return *device.data_width_bits / 8.0;
  }
  return 8.0;
}

std::optional<std::uint32_t> channel_mts(const std::vector<const PlacedDimm*>& dimms) {
  std::optional<std::uint32_t> slowest;
  for (const PlacedDimm* d : dimms) {
    auto mts = d->device.configured_mts ? d->device.configured_mts : d->device.rated_mts;
    if (mts) slowest = slowest ? std::min(*slowest, *mts) : *mts;
  }
  return slowest;
}

nlohmann::json dram_faults(const DramLayout& layout) {
  nlohmann::json faults = nlohmann::json::array();
  unknowns(layout, faults);
  channel_faults(layout, faults);
  clocked_down(layout, faults);
  mixed_speeds(layout, faults);
  slow_dimms(layout, faults);
  return faults;
}

nlohmann::json limiting_fault(const DramLayout& layout, const nlohmann::json& faults) {
  auto text_of = [&](std::string_view kind) -> std::string {
    for (const auto& f : faults) {
      if (f["kind"] == kind) return f["text"];
    }
    return "";
  };
  if (!layout.cpu) return {{"kind", "unknown_cpu"}, {"text", text_of("unknown_cpu")}};
  const int total = *channels_total(layout);
  const int in_use = std::min(total, static_cast<int>(layout.channels.size() + layout.unplaced.size()));
  const double loss_channels = 1.0 - static_cast<double>(in_use) / total;
  double loss_speed = 0;
  if (layout.cpu->max_mts) {
    double sum = 0;
    int n = 0;
    for (const auto& d : layout.dimms) {
      if (auto mts = channel_mts({&d})) sum += std::min<double>(*mts, *layout.cpu->max_mts), ++n;
    }
    if (n) loss_speed = 1.0 - sum / n / *layout.cpu->max_mts;
  }
  const std::string speed_kind = text_of("clocked_down").empty() ? "slow_dimms" : "clocked_down";
  if (std::max(loss_channels, loss_speed) < 0.005) {
    if (!layout.unplaced.empty())
      return {{"kind", "channel_map_unknown"}, {"text", text_of("channel_map_unknown")}, {"loss", 0}};
    return {{"kind", "none"}, {"text", "all the CPU's channels in use at its highest speed"}, {"loss", 0}};
  }
  if (loss_channels >= loss_speed)
    return {{"kind", "empty_channels"}, {"text", text_of("empty_channels")}, {"loss", loss_channels}};
  return {{"kind", speed_kind}, {"text", text_of(speed_kind)}, {"loss", loss_speed}};
}

}  // namespace movebench::facts
