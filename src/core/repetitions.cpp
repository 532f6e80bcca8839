#include "core/repetitions.hpp"

#include <fmt/format.h>

#include <string>

#include "core/errors.hpp"

namespace movebench {

void Repetitions::check(long long value) const {
  const bool bounded = most_ != kUnbounded;
  if (value >= 1 && (!bounded || value <= most_)) return;
  const std::string range = bounded ? fmt::format("1 to {}", most_) : std::string("1 or more");
  throw UsageError(fmt::format("invalid {} '{}': {}", spelling_, value, range));
}

void Repetitions::record(nlohmann::json& settings, const nlohmann::json& value) const {
  settings[std::string(key_)] = value;
}

}  // namespace movebench
