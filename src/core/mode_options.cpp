#include "core/mode_options.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/errors.hpp"

namespace movebench {

CLI::Option* ModeOptions::only(std::vector<std::string> modes, CLI::Option* option) {
  entries_.push_back({option, std::move(modes)});
  return option;
}

void ModeOptions::check(std::string_view mode) const {
  for (const Entry& e : entries_) {
    if (e.option->count() == 0 || std::find(e.modes.begin(), e.modes.end(), mode) != e.modes.end()) continue;
    std::string modes;
    for (std::size_t i = 0; i < e.modes.size(); ++i) {
      modes += i == 0 ? "" : i + 1 == e.modes.size() ? " and " : ", ";
      modes += e.modes[i];
    }
    throw UsageError(
        fmt::format("{} applies to {} {}, not to {} {}", e.option->get_name(), command_, modes, command_, mode));
  }
}

}  // namespace movebench
