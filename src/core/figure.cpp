#include "core/figure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace movebench {
namespace {

constexpr std::array<std::string_view, 8> kStatNames{"min", "median", "mean", "max", "p50", "p90", "p99", "p99.9"};
constexpr std::array<std::string_view, 2> kOfNames{"time", "rate"};
constexpr std::array<std::string_view, 4> kBytesNames{"application", "write_allocate", "algorithm", "bus"};
constexpr std::array<std::string_view, 4> kPrefixes{"", "K", "M", "G"};
constexpr std::array<double, 4> kPerUnit{1, 1e3, 1e6, 1e9};

template <class E, std::size_t N>
E parse_name(const std::array<std::string_view, N>& names, const std::string& text, const char* what) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == text) return static_cast<E>(i);
  }
  throw std::invalid_argument(fmt::format("a figure's {} '{}' is not in the vocabulary", what, text));
}

std::size_t index(Scale s) { return static_cast<std::size_t>(s); }

}  // namespace

Accounting application_bytes(int directions) { return {Bytes::kApplication, directions, 1}; }
Accounting write_allocate_bytes() { return {Bytes::kWriteAllocate, 1, 1}; }
Accounting algorithm_bytes() { return {Bytes::kAlgorithm, 1, 1}; }
Accounting bus_bytes(double factor) { return {Bytes::kBus, 1, factor}; }

Scale scale_of_unit(std::string_view unit) {
  for (std::size_t i = 0; i < kPrefixes.size(); ++i) {
    if (unit == fmt::format("{}B/s", kPrefixes[i])) return static_cast<Scale>(i);
  }
  throw std::invalid_argument(fmt::format("'{}' is not a bandwidth unit (B/s, KB/s, MB/s, GB/s)", unit));
}

Figure::Figure(std::string name, double value, std::string unit, Stat stat, Of of, bool higher_is_better,
               std::optional<Accounting> accounting)
    : name_(std::move(name)),
      value_(value),
      unit_(std::move(unit)),
      stat_(stat),
      of_(of),
      higher_is_better_(higher_is_better),
      accounting_(accounting) {}

Figure Figure::latency(std::string name, double seconds, Stat stat) {
  return {std::move(name), seconds * 1e9, "ns", stat, Of::kTime, false};
}

Figure Figure::bandwidth(std::string name, double bytes_per_second, Stat stat, Of of, Accounting accounting,
                         Scale scale) {
  return {std::move(name),
          bytes_per_second / kPerUnit[index(scale)],
          fmt::format("{}B/s", kPrefixes[index(scale)]),
          stat,
          of,
          true,
          accounting};
}

Figure Figure::flop_rate(std::string name, double flops_per_second, Stat stat, Of of, Scale scale) {
  return {std::move(name),
          flops_per_second / kPerUnit[index(scale)],
          fmt::format("{}Flop/s", kPrefixes[index(scale)]),
          stat,
          of,
          true};
}

Figure Figure::size(std::string name, double bytes, Stat stat, Of of, bool higher_is_better) {
  return {std::move(name), bytes, "B", stat, of, higher_is_better};
}

Figure Figure::named(std::string other) const {
  Figure f = *this;
  f.name_ = std::move(other);
  return f;
}

nlohmann::json Figure::to_json() const {
  nlohmann::json j = {{"value", value_},
                      {"unit", unit_},
                      {"stat", stat_name(stat_)},
                      {"of", of_name(of_)},
                      {"better", higher_is_better_ ? "higher" : "lower"}};
  if (accounting_) {
    j["accounting"] = {{"bytes", bytes_name(accounting_->bytes)},
                       {"directions", accounting_->directions},
                       {"factor", accounting_->factor}};
  }
  return j;
}

Figure Figure::from_json(std::string name, const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("value") || !j.contains("unit") || !j.contains("stat") || !j.contains("of") ||
      !j.contains("better")) {
    throw std::invalid_argument(fmt::format("figure '{}' lacks its value, unit, stat, of or better", name));
  }
  std::optional<Accounting> accounting;
  if (j.contains("accounting")) {
    const auto& a = j["accounting"];
    accounting = Accounting{parse_name<Bytes>(kBytesNames, a.at("bytes").get<std::string>(), "accounting"),
                            a.at("directions").get<int>(), a.at("factor").get<double>()};
  }
  return {std::move(name),
          j["value"].get<double>(),
          j["unit"].get<std::string>(),
          parse_name<Stat>(kStatNames, j["stat"].get<std::string>(), "stat"),
          parse_name<Of>(kOfNames, j["of"].get<std::string>(), "of"),
          j["better"].get<std::string>() == "higher",
          accounting};
}

std::string_view stat_name(Stat s) { return kStatNames[static_cast<std::size_t>(s)]; }
std::string_view of_name(Of o) { return kOfNames[static_cast<std::size_t>(o)]; }
std::string_view bytes_name(Bytes b) { return kBytesNames[static_cast<std::size_t>(b)]; }

std::string accounting_token(const Accounting& a) {
  std::string out(bytes_name(a.bytes));
  if (a.directions == 2) out += "/both";
  if (a.factor != 1) out += fmt::format("*{:.6g}", a.factor);
  return out;
}

std::string significant_text(double value) {
  constexpr int kDigits = 4;
  if (!std::isfinite(value)) return fmt::format("{}", value);
  if (value == 0) return "0";
  // Decimals that leave kDigits significant ones; none at 1000 and above.
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  std::string text = fmt::format("{:.{}f}", value, std::max(0, kDigits - 1 - magnitude));
  if (text.find('.') != std::string::npos) {
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
  }
  return text == "-0" ? "0" : text;
}

std::string gb_per_second_text(double bytes_per_second) { return significant_text(bytes_per_second / 1e9) + " GB/s"; }

}  // namespace movebench
