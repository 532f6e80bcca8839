#include "core/buffer.hpp"

#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <new>
#include <string>
#include <utility>

#include "core/errors.hpp"
#include "core/sizes.hpp"

namespace movebench {
namespace {
constexpr std::size_t kHugePage = 2u << 20;
}

bool is_power_of_two(std::uint64_t alignment) { return alignment && !(alignment & (alignment - 1)); }

HostBuffer::HostBuffer(std::size_t bytes, std::size_t alignment, bool huge_pages) : bytes_(bytes) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t boundary = std::max(huge_pages ? kHugePage : page, alignment);
  mapping_bytes_ = bytes + 2 * boundary;
  mapping_ = mmap(nullptr, mapping_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping_ == MAP_FAILED) {
    mapping_ = nullptr;
    throw std::bad_alloc();
  }
  auto base = reinterpret_cast<std::uintptr_t>(mapping_);
  base = (base + boundary - 1) & ~(boundary - 1);
  if (alignment < boundary) base += alignment;  // exactly `alignment`, not more
  data_ = reinterpret_cast<void*>(base);
  if (huge_pages) madvise(reinterpret_cast<void*>(base & ~(kHugePage - 1)), bytes + kHugePage, MADV_HUGEPAGE);
}

HostBuffer written_buffer(std::size_t bytes, std::size_t alignment, std::byte value) {
  HostBuffer b(bytes, alignment);
  std::memset(b.data(), std::to_integer<int>(value), bytes);
  return b;
}

HostBuffer::~HostBuffer() {
  if (mapping_) munmap(mapping_, mapping_bytes_);
}

HostBuffer::HostBuffer(HostBuffer&& other) noexcept { *this = std::move(other); }

HostBuffer& HostBuffer::operator=(HostBuffer&& other) noexcept {
  if (this != &other) {
    if (mapping_) munmap(mapping_, mapping_bytes_);
    mapping_ = std::exchange(other.mapping_, nullptr);
    mapping_bytes_ = std::exchange(other.mapping_bytes_, 0);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

std::uint64_t available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  struct sysinfo info {};
  sysinfo(&info);
  return static_cast<std::uint64_t>(info.freeram) * info.mem_unit;
}

void require_memory(std::uint64_t bytes, std::string_view what) {
  const auto available = available_memory_bytes();
  if (bytes > available) {
    throw UsageError(fmt::format("{} needs {} but only {} of memory is available", what,
                                 format_bytes(static_cast<double>(bytes)),
                                 format_bytes(static_cast<double>(available))));
  }
}

}  // namespace movebench
