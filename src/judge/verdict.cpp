#include "judge/verdict.hpp"

#include <fmt/format.h>

#include <map>
#include <vector>

#include "core/figure.hpp"
#include "judge/bands.hpp"
#include "judge/faults.hpp"
#include "judge/peaks.hpp"

namespace movebench::judge {
namespace {

// The figure that speaks for a path: triad where there is one (the
// kernel the published STREAM fractions are of), else the highest fraction,
// one direction before both on a tie (the bands are of one direction).
std::string representative(const std::vector<std::string>& names, const nlohmann::json& peaks) {
  std::string best;
  const auto better = [&](const std::string& a, const std::string& b) {
    const double fa = peaks[a].value("fraction", 0.0), fb = peaks[b].value("fraction", 0.0);
    if (fa != fb) return fa > fb;
    return a.find(".duplex.") == std::string::npos && b.find(".duplex.") != std::string::npos;
  };
  for (const auto& name : names) {
    if (name.find(".triad.") != std::string::npos) return name;
    if (best.empty() || better(name, best)) best = name;
  }
  return best;
}

// "triad" for mem.triad.2t, "copy.read.pinned" for link.copy.read.pinned.
std::string figure_label(const std::string& name) {
  std::string rest = name.substr(name.find('.') + 1);
  if (name.rfind("mem.", 0) == 0 && rest.find('.') != std::string::npos) rest = rest.substr(0, rest.rfind('.'));
  return rest;
}

std::string cpu_model(const nlohmann::json& doc, const nlohmann::json& facts) {
  if (facts.contains("cpu") && facts["cpu"].is_object() && facts["cpu"].contains("model")) {
    return facts["cpu"]["model"].get<std::string>();
  }
  return doc.contains("host") ? doc["host"].value("cpu_model", "") : "";
}

nlohmann::json verdict_of(const nlohmann::json& doc, const nlohmann::json& facts, const std::string& name,
                          const nlohmann::json& peak, const nlohmann::json& bands) {
  const auto& figure = doc["results"][name];
  nlohmann::json v = {{"path", peak["path"]},
                      {"figure", name},
                      {"value", figure.value("value", 0.0)},
                      {"unit", figure.value("unit", "")},
                      {"peak", nullptr},
                      {"fraction", nullptr},
                      {"band", nullptr},
                      {"reasons", nlohmann::json::array()}};
  const auto band = band_for(bands, peak.value("kind", ""), cpu_model(doc, facts));
  if (!band.is_null()) v["band"] = {{"normal_from", band["normal_from"]}, {"source", band["source"]}};
  if (peak.contains("value")) {
    v["peak"] = peak["value"];
    v["fraction"] = peak["fraction"];
    v["peak_source"] = peak_words(peak);
  }
  const auto faults = path_faults(doc, facts, peak, figure);
  if (!faults.empty()) {
    v["verdict"] = "degraded";
    v["reasons"] = faults;
  } else if (!peak.contains("value")) {
    v["verdict"] = "unknown";
    v["reasons"].push_back(peak.value("why", "the peak is unknown"));
  } else if (!band.is_null() && peak["fraction"].get<double>() < band["normal_from"].get<double>()) {
    v["verdict"] = "low";
    for (const auto& w : setting_warnings(facts)) v["reasons"].push_back(w);
  } else {
    v["verdict"] = band.is_null() ? "unknown" : "normal";
    if (band.is_null()) v["reasons"].push_back("no band of normal for this kind of path");
  }
  return v;
}

int rank(const std::string& verdict) { return verdict == "degraded" ? 2 : verdict == "low" ? 1 : 0; }

}  // namespace

nlohmann::json make_verdicts(const nlohmann::json& doc, const nlohmann::json& facts, const nlohmann::json& peaks,
                             const nlohmann::json& bands) {
  // Paths in the order their first figure appears.
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> figures;
  for (const auto& [name, peak] : peaks.items()) {
    if (!peak.contains("path")) continue;  // no peak applies to this figure
    const std::string path = peak["path"].get<std::string>();
    if (figures[path].empty()) order.push_back(path);
    figures[path].push_back(name);
  }
  nlohmann::json out = nlohmann::json::array();
  for (const auto& path : order) {
    const std::string name = representative(figures[path], peaks);
    out.push_back(verdict_of(doc, facts, name, peaks[name], bands));
  }
  return out;
}

std::string verdict_line(const nlohmann::json& v) {
  std::string line = fmt::format("{}: {}: ", v.value("path", ""), v.value("verdict", ""));
  std::vector<std::string> parts;
  if (!v["fraction"].is_null()) {
    parts.push_back(fmt::format("{} {} {} = {:.0f}% of {}", figure_label(v.value("figure", "")),
                                significant_text(v.value("value", 0.0)), v.value("unit", ""),
                                100 * v["fraction"].get<double>(), v.value("peak_source", "")));
    if (!v["band"].is_null()) {
      parts.push_back(fmt::format("normal from {:.0f}% ({})", 100 * v["band"]["normal_from"].get<double>(),
                                  v["band"].value("source", "")));
    }
  }
  for (const auto& r : v["reasons"]) parts.push_back(r.get<std::string>());
  return line + fmt::format("{}", fmt::join(parts, "; "));
}

bool any_at_or_worse(const nlohmann::json& verdicts, const std::string& fail_on) {
  if (fail_on.empty()) return false;
  for (const auto& v : verdicts) {
    if (rank(v.value("verdict", "")) >= rank(fail_on)) return true;
  }
  return false;
}

}  // namespace movebench::judge
