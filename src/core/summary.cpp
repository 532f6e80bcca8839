#include "core/summary.hpp"

#include <fmt/format.h>

#include <array>
#include <optional>
#include <utility>

#include "core/sizes.hpp"

namespace movebench {
namespace {

// Units one can be converted into another of its kind: times in seconds,
// rates in bytes per second (1 MB = 10^6 B, as every figure counts them).
struct Scale {
  std::string_view unit;
  char kind;  // 't' time, 'r' rate
  double factor;
};
constexpr std::array<Scale, 8> kScales{{{"s", 't', 1},
                                        {"ms", 't', 1e-3},
                                        {"us", 't', 1e-6},
                                        {"ns", 't', 1e-9},
                                        {"B/s", 'r', 1},
                                        {"KB/s", 'r', 1e3},
                                        {"MB/s", 'r', 1e6},
                                        {"GB/s", 'r', 1e9}}};

std::optional<Scale> scale_of(std::string_view unit) {
  for (const auto& s : kScales) {
    if (s.unit == unit) return s;
  }
  return std::nullopt;
}

std::string shown_number(double value, Shown shown) {
  return shown.decimals < 0 ? significant_text(value) : fmt::format("{:.{}f}", value, shown.decimals);
}

// " = 81% of 51200 MB/s DRAM peak": the fraction of the path's theoretical
// peak, where the judge found one (judge/peaks.hpp), in the unit the
// line shows; empty when the result has none.
std::string peak_part(const nlohmann::json& result, Shown shown) {
  if (!result.contains("peak") || !result["peak"].contains("fraction")) return {};
  const auto& peak = result["peak"];
  double value = peak.value("value", 0.0);
  std::string unit = peak.value("unit", "");
  const auto from = scale_of(unit), to = scale_of(shown.unit);
  if (from && to && from->kind == to->kind) {
    value = value * from->factor / to->factor;
    unit = std::string(shown.unit);
  }
  return fmt::format(" = {:.0f}% of {} {} {} peak", 100 * peak["fraction"].get<double>(), shown_number(value, shown),
                     unit, peak.value("label", "theoretical"));
}

}  // namespace

SummaryLine::SummaryLine(const Report& report, std::string head) : doc_(report.document()), line_(std::move(head)) {}

void SummaryLine::add(std::string_view label, double value, const std::string& unit, Shown shown) {
  std::string shown_unit = unit;
  const auto from = scale_of(unit), to = scale_of(shown.unit);
  if (from && to && from->kind == to->kind) {
    value = value * from->factor / to->factor;
    shown_unit = std::string(shown.unit);
  }
  line_ += fmt::format(" {} {} {};", label, shown_number(value, shown), shown_unit);
}

SummaryLine& SummaryLine::result(const std::string& key, std::string_view label, Shown shown) {
  if (!doc_.contains("results") || !doc_["results"].contains(key)) return *this;
  const auto& r = doc_["results"][key];
  add(label, r.value("value", 0.0), r.value("unit", ""), shown);
  line_.insert(line_.size() - 1, peak_part(r, shown));  // before the item's ';'

  return *this;
}

SummaryLine& SummaryLine::results(std::string_view prefix, std::string_view suffix,
                                  const std::function<std::string(std::string_view)>& label_of, Shown shown) {
  if (!doc_.contains("results")) return *this;
  for (const auto& [key, r] : doc_["results"].items()) {
    const std::string_view name(key);
    if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) || !name.ends_with(suffix)) continue;
    const auto middle = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    add(label_of(middle), r.value("value", 0.0), r.value("unit", ""), shown);
    line_.insert(line_.size() - 1, peak_part(r, shown));
  }
  return *this;
}

SummaryLine& SummaryLine::at_largest(std::string_view benchmark, std::string_view operation, std::string_view figure,
                                     std::string_view label, Shown shown) {
  if (!doc_.contains("timings")) return *this;
  const nlohmann::json* largest = nullptr;
  for (const auto& t : doc_["timings"]) {
    if (t.value("benchmark", "") != benchmark || t.value("operation", "") != operation) continue;
    if (!t.contains("figures") || !t["figures"].contains(std::string(figure))) continue;
    if (!largest || t.value("bytes", 0.0) > largest->value("bytes", 0.0)) largest = &t;
  }
  if (!largest) return *this;
  const auto& f = (*largest)["figures"][std::string(figure)];
  add(fmt::format("{} at {}", label, format_bytes(largest->value("bytes", 0.0))), f.value("value", 0.0),
      f.value("unit", ""), shown);
  return *this;
}

}  // namespace movebench
