// Sizes and size lists as users type them: 64, 4K, 2MiB, 1K:1M:x2, 2^0..2^20.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace movebench {

// One size: a whole number with an optional binary suffix K, M, G, T
// (optionally followed by "iB" or "B"): 4K = 4096. Throws UsageError on
// anything else, on overflow, and on zero unless allow_zero.
std::uint64_t parse_size(std::string_view text, bool allow_zero = false);

// The shortest text parse_size reads back as `bytes`: 16384 is "16K",
// 64 MiB "64M", 1000 "1000". How a size default shows in --help.
std::string size_text(std::uint64_t bytes);

// A list of sizes: comma-separated items, each one of
//   N                 one size
//   LO:HI             LO, 2*LO, 4*LO ... up to HI
//   LO:HI:xF          geometric steps of factor F (an integer >= 2)
//   LO:HI:+S          arithmetic steps of S (a size)
//   2^A..2^B          the powers of two from 2^A to 2^B
// The result keeps the order given and drops repeats. Empty items and
// lists longer than kMaxListItems are usage errors (a range such as
// 1:1T:+1 would otherwise fill the memory before anything runs).
std::vector<std::uint64_t> parse_size_list(std::string_view text);
inline constexpr std::size_t kMaxListItems = 1 << 16;

// A list of whole counts such as thread counts: "1,2,4" or "1:8" (steps of 1)
// or "1:16:x2".
std::vector<int> parse_count_list(std::string_view text);

// A comma-separated list of names ("triad,copy"), in order. Throws
// UsageError naming `what` on an empty list or an empty item ("a,,b", "a,").
// The one comma-list parser: every other list is this one with its items
// parsed (parse_list), or a list of sizes or counts above.
std::vector<std::string> parse_name_list(std::string_view text, std::string_view what);

// The items of a comma-separated list, each through `parse_one` (a name to
// an enum value, a delay, a rank), in order; empty items refused as above.
template <class Parse>
auto parse_list(std::string_view text, std::string_view what, Parse parse_one) {
  std::vector<decltype(parse_one(std::string_view{}))> out;
  for (const std::string& item : parse_name_list(text, what)) out.push_back(parse_one(std::string_view(item)));
  return out;
}

// A whole number (a rank, a count of spin iterations): digits only. Throws
// UsageError naming `what` on anything else and on overflow.
std::uint64_t parse_whole_number(std::string_view text, std::string_view what);

// a * b for byte counts (sizes x arrays x element bytes): throws UsageError
// naming `what` instead of wrapping around.
std::uint64_t checked_product(std::uint64_t a, std::uint64_t b, std::string_view what);

// A duration option in seconds: throws UsageError unless finite, positive
// and at most `most` (inf, nan and 1e300 would make a run that never ends).
void check_seconds(double seconds, std::string_view option, double most);

// A number option from `least` to `most` (a count, a factor): throws
// UsageError "invalid <option> '<value>': <least> to <most>" otherwise
// (NaN too). A count of timed repetitions is core/repetitions.hpp's.
template <class T>
void check_range(T value, std::string_view option, T least, T most);

// A share of something as users type it: "10%" or "10" (a percentage, 0 to
// 1000) is 0.1. Throws UsageError naming `option` on anything else.
double parse_percent(std::string text, std::string_view option);
// "10%" for 0.1: how a share shows in --help, as parse_percent reads it.
std::string percent_text(double share);

// "1.50 MiB", for humans.
std::string format_bytes(double bytes);

}  // namespace movebench
