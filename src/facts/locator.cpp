#include "facts/locator.hpp"

#include <array>
#include <cctype>
#include <regex>
#include <vector>

namespace movebench::facts {
namespace {

// One naming scheme. Groups: the socket's number, the channel's name parts
// (joined by `channel_format`: {0} and {1} are the parts), the slot's number;
// 0 where the scheme does not tell it.
struct Rule {
  const char* name;
  bool on_bank;  // matched against the Bank Locator, else the Locator
  const char* pattern;
  int socket_group;
  std::array<int, 2> channel_groups;
  const char* channel_format;
  int slot_group;
};

// Most specific first; whole-string matches, case-insensitive.
constexpr std::array<Rule, 16> kRules{{
    {"CPUn_DIMM_Xk", false, R"(CPU(\d+)_DIMM_([A-P])(\d+))", 1, {2, 0}, "{0}", 3},
    {"Pn-DIMMXk", false, R"(P(\d+)[-_]DIMM([A-P])(\d+))", 1, {2, 0}, "{0}", 3},
    {"DIMM_Pn_Xk", false, R"(DIMM_P(\d+)_([A-P])(\d+))", 1, {2, 0}, "{0}", 3},
    {"Pn_MCm_DIM_CH_Xk", false, R"(P(\d+)_MC\d+_DIM_CH_([A-P])(\d+))", 1, {2, 0}, "{0}", 3},
    {"Pn_UMCm_CH_Xk", false, R"(P(\d+)_(?:D\d+_)?UMC\d+_CH_([A-P])(\d+))", 1, {2, 0}, "{0}", 3},
    {"ControllerN-ChannelX-DIMMk",
     false,
     R"(Controller(\d+)-Channel([A-P])(?:-DIMM(\d+))?)",
     0,
     {1, 2},
     "Controller{0}-Channel{1}",
     3},
    {"ChannelX-DIMMk", false, R"(Channel([A-P])[-_]DIMM(\d+))", 0, {1, 0}, "{0}", 2},
    {"DDRn_Xk", false, R"(DDR\d_([A-P])(\d+))", 0, {1, 0}, "{0}", 2},
    {"DIMM_Xk", false, R"(DIMM[ _-]?([A-P])(\d+))", 0, {1, 0}, "{0}", 2},
    {"Pn CHANNEL X", true, R"(P(\d+) CHANNEL ([A-P]))", 1, {2, 0}, "{0}", 0},
    {"CHANNEL X", true, R"(CHANNEL ([A-P]))", 0, {1, 0}, "{0}", 0},
    {"Pn_Nodem_Channelc_Dimmk", true, R"(P(\d+)_Node(\d+)_Channel(\d+)_Dimm\d+)", 1, {2, 3}, "Node{0}-Channel{1}", 0},
    {"SOCKET n CHANNEL c DIMM k", true, R"(SOCKET (\d+) CHANNEL (\d+) DIMM \d+)", 1, {2, 0}, "{0}", 0},
    {"CPU n", true, R"(CPU ?(\d+))", 1, {0, 0}, "", 0},
    {"DIMMk_CPUn", false, R"(DIMM\d+_CPU(\d+))", 1, {0, 0}, "", 0},
    {"Pn", true, R"(P(\d+))", 1, {0, 0}, "", 0},
}};

std::optional<int> number(const std::smatch& m, int group) {
  if (group == 0 || !m[group].matched || m[group].length() > 6) return std::nullopt;
  return std::stoi(m[group].str());
}

std::string channel_name(const std::smatch& m, const Rule& rule) {
  if (rule.channel_groups[0] == 0) return "";
  std::string out;
  for (const char* f = rule.channel_format; *f; ++f) {
    const bool mark = f[0] == '{' && (f[1] == '0' || f[1] == '1') && f[2] == '}';
    if (!mark) {
      out += *f;
      continue;
    }
    const int group = rule.channel_groups[f[1] - '0'];
    if (group) {
      for (char c : m[group].str()) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    f += 2;
  }
  return out;
}

// The rules' patterns, compiled once (std::regex construction costs more
// than matching a whole table's slots).
const std::vector<std::regex>& compiled_rules() {
  static const std::vector<std::regex> compiled = [] {
    std::vector<std::regex> out;
    for (const Rule& rule : kRules) out.emplace_back(rule.pattern, std::regex::icase | std::regex::ECMAScript);
    return out;
  }();
  return compiled;
}

// Fills what `place` does not know yet from the first rule that matches.
void apply(SlotPlace& place, const std::string& text, bool bank) {
  for (std::size_t i = 0; i < kRules.size(); ++i) {
    const Rule& rule = kRules[i];
    if (rule.on_bank != bank) continue;
    std::smatch m;
    if (!std::regex_match(text, m, compiled_rules()[i])) continue;
    const std::string channel = channel_name(m, rule);
    if (!place.socket) place.socket = number(m, rule.socket_group);
    if (place.channel.empty() && !channel.empty()) place.channel = channel;
    if (!place.slot) place.slot = number(m, rule.slot_group);
    place.rule += (place.rule.empty() ? "" : " + ") + std::string(rule.name);
    return;
  }
}

}  // namespace

SlotPlace place_of(std::string_view locator, std::string_view bank_locator) {
  SlotPlace place;
  // Long strings are no slot names; regex on them would only cost time.
  if (locator.size() > 64 || bank_locator.size() > 64) return place;
  apply(place, std::string(locator), false);
  const bool had_channel = !place.channel.empty();
  apply(place, std::string(bank_locator), true);
  // "DIMM 0" with "P0 CHANNEL A" (AMD reference boards): the slot is the
  // locator's number once the bank has named the channel.
  if (!had_channel && !place.channel.empty() && !place.slot) {
    static const std::regex slot_only(R"(DIMM ?(\d+))", std::regex::icase);
    std::smatch m;
    const std::string loc(locator);
    if (std::regex_match(loc, m, slot_only)) {
      place.slot = number(m, 1);
      place.rule += " + DIMM k";
    }
  }
  return place;
}

}  // namespace movebench::facts
