// Host memory for benchmark arrays.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace movebench {

// One array's memory, mapped fresh from the kernel and not touched here, so
// that the first thread to write a page places it (parallel first touch).
// The start is aligned to exactly `alignment` bytes: below the page size it
// is deliberately not aligned to twice that, so that an alignment study
// measures what it asks for. With huge_pages the mapping is 2 MiB aligned and
// advised for transparent huge pages.
class HostBuffer {
 public:
  HostBuffer() = default;
  HostBuffer(std::size_t bytes, std::size_t alignment, bool huge_pages = false);
  ~HostBuffer();
  HostBuffer(HostBuffer&& other) noexcept;
  HostBuffer& operator=(HostBuffer&& other) noexcept;
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  void* data() const { return data_; }
  std::size_t size() const { return bytes_; }
  template <class T>
  T* as() const {
    return static_cast<T*>(data_);
  }

 private:
  void* mapping_ = nullptr;
  std::size_t mapping_bytes_ = 0;
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// A buffer every byte of which the calling thread has written, for message
// buffers that no first-touch scheme places: each page is then real memory
// on this thread's NUMA node. Untouched anonymous memory reads from the
// kernel's one shared zero page, always in cache, so a send buffer never
// written shows a bandwidth no real data moves at (docs/performance.md:
// two to three times too high for MPI messages on shared memory).
HostBuffer written_buffer(std::size_t bytes, std::size_t alignment, std::byte value = std::byte{0x5a});

// MemAvailable from /proc/meminfo (falls back to free RAM).
std::uint64_t available_memory_bytes();

// Throws UsageError naming `what` when `bytes` would not fit in available
// memory: called before anything is allocated.
void require_memory(std::uint64_t bytes, std::string_view what);

// True when `alignment` is a power of two.
bool is_power_of_two(std::uint64_t alignment);

}  // namespace movebench
