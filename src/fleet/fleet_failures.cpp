#include "fleet/fleet_failures.hpp"

#include <algorithm>

#include "judge/siblings.hpp"

namespace movebench::fleet {

std::string status_text(const std::string& step, const std::string& reason) {
  std::string one_line = reason.empty() ? "failed" : reason;
  std::replace(one_line.begin(), one_line.end(), '\n', ' ');
  std::string step_line = step;
  std::replace(step_line.begin(), step_line.end(), '\n', ' ');
  return step_line + '\n' + one_line;
}

std::vector<int> note_failures(std::span<const std::string> texts, std::span<const int> leaders,
                               std::vector<UnitFailure>& failed) {
  std::vector<int> added;
  for (std::size_t u = 0; u < leaders.size(); ++u) {
    const auto rank = static_cast<std::size_t>(leaders[u]);
    if (rank >= texts.size() || texts[rank].empty()) continue;
    const int unit = static_cast<int>(u);
    if (std::any_of(failed.begin(), failed.end(), [&](const UnitFailure& f) { return f.unit == unit; })) continue;
    const std::string& text = texts[rank];
    const auto cut = text.find('\n');
    UnitFailure f{unit, text.substr(0, cut), cut == std::string::npos ? std::string("failed") : text.substr(cut + 1)};
    failed.push_back(std::move(f));
    added.push_back(unit);
  }
  return added;
}

std::vector<bool> failed_mask(int units, std::span<const UnitFailure> failed) {
  std::vector<bool> out(static_cast<std::size_t>(std::max(units, 0)), false);
  for (const auto& f : failed) {
    if (f.unit >= 0 && f.unit < units) out[static_cast<std::size_t>(f.unit)] = true;
  }
  return out;
}

Round live_pairs(const Round& round, const std::vector<bool>& out) {
  Round live;
  const auto is_out = [&](int u) {
    return static_cast<std::size_t>(u) < out.size() && out[static_cast<std::size_t>(u)];
  };
  for (const auto& p : round) {
    if (!is_out(p.a) && !is_out(p.b)) live.push_back(p);
  }
  return live;
}

std::vector<judge::Outlier> find_outliers_among(std::span<const double> values, const std::vector<bool>& counted,
                                                bool higher_is_better, const judge::OutlierRule& rule) {
  std::vector<double> kept;
  std::vector<std::size_t> index;  // of each kept value in `values`
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i < counted.size() && counted[i]) {
      kept.push_back(values[i]);
      index.push_back(i);
    }
  }
  auto out = judge::find_outliers(kept, higher_is_better, rule);
  for (auto& o : out) o.index = index[o.index];
  return out;
}

}  // namespace movebench::fleet
