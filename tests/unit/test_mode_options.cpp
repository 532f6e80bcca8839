// ModeOptions: an option registered for some modes is refused in the others,
// only when it was given, and the message names the option, the modes it
// goes with and the mode it was given to.
#include "core/mode_options.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/errors.hpp"

namespace movebench {
namespace {

struct Parsed {
  CLI::App app;
  ModeOptions modes{"mem"};
  std::string stride, chunk, sizes;

  explicit Parsed(std::vector<std::string> args) {
    modes.only({"latency", "loaded-latency"}, app.add_option("--stride-bytes,--stride", stride));
    modes.only({"loaded-latency"}, app.add_option("--chunk-bytes", chunk));
    modes.only({"seq", "tp", "latency"}, app.add_option("--sizes-bytes", sizes));
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses a reversed vector
    app.parse(reversed);
  }
};

std::string refusal(const Parsed& p, std::string_view mode) {
  try {
    p.modes.check(mode);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(ModeOptions, NothingGivenIsNeverRefused) {
  const Parsed p({});
  for (const char* mode : {"bandwidth", "seq", "tp", "latency", "loaded-latency"}) EXPECT_EQ(refusal(p, mode), "");
}

TEST(ModeOptions, AnOptionIsTakenByItsModesAndRefusedByTheOthers) {
  const Parsed p({"--stride-bytes", "128"});
  EXPECT_EQ(refusal(p, "latency"), "");
  EXPECT_EQ(refusal(p, "loaded-latency"), "");
  EXPECT_EQ(refusal(p, "bandwidth"), "--stride-bytes applies to mem latency and loaded-latency, not to mem bandwidth");
}

TEST(ModeOptions, TheMessageListsOneTwoOrMoreModes) {
  EXPECT_EQ(refusal(Parsed({"--chunk-bytes", "4K"}), "seq"),
            "--chunk-bytes applies to mem loaded-latency, not to mem seq");
  EXPECT_EQ(refusal(Parsed({"--sizes-bytes", "4K"}), "bandwidth"),
            "--sizes-bytes applies to mem seq, tp and latency, not to mem bandwidth");
}

TEST(ModeOptions, AnAliasIsRefusedUnderTheOptionsName) {
  EXPECT_EQ(refusal(Parsed({"--stride", "128"}), "tp"),
            "--stride-bytes applies to mem latency and loaded-latency, not to mem tp");
}

TEST(ModeOptions, TheFirstRegisteredOptionGivenIsNamed) {
  EXPECT_EQ(refusal(Parsed({"--sizes-bytes", "4K", "--stride-bytes", "128"}), "bandwidth"),
            "--stride-bytes applies to mem latency and loaded-latency, not to mem bandwidth");
}

}  // namespace
}  // namespace movebench
