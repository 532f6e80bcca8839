#include "fleet/fleet_baseline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "judge/compare_rule.hpp"
#include "node/node_step.hpp"

namespace movebench::fleet {
namespace {

using nlohmann::json;

const FigureInfo* figure_info(std::string_view name) {
  for (const auto& f : fleet_figures()) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

// The figure a fleet record's operation is, in `fleet.units/pairs[].figures`
// (a node step's records are named as their figures).
const char* figure_of_operation(const std::string& operation) {
  if (operation.starts_with("node.")) {
    const FigureInfo* f = figure_info(operation);
    return f == nullptr ? nullptr : f->name;
  }
  static const std::map<std::string, const char*> names{{"copy", "mem.copy"},
                                                        {"triad", "mem.triad"},
                                                        {"latency", "mem.latency"},
                                                        {"pair_latency", "p2p.latency"},
                                                        {"pair_bw", "p2p.bw"}};
  const auto it = names.find(operation);
  return it == names.end() ? nullptr : it->second;
}

// A record's noise as movebench-report reads it (model.py `_spread`): from
// its samples by the compare rule; else the stats' half range; else 0.
double record_noise(const json& record) {
  const auto& figures = record.at("figures");
  bool best_of = false;
  for (const auto& [name, f] : figures.items()) {
    const auto stat = f.value("stat", std::string()), of = f.value("of", std::string());
    best_of = (stat == "min" && of == "time") || (stat == "max" && of == "rate");
    break;  // the record's one figure (fleet writes one per record)
  }
  const auto noise = judge::sample_noise(record.at("samples").get<std::vector<double>>(), best_of);
  if (noise && std::isfinite(*noise)) return *noise;
  const auto stats = record.value("stats", json::object());
  if (!stats.is_object()) return 0.0;  // no samples (a node step's headline): no noise known
  const double median = stats.value("median", 0.0);
  return median > 0 ? (stats.value("max", 0.0) - stats.value("min", 0.0)) / (2 * median) : 0.0;
}

std::string pair_name(const json& hosts, const json& ranks, UnitKind per) {
  std::string a = unit_name(hosts.at(0).get<std::string>(), ranks.at(0).get<int>(), per);
  std::string b = unit_name(hosts.at(1).get<std::string>(), ranks.at(1).get<int>(), per);
  if (b < a) std::swap(a, b);
  return a + " <-> " + b;
}

// (subject name, figure) -> noise, from the document's fleet records.
std::map<std::pair<std::string, std::string>, double> noises(const json& doc, UnitKind per) {
  std::map<std::pair<std::string, std::string>, double> out;
  for (const auto& record : doc.value("timings", json::array())) {
    if (record.value("benchmark", std::string()) != "fleet") continue;
    const char* figure = figure_of_operation(record.value("operation", std::string()));
    if (figure == nullptr) continue;
    const auto& p = record.at("params");
    const std::string name = p.contains("hosts")
                                 ? pair_name(p.at("hosts"), p.at("ranks"), per)
                                 : unit_name(p.at("host").get<std::string>(), p.at("rank").get<int>(), per);
    out[{name, figure}] = record_noise(record);
  }
  return out;
}

Subject subject_of(const json& entry, bool pair, UnitKind per,
                   const std::map<std::pair<std::string, std::string>, double>& noise) {
  Subject s;
  s.pair = pair;
  s.name = pair ? pair_name(entry.at("hosts"), entry.at("ranks"), per)
                : unit_name(entry.at("host").get<std::string>(), entry.at("rank").get<int>(), per);
  s.hosts = pair ? entry.at("hosts").get<std::vector<std::string>>() : std::vector{entry.at("host").get<std::string>()};
  s.ranks = pair ? entry.at("ranks").get<std::vector<int>>() : std::vector{entry.at("rank").get<int>()};
  for (const auto& [figure, value] : entry.at("figures").items()) {
    if (figure_info(figure) == nullptr || !value.is_number()) continue;
    const auto it = noise.find({s.name, figure});
    s.figures[figure] = {value.get<double>(), it == noise.end() ? 0.0 : it->second};
  }
  return s;
}

Baseline reference_of(const json& doc, const std::string& path) {
  Baseline b{path, "reference", {}, {}};
  std::vector<std::string> known;
  for (const auto& f : fleet_figures()) known.push_back(f.name);
  for (const auto& [figure, value] : doc.items()) {
    if (figure_info(figure) == nullptr) {
      throw UsageError(fmt::format("--baseline '{}': unknown figure '{}' (a reference names {})", path, figure,
                                   fmt::join(known, ", ")));
    }
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() <= 0) {
      throw UsageError(fmt::format("--baseline '{}': {} is {}, not a positive number", path, figure, value.dump()));
    }
    b.reference[figure] = value.get<double>();
  }
  if (b.reference.empty()) throw UsageError(fmt::format("--baseline '{}': no figures", path));
  return b;
}

}  // namespace

const std::vector<FigureInfo>& fleet_figures() {
  static const std::vector<FigureInfo> figures = [] {
    std::vector<FigureInfo> out{
        {"mem.copy", "MB/s", true, false},  {"mem.triad", "MB/s", true, false}, {"mem.latency", "ns", false, false},
        {"p2p.latency", "us", false, true}, {"p2p.bw", "MB/s", true, true},
    };
    // --node's (node/node_step.hpp): literals, so data() ends with their NUL.
    for (const auto& f : node::kStepFigures) out.push_back({f.name.data(), f.unit.data(), f.higher_is_better, false});
    return out;
  }();
  return figures;
}

std::string unit_name(const std::string& host, int rank, UnitKind per) {
  return per == UnitKind::kRank ? fmt::format("host {} rank {}", host, rank) : fmt::format("host {}", host);
}

std::vector<Subject> subjects_of(const json& doc, UnitKind per) {
  const auto noise = noises(doc, per);
  std::vector<Subject> out;
  for (const auto& unit : doc.at("fleet").at("units")) out.push_back(subject_of(unit, false, per, noise));
  for (const auto& pair : doc.at("fleet").value("pairs", json::array()))
    out.push_back(subject_of(pair, true, per, noise));
  return out;
}

Baseline parse_baseline(std::string_view text, const std::string& path, UnitKind per) {
  const json doc = json::parse(text.begin(), text.end(), nullptr, false);
  if (!doc.is_object()) throw UsageError(fmt::format("--baseline '{}': not a JSON object", path));
  if (!doc.contains("fleet")) {
    if (doc.contains("schema_version")) {
      throw UsageError(fmt::format("--baseline '{}': a result of '{}', not of movebench fleet", path,
                                   doc.value("benchmark", std::string("?"))));
    }
    return reference_of(doc, path);
  }
  Baseline b{path, "fleet", {}, {}};
  try {
    const auto was = doc.at("fleet").at("per").get<std::string>();
    if (was != unit_kind_name(per)) {
      throw UsageError(
          fmt::format("--baseline '{}': its units are per {}, this run's per {}", path, was, unit_kind_name(per)));
    }
    for (auto& s : subjects_of(doc, per)) b.subjects[s.name] = std::move(s);
  } catch (const json::exception& e) {
    throw UsageError(
        fmt::format("--baseline '{}': not a fleet result as movebench fleet writes it ({})", path, e.what()));
  }
  if (b.subjects.empty()) throw UsageError(fmt::format("--baseline '{}': a fleet result with no units", path));
  return b;
}

namespace {

nlohmann::json json_of(const Regression& r) {
  nlohmann::json j = {{"figure", r.figure->name}, {"unit", r.figure->unit},
                      {"before", r.before.value}, {"now", r.now.value},
                      {"ratio", r.ratio},         {"noise", {{"before", r.before.noise}, {"now", r.now.noise}}}};
  if (r.subject->pair) {
    j["kind"] = "link";
    j["pair"] = {{"hosts", r.subject->hosts}, {"ranks", r.subject->ranks}};
  } else {
    j["kind"] = "node";
    j["host"] = r.subject->hosts.at(0);
    j["rank"] = r.subject->ranks.at(0);
  }
  return j;
}

// What `now`'s subject is compared with: the baseline's same subject, or
// the reference's values with no noise; null when the baseline lacks it.
const std::map<std::string, Measured>* before_of(const Baseline& baseline, const Subject& now,
                                                 std::map<std::string, Measured>& reference) {
  if (baseline.kind == "reference") {
    reference.clear();
    for (const auto& [figure, value] : baseline.reference) reference[figure] = {value, 0};
    return &reference;
  }
  const auto it = baseline.subjects.find(now.name);
  return it == baseline.subjects.end() ? nullptr : &it->second.figures;
}

}  // namespace

BaselineVerdict compare_with(const Baseline& baseline, const std::vector<Subject>& now, double threshold) {
  BaselineVerdict v;
  std::map<std::string, Measured> reference;
  for (const auto& s : now) {
    const auto* before = before_of(baseline, s, reference);
    if (before == nullptr) {
      v.missing.push_back(s.name);
      continue;
    }
    for (const auto& [name, measured] : s.figures) {
      const auto it = before->find(name);
      if (it == before->end()) continue;
      const FigureInfo* f = figure_info(name);
      const auto judged = judge::compare(it->second.value, it->second.noise, measured.value, measured.noise,
                                         f->higher_is_better, threshold);
      ++v.compared;
      if (judged.change == judge::Change::kSlower) v.regressions.push_back({&s, f, it->second, measured, judged.ratio});
    }
  }
  v.json = {{"file", baseline.path},
            {"kind", baseline.kind},
            {"threshold", threshold},
            {"compared", v.compared},
            {"missing", v.missing}};
  v.regressions_json = nlohmann::json::array();
  for (const auto& r : v.regressions) v.regressions_json.push_back(json_of(r));
  return v;
}

}  // namespace movebench::fleet
