#include "judge/peaks.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/figure.hpp"
#include "judge/peak_sources.hpp"

namespace movebench::judge {
namespace {

// The peak of one figure by the benchmark that made it (its name's first
// part and the rest); null: not a bandwidth this layer holds against a path.
nlohmann::json peak_of(const nlohmann::json& doc, const nlohmann::json& facts, const std::string& name) {
  const auto dot = name.find('.');
  const std::string bench = name.substr(0, dot), rest = dot == std::string::npos ? "" : name.substr(dot + 1);
  if (bench == "mem") return mem_peak(doc, facts, rest);
  if (bench == "link") return link_peak(doc, facts);
  if (bench == "p2p" || bench == "coll" || bench == "beff") return network_peak(doc, facts, name);
  return {{"status", "none"}, {"why", fmt::format("{} figures are not held against a path's peak", bench)}};
}

int directions_of(const nlohmann::json& figure) {
  if (!figure.contains("accounting")) return 1;
  return figure["accounting"].value("directions", 1);
}

// The peak in the figure's unit and the fraction reached.
void in_figure_terms(nlohmann::json& peak, const nlohmann::json& figure) {
  if (!peak.contains("bytes_per_second")) return;
  const std::string unit = figure.value("unit", "");
  const double bytes = peak["bytes_per_second"].get<double>() * directions_of(figure);
  peak["value"] = in_unit(bytes, unit);
  peak["unit"] = unit;
  if (directions_of(figure) == 2) peak["source"] = peak["source"].get<std::string>() + "; both directions";
  const double value = figure.value("value", 0.0);
  peak["fraction"] = peak["value"].get<double>() > 0 ? value / peak["value"].get<double>() : 0.0;
}

}  // namespace

double in_unit(double bytes_per_second, const std::string& unit) {
  const auto scale = static_cast<int>(scale_of_unit(unit));
  return bytes_per_second / std::pow(1000.0, scale);
}

nlohmann::json figure_peaks(const nlohmann::json& doc, const nlohmann::json& facts) {
  nlohmann::json out = nlohmann::json::object();
  if (!doc.contains("results") || !doc["results"].is_object()) return out;
  for (const auto& [name, figure] : doc["results"].items()) {
    const std::string unit = figure.value("unit", "");
    if (unit != "B/s" && unit != "KB/s" && unit != "MB/s" && unit != "GB/s") continue;  // not a bandwidth
    nlohmann::json peak = peak_of(doc, facts, name);
    in_figure_terms(peak, figure);
    out[name] = std::move(peak);
  }
  return out;
}

std::string peak_words(const nlohmann::json& peak) {
  if (!peak.contains("value")) return {};
  return fmt::format("{} {} {} peak ({})", significant_text(peak["value"].get<double>()), peak.value("unit", ""),
                     peak.value("label", "theoretical"), peak.value("source", ""));
}

}  // namespace movebench::judge
