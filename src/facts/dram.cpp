// dram_facts: the DIMMs, their channels and the theoretical DRAM peak,
//   peak = sum over channels in use of (configured MT/s x bytes per transfer)
// which is channels in use x configured MT/s x 8 B when all run at one speed.
// Where the board's slot names do not tell the channel, the peak is an upper
// bound (each DIMM on its own channel, no more channels than the CPU has)
// and says so ("peak_kind": "upper_bound"); never a guessed exact figure.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "facts/dram.hpp"
#include "facts/facts.hpp"

namespace movebench::facts {
namespace {

// Socket numbers as boards write them (CPU1/CPU2, P0/P1) become 0, 1, ...
// in the order of the numbers seen on all slots, empty ones included.
void number_sockets(std::vector<PlacedDimm>& all) {
  std::set<int> raw;
  for (const auto& d : all) {
    if (d.place.socket) raw.insert(*d.place.socket);
  }
  for (auto& d : all) {
    if (d.place.socket) d.socket = static_cast<int>(std::distance(raw.begin(), raw.find(*d.place.socket)));
  }
}

DramLayout layout_of(const SmbiosMemory& memory, const nlohmann::json& cpu) {
  std::vector<PlacedDimm> all;
  for (const auto& device : memory.devices) all.push_back({device, place_of(device.locator, device.bank_locator), -1});
  number_sockets(all);
  DramLayout layout;
  for (auto& d : all) (d.device.installed ? layout.dimms : layout.empty_slots).push_back(d);
  // "unknown" (a dmidecode text without type 4) counts as one socket.
  if (cpu.contains("sockets") && cpu["sockets"].is_number_integer())
    layout.sockets = std::max(1, cpu["sockets"].get<int>());
  for (const auto& d : layout.dimms) layout.sockets = std::max(layout.sockets, d.socket + 1);
  // One socket populated: every installed DIMM is on it, named or not.
  if (layout.sockets == 1) {
    for (auto& d : layout.dimms) d.socket = 0;
  }
  for (const auto& d : layout.dimms) {
    if (d.place.channel.empty())
      layout.unplaced.push_back(&d);
    else
      layout.channels[{d.socket, d.place.channel}].push_back(&d);
  }
  // hwloc's packages are this machine's sockets only when they count the same.
  if (cpu.contains("package_numa_nodes") &&
      cpu["package_numa_nodes"].size() == static_cast<std::size_t>(layout.sockets)) {
    layout.package_numa_nodes = cpu["package_numa_nodes"];
  }
  if (cpu.contains("model") && cpu["model"].is_string())
    layout.cpu = find_cpu_row(cpu_table(), cpu["model"].get<std::string>());
  return layout;
}

nlohmann::json optional_json(const auto& value) { return value ? nlohmann::json(*value) : nlohmann::json(nullptr); }

nlohmann::json dimm_json(const PlacedDimm& d) {
  const auto& m = d.device;
  nlohmann::json j = {{"locator", m.locator},
                      {"bank_locator", m.bank_locator},
                      {"socket", d.socket >= 0 ? nlohmann::json(d.socket) : nlohmann::json(nullptr)},
                      {"channel", d.place.channel.empty() ? nlohmann::json(nullptr) : nlohmann::json(d.place.channel)},
                      {"slot", optional_json(d.place.slot)},
                      {"place_rule", d.place.rule}};
  if (!m.installed) return j;
  j.update({{"type", m.type},
            {"size_bytes", optional_json(m.size_bytes)},
            {"rated_mts", optional_json(m.rated_mts)},
            {"configured_mts", optional_json(m.configured_mts)},
            {"data_width_bits", optional_json(m.data_width_bits)},
            {"manufacturer", m.manufacturer},
            {"part_number", m.part_number}});
  if (!m.type_note.empty()) j["type_note"] = m.type_note;
  return j;
}

// The upper bound for DIMMs whose channel is unknown: each on a channel of
// its own, the fastest first, no more of them than the CPU's channels left.
double unplaced_bound(const DramLayout& layout) {
  std::vector<double> rates;
  for (const PlacedDimm* d : layout.unplaced) {
    if (auto mts = channel_mts({d})) rates.push_back(*mts * 1e6 * bytes_per_transfer(d->device));
  }
  std::sort(rates.rbegin(), rates.rend());
  std::size_t room = rates.size();
  if (auto total = channels_total(layout)) {
    room = std::min(room, static_cast<std::size_t>(std::max(0, *total - static_cast<int>(layout.channels.size()))));
  }
  double sum = 0;
  for (std::size_t i = 0; i < room; ++i) sum += rates[i];
  return sum;
}

double channels_peak(const DramLayout& layout, int socket) {
  double sum = 0;
  for (const auto& [key, dimms] : layout.channels) {
    if (socket != -2 && key.first != socket) continue;
    if (auto mts = channel_mts(dimms)) sum += *mts * 1e6 * bytes_per_transfer(dimms.front()->device);
  }
  return sum;
}

nlohmann::json socket_json(const DramLayout& layout, int socket) {
  int populated = 0, max_dpc = 0;
  std::optional<std::uint32_t> slowest;
  for (const auto& [key, dimms] : layout.channels) {
    if (key.first != socket) continue;
    ++populated;
    max_dpc = std::max(max_dpc, static_cast<int>(dimms.size()));
  }
  for (const auto& d : layout.dimms) {
    if (d.socket != socket) continue;
    if (auto mts = channel_mts({&d})) slowest = slowest ? std::min(*slowest, *mts) : *mts;
  }
  int unplaced = 0;
  for (const PlacedDimm* d : layout.unplaced) unplaced += d->socket == socket;
  nlohmann::json j = {{"socket", socket >= 0 ? nlohmann::json(socket) : nlohmann::json("unknown")},
                      {"channels_total", layout.cpu && socket >= 0 ? nlohmann::json(layout.cpu->channels_per_socket)
                                                                   : nlohmann::json("unknown")},
                      {"channels_populated", unplaced ? nlohmann::json("unknown") : nlohmann::json(populated)},
                      {"dimms_per_channel", unplaced ? nlohmann::json("unknown") : nlohmann::json(max_dpc)},
                      {"configured_mts", optional_json(slowest)},
                      {"numa_nodes", "unknown"}};
  if (socket >= 0 && layout.package_numa_nodes.is_array()) j["numa_nodes"] = layout.package_numa_nodes[socket];
  int dimms = 0;
  for (const auto& d : layout.dimms) dimms += d.socket == socket;
  j["dimms"] = dimms;
  // A socket with DIMMs of unknown channel has no exact peak of its own.
  j["peak_bytes_per_second"] = unplaced ? nlohmann::json("unknown") : nlohmann::json(channels_peak(layout, socket));
  // A socket that is one NUMA node: the node's peak is the socket's. Split
  // in several (SNC, NPS), which channels serve which node is not told.
  if (j["numa_nodes"].is_array() && j["numa_nodes"].size() == 1) {
    j["numa_node_peaks"] = {{{"node", j["numa_nodes"][0]}, {"peak_bytes_per_second", j["peak_bytes_per_second"]}}};
  } else if (j["numa_nodes"].is_array()) {
    j["numa_node_peaks"] = {{"status", "unknown"},
                            {"why",
                             "the socket has several NUMA nodes (sub-NUMA clustering): "
                             "which channels serve which node is not told"}};
  }
  return j;
}

// Every socket the CPU facts count; but where some DIMMs' socket is not
// told, only the sockets DIMMs name (an empty "socket 1" would be a guess).
nlohmann::json sockets_json(const DramLayout& layout) {
  std::set<int> sockets;
  for (const auto& d : layout.dimms) sockets.insert(d.socket);
  if (!sockets.contains(-1)) {
    for (int s = 0; s < layout.sockets; ++s) sockets.insert(s);
  }
  nlohmann::json out = nlohmann::json::array();
  for (int s : sockets) out.push_back(socket_json(layout, s));
  return out;
}

nlohmann::json channels_source(const DramLayout& layout) {
  if (!layout.cpu)
    return {{"status", "unknown"},
            {"why", "the CPU model is not in the table (src/facts/data/cpu_memory_channels.csv)"}};
  const auto& r = *layout.cpu;
  return {{"family", r.family},
          {"pattern", r.pattern},
          {"channels_per_socket", r.channels_per_socket},
          {"memory_type", r.memory_type},
          {"max_mts", optional_json(r.max_mts)},
          {"source", r.source}};
}

std::string peak_formula(const DramLayout& layout) {
  const bool lpddr = std::any_of(layout.dimms.begin(), layout.dimms.end(),
                                 [](const PlacedDimm& d) { return d.device.type.starts_with("LPDDR"); });
  if (lpddr) {
    return "sum over channels in use (each memory entry, where its channel is not told) of configured (else rated) "
           "MT/s x the entry's data width / 8 B "
           "(soldered LPDDR: each entry's data width is its share of the bus)";
  }
  return "sum over channels in use of configured MT/s x 8 B (64 data bits per channel; "
         "= channels in use x configured MT/s x 8 B at one speed)";
}

}  // namespace

std::optional<int> channels_total(const DramLayout& layout) {
  if (!layout.cpu) return std::nullopt;
  return layout.cpu->channels_per_socket * layout.sockets;
}

nlohmann::json dram_facts(const Sources& sources, const nlohmann::json& cpu) {
  std::string why;
  const auto memory = read_smbios(sources, why);
  if (!memory) return {{"status", "unknown"}, {"why", why}, {"source", "SMBIOS type 17"}};
  const std::string source = memory->source + " (SMBIOS type 17)";
  const DramLayout layout = layout_of(*memory, cpu);
  if (layout.dimms.empty()) {
    return {{"status", "unknown"},
            {"source", source},
            {"why", memory->devices.empty()
                        ? "the SMBIOS table lists no memory device (type 17): a VM's firmware often has none"
                        : "the SMBIOS table lists memory slots but no installed module"}};
  }
  nlohmann::json out = {{"status", "known"},
                        {"source", source},
                        {"dimms", nlohmann::json::array()},
                        {"empty_slots", nlohmann::json::array()}};
  for (const auto& d : layout.dimms) out["dimms"].push_back(dimm_json(d));
  for (const auto& d : layout.empty_slots) out["empty_slots"].push_back(dimm_json(d));
  out["channels_per_socket"] = layout.cpu ? nlohmann::json(layout.cpu->channels_per_socket) : nlohmann::json("unknown");
  out["channels_source"] = channels_source(layout);
  out["channels_in_use"] = layout.unplaced.empty() ? nlohmann::json(layout.channels.size()) : nlohmann::json("unknown");
  out["sockets"] = sockets_json(layout);
  out["peak_bytes_per_second"] = channels_peak(layout, -2) + unplaced_bound(layout);
  out["peak_kind"] = layout.unplaced.empty() ? "exact" : "upper_bound";
  out["peak_formula"] = peak_formula(layout);
  out["faults"] = dram_faults(layout);
  out["limit"] = limiting_fault(layout, out["faults"]);
  return out;
}

}  // namespace movebench::facts
