// core/output: send_now hands the text over and flushes it at once (the MPI
// rows reach the launcher as they are measured); CapturedOutput keeps both
// streams apart.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/output.hpp"

using namespace movebench;

namespace {

// Counts the flushes and records what had been written at each.
class FlushCounting final : public Output {
 public:
  void text(std::string_view s) override { out += s; }
  void problem(std::string_view) override {}
  void flush() override { flushed_at.push_back(out); }
  std::string out;
  std::vector<std::string> flushed_at;
};

}  // namespace

TEST(Output, SendNowFlushesAfterTheText) {
  FlushCounting o;
  o.text("heading\n");
  EXPECT_TRUE(o.flushed_at.empty());  // text alone stays buffered
  send_now(o, "row 1\n");
  send_now(o, "row 2\n");
  ASSERT_EQ(o.flushed_at.size(), 2u);
  EXPECT_EQ(o.flushed_at[0], "heading\nrow 1\n");
  EXPECT_EQ(o.flushed_at[1], "heading\nrow 1\nrow 2\n");
}

TEST(Output, CapturedOutputKeepsTextAndProblemsApart) {
  CapturedOutput o;
  send_now(o, "a row\n");
  o.problem("one line");
  EXPECT_EQ(o.out, "a row\n");
  EXPECT_EQ(o.err, "one line\n");
}
