// libFuzzer target: the size, size-list, count-list and name-list parsers of
// core/sizes. Every input must either parse into a value that keeps the
// documented promises, or throw UsageError; anything else (a crash, a
// sanitizer report, another exception, a list over the cap) is a finding.
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string_view>

#include "core/errors.hpp"
#include "core/sizes.hpp"

using namespace movebench;

namespace {
void require(bool ok) {
  if (!ok) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto v = parse_size(text);
    require(v > 0);
  } catch (const UsageError&) {
  }
  try {
    const auto list = parse_size_list(text);
    require(!list.empty() && list.size() <= kMaxListItems);
    require(std::set<std::uint64_t>(list.begin(), list.end()).size() == list.size());
    for (auto v : list) require(v > 0);
  } catch (const UsageError&) {
  }
  try {
    const auto counts = parse_count_list(text);
    require(!counts.empty() && counts.size() <= kMaxListItems);
    for (int c : counts) require(c >= 1 && c <= (1 << 20));
  } catch (const UsageError&) {
  }
  try {
    for (const auto& name : parse_name_list(text, "name")) require(!name.empty());
  } catch (const UsageError&) {
  }
  return 0;
}
