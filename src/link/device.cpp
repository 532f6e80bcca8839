#include "link/device.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/launcher.hpp"
#include "link/backends.hpp"

namespace movebench::link {

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
  static const std::vector<MemKind> kinds{MemKind::kPageable, MemKind::kPinned, MemKind::kMapped,
                                          MemKind::kRegistered, MemKind::kWriteCombined};
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

ChunkTimes Device::run_extra_design(const std::string& design, const StreamJob&) {
  throw UsageError(fmt::format("design '{}' needs a backend that has it (the {} backend does not)", design, backend()));
}

std::vector<std::string> built_backends() {
  std::vector<std::string> out;
#ifdef MOVEBENCH_HAVE_CUDA
  out.push_back("cuda");
#endif
#ifdef MOVEBENCH_HAVE_OPENCL
  out.push_back("opencl");
#endif
  out.push_back("host");
  return out;
}

int local_rank_from_env() { return launcher_local_rank(); }

namespace {

std::unique_ptr<Device> open_named(const std::string& backend, const DeviceChoice& choice) {
#ifdef MOVEBENCH_HAVE_CUDA
  if (backend == "cuda") return open_cuda_device(choice);
#endif
#ifdef MOVEBENCH_HAVE_OPENCL
  if (backend == "opencl") return open_opencl_device(choice, false);
#endif
  if (backend == "host") return open_host_device(choice);
  const auto built = built_backends();
  std::string list;
  for (const auto& b : built) list += (list.empty() ? "" : ", ") + b;
  throw UsageError(fmt::format("backend '{}' is not built into this movebench (built: {})", backend, list));
}

}  // namespace

std::unique_ptr<Device> open_device(const DeviceChoice& choice) {
  if (!choice.backend.empty()) return open_named(choice.backend, choice);
  // No choice: an accelerator when one is built and present, else the host.
  // A CPU OpenCL device (PoCL) is not an accelerator: it is asked for by name.
#ifdef MOVEBENCH_HAVE_CUDA
  try {
    return open_cuda_device(choice);
  } catch (const UsageError&) {
  }
#endif
#ifdef MOVEBENCH_HAVE_OPENCL
  try {
    return open_opencl_device(choice, true);
  } catch (const UsageError&) {
  }
#endif
  return open_host_device(choice);
}

}  // namespace movebench::link

namespace movebench::link {

int pick_index(const std::string& wanted, const std::vector<std::string>& names, const char* what) {
  const int count = static_cast<int>(names.size());
  if (count == 0) throw UsageError(fmt::format("no {} found", what));
  if (wanted.empty()) {
    const int rank = local_rank_from_env();
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

}  // namespace movebench::link
