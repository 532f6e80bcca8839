#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/errors.hpp"
#include "core/sizes.hpp"

using namespace movebench;

TEST(ParseSize, PlainAndSuffixes) {
  EXPECT_EQ(parse_size("64"), 64u);
  EXPECT_EQ(parse_size("4K"), 4096u);
  EXPECT_EQ(parse_size("4k"), 4096u);
  EXPECT_EQ(parse_size("2MiB"), 2u << 20);
  EXPECT_EQ(parse_size("3MB"), 3u << 20);
  EXPECT_EQ(parse_size("1G"), 1ull << 30);
  EXPECT_EQ(parse_size("2T"), 2ull << 40);
  EXPECT_EQ(parse_size("512B"), 512u);
}

TEST(ParseSize, RejectsMalformed) {
  for (const char* bad :
       {"1Q", "-5", "0", "", "K", "1.5M", "12 K", "1KQ", "0x10", "18446744073709551616", "99999999999999T"}) {
    EXPECT_THROW(parse_size(bad), UsageError) << bad;
  }
  EXPECT_EQ(parse_size("0", true), 0u);
}

TEST(ParseSizeList, RangesAndLists) {
  EXPECT_EQ(parse_size_list("1K:8K"), (std::vector<std::uint64_t>{1024, 2048, 4096, 8192}));
  EXPECT_EQ(parse_size_list("1:100:x10"), (std::vector<std::uint64_t>{1, 10, 100}));
  EXPECT_EQ(parse_size_list("1K:4K:+1K"), (std::vector<std::uint64_t>{1024, 2048, 3072, 4096}));
  EXPECT_EQ(parse_size_list("2^0..2^3"), (std::vector<std::uint64_t>{1, 2, 4, 8}));
  EXPECT_EQ(parse_size_list("64,128,64"), (std::vector<std::uint64_t>{64, 128}));
  EXPECT_EQ(parse_size_list("8,1:2"), (std::vector<std::uint64_t>{8, 1, 2}));
}

TEST(ParseSizeList, RejectsMalformed) {
  for (const char* bad : {"8K:1K", "1:8:x1", "1:8:y2", "2^3..2^1", "3..5", "1:2:3:4", ",", "1,,2"}) {
    EXPECT_THROW(parse_size_list(bad), UsageError) << bad;
  }
}

TEST(ParseCountList, ThreadCounts) {
  EXPECT_EQ(parse_count_list("1,2,4"), (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(parse_count_list("1:4"), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(parse_count_list("1:16:x2"), (std::vector<int>{1, 2, 4, 8, 16}));
  EXPECT_THROW(parse_count_list("0"), UsageError);
  EXPECT_THROW(parse_count_list("-1"), UsageError);
  EXPECT_THROW(parse_count_list("two"), UsageError);
}

TEST(FormatBytes, Units) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(1536), "1.50 KiB");
  EXPECT_EQ(format_bytes(3.0 * (1 << 30)), "3.00 GiB");
}

TEST(ParseList, EveryItemThroughItsParserInOrder) {
  const auto twice = [](std::string_view item) { return 2 * parse_whole_number(item, "count"); };
  EXPECT_EQ(parse_list("3,1,2", "count", twice), (std::vector<std::uint64_t>{6, 2, 4}));
  EXPECT_EQ(parse_list("copy,triad", "kernel", [](std::string_view s) { return std::string(s); }),
            (std::vector<std::string>{"copy", "triad"}));
  for (const char* bad : {"", "1,", ",1", "1,,2", "1,x", "1,-2", "1,+2", "1, 2"}) {
    EXPECT_THROW(parse_list(bad, "count", twice), UsageError) << bad;
  }
}

TEST(ParseWholeNumber, DigitsOnly) {
  EXPECT_EQ(parse_whole_number("0", "rank"), 0u);
  EXPECT_EQ(parse_whole_number("18446744073709551615", "rank"), 18446744073709551615ull);
  for (const char* bad : {"", "-1", "+1", " 1", "1 ", "1K", "0x1", "18446744073709551616"}) {
    EXPECT_THROW(parse_whole_number(bad, "rank"), UsageError) << bad;
  }
}

TEST(SizeText, TheShortestTextParseSizeReadsBack) {
  EXPECT_EQ(size_text(16384), "16K");
  EXPECT_EQ(size_text(64ull << 20), "64M");
  EXPECT_EQ(size_text(1ull << 30), "1G");
  EXPECT_EQ(size_text(3ull << 40), "3T");
  EXPECT_EQ(size_text(1ull << 50), "1024T");
  EXPECT_EQ(size_text(1000), "1000");
  EXPECT_EQ(size_text(1536), "1536");
  EXPECT_EQ(size_text(0), "0");
  for (std::uint64_t v : {1ull, 8ull, 4096ull, 6144ull, 16384ull, 1ull << 33, (5ull << 40) + 1024}) {
    EXPECT_EQ(parse_size(size_text(v)), v) << v;
  }
}

TEST(CheckRange, TheBoundsAreIncludedAndTheMessageNamesThem) {
  EXPECT_NO_THROW(check_range(0, "--rounds", 0, 1000));
  EXPECT_NO_THROW(check_range(1000, "--rounds", 0, 1000));
  EXPECT_NO_THROW(check_range(2.5, "--outlier-k", 0.0, 1000.0));
  const auto message = [](auto... args) {
    try {
      check_range(args...);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message(-2, "--rounds", 0, 1000), "invalid --rounds '-2': 0 to 1000");
  EXPECT_EQ(message(-1.0, "--outlier-k", 0.0, 1000.0), "invalid --outlier-k '-1': 0 to 1000");
  EXPECT_EQ(message(std::nan(""), "--outlier-k", 0.0, 1000.0), "invalid --outlier-k 'nan': 0 to 1000");
  EXPECT_EQ(message(HUGE_VAL, "--outlier-k", 0.0, 1000.0), "invalid --outlier-k 'inf': 0 to 1000");
}

TEST(ParsePercent, WithOrWithoutTheSignAndBackAsHelpShowsIt) {
  EXPECT_DOUBLE_EQ(parse_percent("10%", "--outlier-floor"), 0.10);
  EXPECT_DOUBLE_EQ(parse_percent("2.5", "--outlier-floor"), 0.025);
  EXPECT_DOUBLE_EQ(parse_percent("0", "--outlier-floor"), 0);
  EXPECT_EQ(percent_text(0.1), "10%");
  for (const char* bad : {"", "%", "ten", "10%%", "-1", "1001", "nan", "inf"}) {
    EXPECT_THROW(parse_percent(bad, "--outlier-floor"), UsageError) << bad;
  }
}
