#include "node/node_findings.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/figure.hpp"
#include "node/node_parts.hpp"

namespace movebench::node {
namespace {

void add_judged(NodeContext& ctx, std::string_view part, std::string_view figure, std::span<const Endpoint> endpoints,
                const judge::Judgement& j) {
  auto& list = ctx.report.extra("judged");
  if (!list.is_array()) list = nlohmann::json::array();
  nlohmann::json units = nlohmann::json::array();
  for (const auto& e : endpoints) {
    units.push_back(
        {{"endpoint", e.name}, {"value", e.value}, {"spread", e.spread ? nlohmann::json(*e.spread) : nullptr}});
  }
  list.push_back({{"part", part},
                  {"figure", figure},
                  {"median", j.spread.median},
                  {"mad", j.spread.mad},
                  {"noise", j.noise},
                  {"allowed", j.allowed},
                  {"named", j.outliers.size()},
                  {"endpoints", std::move(units)}});
}

void add_judged_in_rounds(NodeContext& ctx, std::string_view part, std::string_view figure,
                          std::span<const Endpoint> endpoints, const judge::RoundsJudgement& j, double floor) {
  auto& list = ctx.report.extra("judged");
  if (!list.is_array()) list = nlohmann::json::array();
  nlohmann::json units = nlohmann::json::array();
  for (std::size_t i = 0; i < endpoints.size(); ++i) {
    units.push_back({{"endpoint", endpoints[i].name},
                     {"value", endpoints[i].value},
                     {"rounds", endpoints[i].rounds},
                     {"least_worse_by", j.least_worse_by[i]},
                     {"median_worse_by", j.median_worse_by[i]}});
  }
  list.push_back({{"part", part},
                  {"figure", figure},
                  {"rule", "in rounds"},
                  {"rounds", j.rounds},
                  {"allowed_fraction", floor},
                  {"named", j.outliers.size()},
                  {"endpoints", std::move(units)}});
}

// Every endpoint has as many rounds, enough to judge in rounds.
bool in_rounds(std::span<const Endpoint> endpoints) {
  if (endpoints.size() < 3 || endpoints.front().rounds.size() < judge::kLeastPairedRounds) return false;
  return std::all_of(endpoints.begin(), endpoints.end(),
                     [&](const Endpoint& e) { return e.rounds.size() == endpoints.front().rounds.size(); });
}

std::vector<Finding> judge_siblings_in_rounds(NodeContext& ctx, std::string_view part, std::string_view figure,
                                              std::string_view unit, std::span<const Endpoint> endpoints,
                                              bool higher_is_better,
                                              const std::function<std::string(std::size_t)>& explain) {
  std::vector<std::vector<double>> rounds;
  std::vector<double> values;
  for (const auto& e : endpoints) {
    rounds.push_back(e.rounds);
    values.push_back(e.value);
  }
  const judge::RoundsJudgement j = judge::judge_in_rounds(rounds, higher_is_better, ctx.opt.rule);
  add_judged_in_rounds(ctx, part, figure, endpoints, j, ctx.opt.rule.floor);
  const double reference = judge::robust_spread(values).median;
  std::vector<Finding> out;
  for (const auto& o : j.outliers) {
    const Endpoint& e = endpoints[o.index];
    Finding f{std::string(part), std::string(figure), e.name, e.value, reference, o.worse_by, std::string(unit), "", 0};
    f.text = fmt::format(
        "{}: {} {} {} {}: in each of {} rounds {} than its {} siblings' median in that round, by {}% (the median "
        "over the rounds; at least {}%); their median {} {}",
        f.part, f.endpoint, f.figure, significant_text(f.value), f.unit, j.rounds,
        higher_is_better ? "lower" : "higher", endpoints.size() - 1, significant_text(f.worse_by * 100),
        significant_text(j.least_worse_by[o.index] * 100), significant_text(f.reference), f.unit);
    if (explain) f.text += "; " + explain(o.index);
    add_finding(ctx, f);
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace

std::vector<Finding> judge_siblings(NodeContext& ctx, std::string_view part, std::string_view figure,
                                    std::string_view unit, std::span<const Endpoint> endpoints, bool higher_is_better,
                                    const std::function<std::string(std::size_t)>& explain) {
  if (in_rounds(endpoints)) {
    return judge_siblings_in_rounds(ctx, part, figure, unit, endpoints, higher_is_better, explain);
  }
  std::vector<double> values, spreads;
  for (const auto& e : endpoints) {
    values.push_back(e.value);
    if (e.spread) spreads.push_back(*e.spread);
  }
  const judge::Judgement j = judge::judge_outliers(values, higher_is_better, ctx.opt.rule, spreads);
  if (values.size() >= 3) add_judged(ctx, part, figure, endpoints, j);
  std::vector<Finding> out;
  for (const auto& o : j.outliers) {
    Finding f{std::string(part),
              std::string(figure),
              endpoints[o.index].name,
              o.value,
              o.median,
              o.worse_by,
              std::string(unit),
              "",
              j.noise};
    f.text =
        fmt::format("{}: {} {} {}, {}% {} than its {} siblings' median {} {}", f.part, f.endpoint, f.figure,
                    significant_text(f.value), significant_text(f.worse_by * 100),
                    higher_is_better ? "lower" : "higher", endpoints.size() - 1, significant_text(f.reference), f.unit);
    if (j.noise > 0) f.text += fmt::format(" (their measured spread {}%)", significant_text(j.noise * 100));
    if (explain) f.text += "; " + explain(o.index);
    add_finding(ctx, f);
    out.push_back(std::move(f));
  }
  return out;
}

void add_finding(NodeContext& ctx, Finding f) {
  auto& list = ctx.report.extra("findings");
  if (!list.is_array()) list = nlohmann::json::array();
  list.push_back({{"part", f.part},
                  {"figure", f.figure},
                  {"endpoint", f.endpoint},
                  {"value", f.value},
                  {"reference", f.reference},
                  {"worse_by", f.worse_by},
                  {"unit", f.unit},
                  {"noise", f.noise},
                  {"text", f.text}});
  ctx.findings.push_back(std::move(f));
}

std::string findings_text(const std::vector<Finding>& findings) {
  std::string text = fmt::format("findings: {}\n", findings.size());
  for (const auto& f : findings) text += fmt::format("  {}\n", f.text);
  return text;
}

namespace {

std::string cell_text(const std::optional<double>& v) { return v ? significant_text(*v) : "-"; }

}  // namespace

std::string matrix_text(const Matrix& m) {
  std::size_t first = m.corner.size(), width = 6;
  for (const auto& r : m.rows) first = std::max(first, r.size());
  for (const auto& c : m.columns) width = std::max(width, c.size());
  for (const auto& row : m.cells) {
    for (const auto& v : row) width = std::max(width, cell_text(v).size());
  }
  std::string text = m.title + "\n" + fmt::format("{:<{}}", m.corner, first);
  for (const auto& c : m.columns) text += fmt::format("  {:>{}}", c, width);
  text += "\n";
  for (std::size_t r = 0; r < m.rows.size(); ++r) {
    text += fmt::format("{:<{}}", m.rows[r], first);
    for (std::size_t c = 0; c < m.columns.size(); ++c) {
      const bool has = r < m.cells.size() && c < m.cells[r].size();
      text += fmt::format("  {:>{}}", cell_text(has ? m.cells[r][c] : std::nullopt), width);
    }
    text += "\n";
  }
  return text;
}

}  // namespace movebench::node
