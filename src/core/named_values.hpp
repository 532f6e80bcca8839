// The choices an option takes by name (mem's --type and --unit, fleet's
// --per): one table of name and value per enum, the single source of the
// names on the command line, in --help, in messages and in the output.
#pragma once
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"

namespace movebench {

template <class E>
struct NamedValue {
  std::string_view name;
  E value;
};

template <class E, std::size_t N>
constexpr std::string_view name_in(const std::array<NamedValue<E>, N>& names, E value) {
  for (const auto& n : names) {
    if (n.value == value) return n.name;
  }
  return {};
}
// The value of a name the option's check (CLI::IsMember of names_of) let through.
template <class E, std::size_t N>
E value_in(const std::array<NamedValue<E>, N>& names, std::string_view name) {
  for (const auto& n : names) {
    if (n.name == name) return n.value;
  }
  return names.front().value;
}
template <class E, std::size_t N>
std::vector<std::string> names_of(const std::array<NamedValue<E>, N>& names) {
  std::vector<std::string> out;
  for (const auto& n : names) out.emplace_back(n.name);
  return out;
}

// "host, opencl or cuda": `names` for help and error text.
std::string or_list(const std::vector<std::string>& names);

// The value `text` names; throws UsageError "invalid <option> '<text>': host
// or rank" for a name not in the table.
template <class E, std::size_t N>
E parse_named(const std::array<NamedValue<E>, N>& names, std::string_view text, std::string_view option) {
  for (const auto& n : names) {
    if (n.name == text) return n.value;
  }
  throw UsageError("invalid " + std::string(option) + " '" + std::string(text) + "': " + or_list(names_of(names)));
}

}  // namespace movebench
