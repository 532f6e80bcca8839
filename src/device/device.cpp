#include "device/device.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include "core/errors.hpp"
#include "core/launcher.hpp"

namespace movebench::device {

std::string_view kind_name(MemKind kind) {
  switch (kind) {
    case MemKind::kDevice: return "device";
    case MemKind::kPageable: return "pageable";
    case MemKind::kPinned: return "pinned";
    case MemKind::kMapped: return "mapped";
    case MemKind::kWriteCombined: return "write_combined";
    case MemKind::kRegistered: return "registered";
  }
  return "?";
}

const std::vector<MemKind>& all_host_kinds() {
  static const std::vector<MemKind> kinds{MemKind::kPageable, MemKind::kPinned, MemKind::kMapped, MemKind::kRegistered,
                                          MemKind::kWriteCombined};
  return kinds;
}

std::string kind_names(const std::vector<MemKind>& kinds) {
  std::string out;
  for (auto k : kinds) out += fmt::format("{}{}", out.empty() ? "" : ", ", kind_name(k));
  return out;
}

MemKind parse_host_kind(std::string_view name) {
  for (auto k : all_host_kinds()) {
    if (name == kind_name(k)) return k;
  }
  throw UsageError(fmt::format("unknown host memory kind '{}': {}", name, kind_names(all_host_kinds())));
}

int pick_index(const std::string& wanted, const std::vector<std::string>& names, const char* what) {
  const int count = static_cast<int>(names.size());
  if (count == 0) throw UsageError(fmt::format("no {} found", what));
  if (wanted.empty()) {
    const int rank = launcher_local_rank();
    return rank < 0 ? 0 : rank % count;  // under MPI: rank mod devices
  }
  char* end = nullptr;
  const long index = std::strtol(wanted.c_str(), &end, 10);
  if (end != wanted.c_str() && *end == '\0') {
    if (index < 0 || index >= count) {
      throw UsageError(fmt::format("no {} with index {} (there are {})", what, index, count));
    }
    return static_cast<int>(index);
  }
  for (int i = 0; i < count; ++i) {
    if (names[i].find(wanted) != std::string::npos) return i;
  }
  throw UsageError(fmt::format("no {} named like '{}'", what, wanted));
}

}  // namespace movebench::device
