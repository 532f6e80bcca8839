// The one repetitions helper: its range, its message, its result key.
#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "core/repetitions.hpp"

namespace movebench {
namespace {

std::string message_of(const Repetitions& r, long long value) {
  try {
    r.check(value);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(Repetitions, KeptSamplesAreOneToTheMostKept) {
  const Repetitions r{"--repetitions (-c, --count)", "count"};
  EXPECT_EQ(message_of(r, 1), "");
  EXPECT_EQ(message_of(r, vocabulary::kMaxKeptRepetitions), "");
  EXPECT_EQ(message_of(r, 0), "invalid --repetitions (-c, --count) '0': 1 to 1000000");
  EXPECT_EQ(message_of(r, vocabulary::kMaxKeptRepetitions + 1),
            "invalid --repetitions (-c, --count) '1000001': 1 to 1000000");
}

TEST(Repetitions, UnboundedCountsAreOneOrMore) {
  const Repetitions r{"-i", "max_iterations", Repetitions::kUnbounded};
  EXPECT_EQ(message_of(r, 2147483647), "");
  EXPECT_EQ(message_of(r, -3), "invalid -i '-3': 1 or more");
}

TEST(Repetitions, RecordsUnderItsCommandsKey) {
  const Repetitions r{"--repetitions", "iterations"};
  nlohmann::json settings = nlohmann::json::object();
  r.record(settings, 5);
  EXPECT_EQ(settings, (nlohmann::json{{"iterations", 5}}));
  EXPECT_EQ(r.key(), "iterations");
}

}  // namespace
}  // namespace movebench
