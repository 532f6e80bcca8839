#include "core/distribution.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/clock.hpp"

namespace movebench {
namespace {

// Samples in integer picoseconds, from 1 ps to an hour, to 3 significant
// digits (HdrHistogram's usual precision: a value within 1/1000).
constexpr double kUnitsPerSecond = 1e12;
constexpr std::int64_t kHighest = 3'600'000'000'000'000;
constexpr int kDigits = 3;

double identity(double seconds) { return seconds; }

}  // namespace

std::uint64_t least_samples_for(double percent) {
  const double q = percent / 100;
  std::uint64_t n = 1;
  while (1 - std::pow(q, static_cast<double>(n)) - std::pow(1 - q, static_cast<double>(n)) < kSupportConfidence) ++n;
  return n;
}

bool percentile_supported(double percent, std::uint64_t count) { return count >= least_samples_for(percent); }

Distribution::Distribution(std::string event) : event_(std::move(event)), histogram_(1, kHighest, kDigits) {}

void Distribution::add(double seconds) { histogram_.record(std::llround(seconds * kUnitsPerSecond)); }

void Distribution::add(std::span<const double> seconds) {
  for (double s : seconds) add(s);
}

double Distribution::percentile_seconds(double percent) const {
  return static_cast<double>(histogram_.value_at_percentile(percent)) / kUnitsPerSecond;
}

double Distribution::max_seconds() const { return static_cast<double>(histogram_.max_value()) / kUnitsPerSecond; }

std::vector<Figure> Distribution::figures(std::string_view name, const std::function<double(double)>& net) const {
  const auto& apply = net ? net : identity;
  std::vector<Figure> out;
  if (count() == 0) return out;
  // No base: the suffix alone ("p99", "max"), as OSU -z's collective columns are named.
  const auto named = [&](std::string_view suffix) {
    return name.empty() ? std::string(suffix.substr(1)) : fmt::format("{}{}", name, suffix);
  };
  for (const auto& p : kPercentiles) {
    const double value = apply(percentile_seconds(p.percent));
    if (supported(p) && value > 0) out.push_back(Figure::latency(named(p.suffix), value, p.stat));
  }
  const double max = apply(max_seconds());
  if (max > 0) out.push_back(Figure::latency(named("_max"), max, Stat::kMax));
  return out;
}

nlohmann::json Distribution::to_json() const {
  nlohmann::json percentiles = nlohmann::json::object();
  for (const auto& p : kPercentiles) {
    percentiles[std::string(p.key)] = {{"least_count", least_samples_for(p.percent)}, {"supported", supported(p)}};
  }
  const ClockCost& clock = clock_read_cost();
  return {
      {"event", event_},
      {"count", count()},
      {"clamped", histogram_.clamped()},
      {"percentiles", percentiles},
      {"hdr",
       {{"encoding", "HdrHistogram V2 compressed, base64"},
        {"unit", "ps"},
        {"significant_digits", kDigits},
        {"histogram", histogram_.encoded()}}},
      {"clock_read_ns",
       {{"median", clock.median_s * 1e9}, {"min", clock.min_s * 1e9}, {"pairs", clock.reads}, {"subtracted", false}}}};
}

std::vector<std::string> Distribution::cells(double per_second, const std::function<double(double)>& net) const {
  const auto& apply = net ? net : identity;
  std::vector<std::string> out;
  const auto cell = [&](bool shown, double seconds) {
    const double value = apply(seconds);
    out.push_back(shown && value > 0 ? significant_text(value * per_second) : "n/a");
  };
  for (const auto& p : kPercentiles) cell(count() > 0 && supported(p), percentile_seconds(p.percent));
  cell(count() > 0, max_seconds());
  return out;
}

std::string clock_note(double per_second, std::string_view unit) {
  const ClockCost& clock = clock_read_cost();
  return fmt::format("a clock read costs {} {} (median of {} back-to-back pairs)",
                     significant_text(clock.median_s * per_second), unit, clock.reads);
}

void SampleCounts::add(const Distribution& d) {
  least_ = any_ ? std::min(least_, d.count()) : d.count();
  most_ = std::max(most_, d.count());
  any_ = true;
}

std::string SampleCounts::text() const {
  if (!any_) return "no samples";
  if (least_ == most_) return fmt::format("{} samples a row", most_);
  return fmt::format("{} to {} samples a row", least_, most_);
}

std::string distribution_note(std::string_view event, const SampleCounts& counts, double per_second,
                              std::string_view unit) {
  std::string needs;
  for (const auto& p : kPercentiles) {
    needs += fmt::format("{}{} {}", needs.empty() ? "" : ", ", p.label, least_samples_for(p.percent));
  }
  return fmt::format(
      "percentiles: one sample per {}, {}; {}, in every sample, not subtracted; n/a: fewer samples "
      "than the percentile needs ({})",
      event, counts.text(), clock_note(per_second, unit), needs);
}

std::vector<std::string> percentile_labels() {
  std::vector<std::string> out;
  for (const auto& p : kPercentiles) out.emplace_back(p.label);
  out.emplace_back("Max");
  return out;
}

std::string percentile_text(const Distribution& d, double per_second, const std::function<double(double)>& net,
                            std::size_t columns) {
  const auto labels = percentile_labels();
  const auto cells = d.cells(per_second, net);
  std::string out;
  for (std::size_t i = 0; i < columns && i < cells.size(); ++i) {
    out += fmt::format("{}{} {}", out.empty() ? "" : " ", labels[i], cells[i]);
  }
  return out;
}

}  // namespace movebench
