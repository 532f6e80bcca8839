// stream's resolve step: a design row's chunk limit is checked for the
// shape and every sweep size before anything runs (the graph design's
// 4096 once failed an H200 sweep halfway, after the other designs' results).
#include <gtest/gtest.h>

#include <string>

#include "core/errors.hpp"
#include "stream/designs.hpp"

using namespace movebench;
using namespace movebench::stream;

namespace {

Design row(const char* name, std::size_t max_chunks) {
  Design d{name, name, nullptr, nullptr, nullptr};
  d.max_chunks = max_chunks;
  return d;
}

// "" when check_limits accepts, else its message.
std::string refusal(const std::vector<const Design*>& designs, std::uint64_t chunks,
                    const std::vector<std::uint64_t>& sweep_chunks) {
  try {
    check_limits(designs, chunks, sweep_chunks);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(StreamLimits, EverySweepSizeIsCheckedAgainstTheRow) {
  const Design free = row("chunked", 0), limited = row("graph", 4096);
  const std::vector<const Design*> both{&free, &limited};
  EXPECT_EQ(refusal(both, 2, {4096}), "");
  EXPECT_EQ(refusal(both, 2, {1u << 20}).find("chunked"), std::string::npos);  // no limit of its own
  // The H200 run: 2 chunks of 512 KiB swept at 64, 256 and 4K bytes.
  const std::uint64_t total = 2 * 131072 * 4;
  const std::string m = refusal(both, 2, {total / 64, total / 256, total / 4096});
  EXPECT_EQ(m.rfind("the graph design runs at most 4096 chunks a pass, this run asks for 16384", 0), 0u) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos);
  EXPECT_NE(refusal({&limited}, 4097, {}), "");  // the shape itself, without a sweep
}

TEST(StreamLimits, OffloadIsNotSweptSoOnlyItsShapeCounts) {
  const Design offload = row("offload", 8);
  EXPECT_EQ(refusal({&offload}, 8, {1000}), "");
  EXPECT_NE(refusal({&offload}, 9, {}), "");
}

TEST(StreamLimits, TheBuiltRowsHaveTheirLimitsInTheTable) {
  for (const auto& d : designs()) {
    if (std::string(d.name) == "graph") {
      EXPECT_GT(d.max_chunks, 0u);  // one graph per chunk
    } else {
      EXPECT_EQ(d.max_chunks, 0u) << d.name;  // host/OpenCL designs: no limit, so no integration test
    }
  }
}
