#include "core/sizes.hpp"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <string>
#include <unordered_set>

#include "core/errors.hpp"

namespace movebench {
namespace {

std::uint64_t parse_whole(std::string_view text, std::string_view what) {
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    throw UsageError(fmt::format("invalid {} '{}': expected a whole number", what, text));
  }
  return value;
}

int suffix_shift(std::string_view suffix) {
  if (suffix.empty() || suffix == "B") return 0;
  const char unit = static_cast<char>(std::toupper(static_cast<unsigned char>(suffix[0])));
  std::string_view rest = suffix.substr(1);
  if (!(rest.empty() || rest == "B" || rest == "iB")) return -1;
  switch (unit) {
    case 'K': return 10;
    case 'M': return 20;
    case 'G': return 30;
    case 'T': return 40;
    default: return -1;
  }
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    auto pos = text.find(sep, start);
    parts.push_back(text.substr(start, pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return parts;
}

// The sizes of a list in order, without repeats, and never more than
// kMaxListItems of them.
struct SizeList {
  explicit SizeList(std::string_view list_text) : text(list_text) {}
  std::vector<std::uint64_t> values;
  std::unordered_set<std::uint64_t> seen;
  std::string_view text;

  void add(std::uint64_t v) {
    if (!seen.insert(v).second) return;
    if (values.size() == kMaxListItems) {
      throw UsageError(fmt::format("invalid list '{}': more than {} sizes", text, kMaxListItems));
    }
    values.push_back(v);
  }
};

void expand_power_range(std::string_view item, SizeList& out) {
  // 2^A..2^B
  auto dots = item.find("..");
  auto lo = item.substr(0, dots), hi = item.substr(dots + 2);
  if (!lo.starts_with("2^") || !hi.starts_with("2^")) {
    throw UsageError(fmt::format("invalid size range '{}': expected 2^A..2^B", item));
  }
  auto a = parse_whole(lo.substr(2), "exponent"), b = parse_whole(hi.substr(2), "exponent");
  if (a > b || b > 62) throw UsageError(fmt::format("invalid size range '{}'", item));
  for (auto e = a; e <= b; ++e) out.add(std::uint64_t{1} << e);
}

void expand_colon_range(std::string_view item, SizeList& out) {
  auto parts = split(item, ':');
  if (parts.size() < 2 || parts.size() > 3) {
    throw UsageError(fmt::format("invalid size range '{}': expected LO:HI[:xF|:+S]", item));
  }
  const auto lo = parse_size(parts[0]), hi = parse_size(parts[1]);
  if (lo > hi) throw UsageError(fmt::format("invalid size range '{}': LO is above HI", item));
  std::string_view step = parts.size() == 3 ? parts[2] : "x2";
  if (step.starts_with('x')) {
    const auto factor = parse_whole(step.substr(1), "step factor");
    if (factor < 2) throw UsageError(fmt::format("invalid step '{}': factor must be >= 2", step));
    for (auto v = lo; v <= hi; v *= factor) {
      out.add(v);
      if (v > std::numeric_limits<std::uint64_t>::max() / factor) break;
    }
  } else if (step.starts_with('+')) {
    const auto inc = parse_size(step.substr(1));
    for (auto v = lo; v <= hi; v += inc) {
      out.add(v);
      if (v > std::numeric_limits<std::uint64_t>::max() - inc) break;
    }
  } else {
    throw UsageError(fmt::format("invalid step '{}': expected xF or +S", step));
  }
}

}  // namespace

std::uint64_t parse_size(std::string_view text, bool allow_zero) {
  if (text.empty()) throw UsageError("invalid size '': empty");
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  const int shift = suffix_shift(text.substr(digits));
  if (digits == 0 || shift < 0) {
    throw UsageError(
        fmt::format("invalid size '{}': expected a whole number with an optional K, M, G or T suffix", text));
  }
  const auto base = parse_whole(text.substr(0, digits), "size");
  if (shift > 0 && base > (std::numeric_limits<std::uint64_t>::max() >> shift)) {
    throw UsageError(fmt::format("invalid size '{}': too large", text));
  }
  const auto value = base << shift;
  if (value == 0 && !allow_zero) throw UsageError(fmt::format("invalid size '{}': must be positive", text));
  return value;
}

std::vector<std::uint64_t> parse_size_list(std::string_view text) {
  SizeList out(text);
  for (auto item : split(text, ',')) {
    if (item.find("..") != std::string_view::npos) {
      expand_power_range(item, out);
    } else if (item.find(':') != std::string_view::npos) {
      expand_colon_range(item, out);
    } else {
      out.add(parse_size(item));
    }
  }
  return std::move(out.values);
}

std::uint64_t parse_whole_number(std::string_view text, std::string_view what) { return parse_whole(text, what); }

std::vector<std::string> parse_name_list(std::string_view text, std::string_view what) {
  std::vector<std::string> names;
  for (auto item : split(text, ',')) {
    if (item.empty()) throw UsageError(fmt::format("invalid {} list '{}': an empty item", what, text));
    names.emplace_back(item);
  }
  return names;
}

std::uint64_t checked_product(std::uint64_t a, std::uint64_t b, std::string_view what) {
  std::uint64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) throw UsageError(fmt::format("{}: too large", what));
  return product;
}

void check_seconds(double seconds, std::string_view option, double most) {
  if (!std::isfinite(seconds) || !(seconds > 0) || seconds > most) {
    throw UsageError(fmt::format("invalid {} '{}': seconds above 0 and at most {}", option, seconds, most));
  }
}

template <class T>
void check_range(T value, std::string_view option, T least, T most) {
  if (value >= least && value <= most) return;
  throw UsageError(fmt::format("invalid {} '{}': {} to {}", option, value, least, most));
}
template void check_range<int>(int, std::string_view, int, int);
template void check_range<double>(double, std::string_view, double, double);

std::string size_text(std::uint64_t bytes) {
  constexpr std::string_view kSuffixes = "KMGT";  // parse_size's, 2^10 apart
  std::size_t suffixes = 0;
  while (bytes != 0 && suffixes < kSuffixes.size() && bytes % (std::uint64_t{1} << (10 * (suffixes + 1))) == 0) {
    ++suffixes;
  }
  if (suffixes == 0) return std::to_string(bytes);
  return fmt::format("{}{}", bytes >> (10 * suffixes), kSuffixes[suffixes - 1]);
}

std::vector<int> parse_count_list(std::string_view text) {
  std::vector<int> counts;
  for (auto item : split(text, ',')) {
    SizeList expanded(text);
    if (item.find(':') != std::string_view::npos) {
      auto parts = split(item, ':');
      if (parts.size() == 2) {
        expand_colon_range(fmt::format("{}:{}:+1", parts[0], parts[1]), expanded);
      } else {
        expand_colon_range(item, expanded);
      }
    } else {
      expanded.add(parse_whole(item, "count"));
    }
    if (counts.size() + expanded.values.size() > kMaxListItems) {
      throw UsageError(fmt::format("invalid list '{}': more than {} counts", text, kMaxListItems));
    }
    for (auto v : expanded.values) {
      if (v == 0 || v > 1u << 20) throw UsageError(fmt::format("invalid count '{}': must be 1 or more", item));
      counts.push_back(static_cast<int>(v));
    }
  }
  return counts;
}

double parse_percent(std::string text, std::string_view option) {
  if (!text.empty() && text.back() == '%') text.pop_back();
  double value = -1;
  std::size_t used = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(value) || value < 0 || value > 1000) {
    throw UsageError(fmt::format("invalid {} '{}': a percentage, e.g. 10%", option, text));
  }
  return value / 100;
}

std::string percent_text(double share) { return fmt::format("{:g}%", share * 100); }

std::string format_bytes(double bytes) {
  static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 4) {
    bytes /= 1024.0;
    ++u;
  }
  return u == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.2f} {}", bytes, units[u]);
}

}  // namespace movebench
