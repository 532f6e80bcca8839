#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "core/buffer.hpp"

namespace movebench {
namespace {

// Pages of [data, data + bytes) that are backed by memory (mincore).
std::size_t resident_pages(const HostBuffer& b) {
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto start = reinterpret_cast<std::uintptr_t>(b.data()) & ~(page - 1);
  const auto end = reinterpret_cast<std::uintptr_t>(b.data()) + b.size();
  std::vector<unsigned char> in((end - start + page - 1) / page);
  EXPECT_EQ(mincore(reinterpret_cast<void*>(start), end - start, in.data()), 0);
  std::size_t n = 0;
  for (auto v : in) n += v & 1;
  return n;
}

TEST(HostBuffer, AlignedToExactlyTheAlignmentAsked) {
  HostBuffer b(1 << 20, 64);
  const auto at = reinterpret_cast<std::uintptr_t>(b.data());
  EXPECT_EQ(at % 64, 0u);
  EXPECT_NE(at % 128, 0u);
}

TEST(HostBuffer, IsNotTouchedSoThatTheFirstWriterPlacesIt) {
  HostBuffer b(4 << 20, 4096);
  EXPECT_EQ(resident_pages(b), 0u);
}

// Message buffers must be real memory: an untouched one reads the shared
// zero page and inflates bandwidth.
TEST(HostBuffer, WrittenBufferHasEveryPageResidentAndEveryByteSet) {
  const std::size_t bytes = (4 << 20) + 100;
  HostBuffer b = written_buffer(bytes, 64);
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  EXPECT_GE(resident_pages(b), bytes / page);
  const auto* p = b.as<unsigned char>();
  for (std::size_t i = 0; i < bytes; i += 997) ASSERT_EQ(p[i], 0x5a) << i;
  EXPECT_EQ(p[bytes - 1], 0x5a);
}

}  // namespace
}  // namespace movebench
