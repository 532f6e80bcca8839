#include "node/numa_placement.hpp"

#include <fmt/format.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

namespace movebench::node {
namespace {

// Every NUMA call below is glibc's syscall(), never inline assembly: the one
// entry point tests/faults/node_faults.cpp replaces (LD_PRELOAD) to report a
// page elsewhere. The kernel's constants (linux/mempolicy.h), which glibc
// does not declare.
constexpr int kMpolBind = 2;
constexpr unsigned kMpolMfStrict = 1u << 0;
constexpr unsigned kMpolMfMove = 1u << 1;
constexpr int kMaskBits = 4096;  // nodes a mask can name (the kernel's MAX_NUMNODES at most 1024)
constexpr int kWordBits = 8 * sizeof(unsigned long);

std::uintptr_t page_bytes() { return static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE)); }

}  // namespace

std::string bind_to_node(void* data, std::size_t bytes, int node) {
  if (node < 0 || node >= kMaskBits) return fmt::format("no such NUMA node {}", node);
  std::vector<unsigned long> mask(kMaskBits / kWordBits, 0);
  mask[static_cast<std::size_t>(node / kWordBits)] = 1ul << (node % kWordBits);
  const std::uintptr_t page = page_bytes();
  const auto begin = reinterpret_cast<std::uintptr_t>(data) & ~(page - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes + page - 1) & ~(page - 1);
  // maxnode counts one more than the mask's bits (the kernel drops the last).
  if (syscall(SYS_mbind, begin, end - begin, kMpolBind, mask.data(), kMaskBits + 1, kMpolMfStrict | kMpolMfMove) != 0) {
    return fmt::format("mbind to NUMA node {}: {}", node, std::strerror(errno));
  }
  return "";
}

PlacementCheck check_placement(const void* data, std::size_t bytes, int node, std::size_t samples) {
  PlacementCheck check;
  const std::uintptr_t page = page_bytes();
  const auto first = reinterpret_cast<std::uintptr_t>(data) & ~(page - 1);
  const std::size_t pages = bytes == 0 ? 0 : (reinterpret_cast<std::uintptr_t>(data) + bytes - 1 - first) / page + 1;
  const std::size_t n = std::min(samples, pages);
  if (n == 0) return check;
  std::vector<void*> addresses(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t p = n == 1 ? 0 : i * (pages - 1) / (n - 1);
    addresses[i] = reinterpret_cast<void*>(first + p * page);
  }
  std::vector<int> status(n, -1);
  if (syscall(SYS_move_pages, 0, n, addresses.data(), nullptr, status.data(), 0) != 0) {
    check.error = fmt::format("move_pages: {}", std::strerror(errno));
    return check;
  }
  check.sampled = n;
  for (int s : status) {
    if (s == node) continue;
    if (check.off_node++ == 0) check.found_node = s >= 0 ? s : -1;
  }
  return check;
}

std::string placement_problem(const PlacementCheck& check, int node) {
  if (!check.error.empty()) return fmt::format("where the pages are could not be checked ({})", check.error);
  if (check.sampled == 0) return "no pages to check";
  if (check.off_node == 0) return "";
  const std::string where =
      check.found_node >= 0 ? fmt::format("the first on node {}", check.found_node) : "the first not present";
  return fmt::format("{} of {} sampled pages are not on NUMA node {} ({})", check.off_node, check.sampled, node, where);
}

ScopedNodeBinding::ScopedNodeBinding(int node) : old_mask_(kMaskBits / kWordBits, 0) {
  if (node < 0 || node >= kMaskBits) {
    error_ = fmt::format("no such NUMA node {}", node);
    return;
  }
  if (syscall(SYS_get_mempolicy, &old_mode_, old_mask_.data(), kMaskBits, nullptr, 0) != 0) {
    error_ = fmt::format("get_mempolicy: {}", std::strerror(errno));
    return;
  }
  std::vector<unsigned long> mask(kMaskBits / kWordBits, 0);
  mask[static_cast<std::size_t>(node / kWordBits)] = 1ul << (node % kWordBits);
  if (syscall(SYS_set_mempolicy, kMpolBind, mask.data(), kMaskBits + 1) != 0) {
    error_ = fmt::format("set_mempolicy to NUMA node {}: {}", node, std::strerror(errno));
    return;
  }
  restore_ = true;
}

ScopedNodeBinding::~ScopedNodeBinding() {
  if (restore_) syscall(SYS_set_mempolicy, old_mode_, old_mask_.data(), kMaskBits + 1);
}

}  // namespace movebench::node
