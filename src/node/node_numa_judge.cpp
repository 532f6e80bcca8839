// The numa part's matrices as text and its judging: no measuring here.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <map>

#include "judge/bands.hpp"
#include "node/node_numa.hpp"

namespace movebench::node {
namespace {

struct Quantity {
  std::optional<double> Cell::*field;
  std::optional<double> Cell::*spread;  // its samples' relative spread
  std::vector<double> Cell::*rounds;    // its figure in each round
  std::string_view name;                // as findings and titles say it
  std::string_view kernel;              // as the records' `kernel` and the headlines' names say it
  std::string_view unit;
  bool higher_is_better;
};
constexpr std::array<Quantity, 3> kQuantities = {
    {{&Cell::sum, &Cell::sum_spread, &Cell::sum_rounds, "read bandwidth (sum)", "sum", "MB/s", true},
     {&Cell::triad, &Cell::triad_spread, &Cell::triad_rounds, "triad bandwidth", "triad", "MB/s", true},
     {&Cell::latency, &Cell::latency_spread, &Cell::latency_rounds, "idle latency (chase)", "chase", "ns", false}}};

std::string node_name(int os_index) { return fmt::format("node {}", os_index); }

// How many times worse the pair is than the initiator's local memory: local
// over remote bandwidth, remote over local latency (1 = no penalty).
std::optional<double> factor(const Quantity& q, const Cell& local, const Cell& remote) {
  const auto& l = local.*q.field;
  const auto& r = remote.*q.field;
  if (!l || !r || *l <= 0 || *r <= 0) return std::nullopt;
  return q.higher_is_better ? *l / *r : *r / *l;
}

// A factor's relative spread: its two cells' added (a ratio's relative
// errors add, to first order); none unless both are known.
std::optional<double> factor_spread(const Quantity& q, const Cell& local, const Cell& remote) {
  const auto& l = local.*q.spread;
  const auto& r = remote.*q.spread;
  if (!l || !r) return std::nullopt;
  return *l + *r;
}

// The factor in each round: the two cells' figures of the same round (both
// taken in it); empty unless they have as many rounds.
std::vector<double> factor_rounds(const Quantity& q, const Cell& local, const Cell& remote) {
  const auto& l = local.*q.rounds;
  const auto& r = remote.*q.rounds;
  std::vector<double> out;
  if (l.size() != r.size()) return out;
  for (std::size_t i = 0; i < l.size(); ++i) {
    if (l[i] <= 0 || r[i] <= 0) return {};
    out.push_back(q.higher_is_better ? l[i] / r[i] : r[i] / l[i]);
  }
  return out;
}

Matrix grid_matrix(const NumaGrid& g, std::string title,
                   const std::function<std::optional<double>(std::size_t, std::size_t)>& value) {
  Matrix m{std::move(title), "initiator \\ target", {}, {}, {}};
  for (int t : g.targets) m.columns.push_back(node_name(t));
  for (std::size_t r = 0; r < g.initiators.size(); ++r) {
    m.rows.push_back(node_name(g.initiators[r]));
    m.cells.emplace_back();
    for (std::size_t c = 0; c < g.targets.size(); ++c) m.cells.back().push_back(value(r, c));
  }
  return m;
}

// The facts' explanations of a slow DRAM path (empty channels, DIMMs
// clocked down ...), joined; "" when none.
std::string dram_faults(const nlohmann::json& dram) {
  std::string out;
  if (!dram.contains("faults") || !dram["faults"].is_array()) return out;
  for (const auto& f : dram["faults"]) {
    if (f.contains("text")) out += (out.empty() ? "" : "; ") + f["text"].get<std::string>();
  }
  return out;
}

}  // namespace

std::optional<double> node_dram_peak(const nlohmann::json& facts, int node) {
  const auto& sockets = facts.contains("dram") ? facts["dram"].value("sockets", nlohmann::json()) : nlohmann::json();
  if (!sockets.is_array()) return std::nullopt;
  for (const auto& socket : sockets) {
    const auto peaks = socket.value("numa_node_peaks", nlohmann::json());
    if (!peaks.is_array()) continue;
    for (const auto& p : peaks) {
      if (p.value("node", -1) == node && p["peak_bytes_per_second"].is_number()) {
        return p["peak_bytes_per_second"].get<double>();
      }
    }
  }
  return std::nullopt;
}

// Each initiator's local triad against its node's DRAM peak, where the
// facts give one, by the band mem's verdict uses (judge/bands): under it is
// a finding, with the DRAM faults the facts name.
void judge_numa_peaks(NodeContext& ctx, const NumaGrid& g) {
  const auto& doc = ctx.report.document();
  if (!doc.contains("facts") || !doc["facts"].is_object()) return;
  const auto& facts = doc["facts"];
  const std::string model = facts.contains("cpu") ? facts["cpu"].value("model", std::string()) : std::string();
  const nlohmann::json band = judge::band_for(judge::load_bands(""), "dram", model);
  std::string text;
  for (std::size_t r = 0; r < g.initiators.size(); ++r) {
    const Cell* l = g.local(r);
    const auto peak = node_dram_peak(facts, g.initiators[r]);
    if (l == nullptr || !l->triad || !peak || *peak <= 0) continue;
    const double peak_mbs = *peak / 1e6, fraction = *l->triad / peak_mbs;
    text += fmt::format("{}: triad {} MB/s = {}% of its DRAM peak {} MB/s\n", node_name(g.initiators[r]),
                        significant_text(*l->triad), significant_text(100 * fraction), significant_text(peak_mbs));
    if (band.is_null() || fraction >= band["normal_from"].get<double>()) continue;
    const std::string faults = dram_faults(facts.value("dram", nlohmann::json::object()));
    add_finding(ctx,
                {"numa", "local triad bandwidth against the DRAM peak", node_name(g.initiators[r]), *l->triad, peak_mbs,
                 1 - fraction, "MB/s",
                 fmt::format("numa: {} local triad {} MB/s is {}% of its DRAM peak {} MB/s, normal from {}% "
                             "({}){}",
                             node_name(g.initiators[r]), significant_text(*l->triad), significant_text(100 * fraction),
                             significant_text(peak_mbs), significant_text(100 * band["normal_from"].get<double>()),
                             band.value("source", std::string()), faults.empty() ? "" : "; the facts: " + faults)});
  }
  if (!text.empty()) send_now(ctx.out, "\n" + text);
}

const Cell* NumaGrid::local(std::size_t row) const {
  const auto at = std::find(targets.begin(), targets.end(), initiators[row]);
  return at == targets.end() ? nullptr : &cells[row][static_cast<std::size_t>(at - targets.begin())];
}

std::string numa_matrices_text(const NumaGrid& g) {
  std::string text;
  for (const auto& q : kQuantities) {
    text += "\n" + matrix_text(grid_matrix(g, fmt::format("{}, {}", q.name, q.unit),
                                           [&](std::size_t r, std::size_t c) { return g.cells[r][c].*q.field; }));
  }
  for (const auto& q : kQuantities) {
    if (q.field == &Cell::triad) continue;  // the read and the chase say it
    text += "\n" + matrix_text(grid_matrix(g, fmt::format("NUMA factor of {}: times worse than local", q.name),
                                           [&](std::size_t r, std::size_t c) -> std::optional<double> {
                                             const Cell* l = g.local(r);
                                             return l ? factor(q, *l, g.cells[r][c]) : std::nullopt;
                                           }));
  }
  return text;
}

void judge_numa(NodeContext& ctx, const NumaGrid& g) {
  judge_numa_peaks(ctx, g);
  auto& factors = ctx.report.extra("numa_factors");
  factors = nlohmann::json::array();
  for (const auto& q : kQuantities) {
    std::vector<Endpoint> locals;
    std::map<int, std::vector<Endpoint>> by_distance;
    for (std::size_t r = 0; r < g.initiators.size(); ++r) {
      const Cell* l = g.local(r);
      if (l == nullptr) continue;
      if (const auto& v = (*l).*q.field)
        locals.push_back({node_name(g.initiators[r]), *v, (*l).*q.spread, (*l).*q.rounds});
      for (std::size_t c = 0; c < g.targets.size(); ++c) {
        if (g.targets[c] == g.initiators[r]) continue;
        const auto f = factor(q, *l, g.cells[r][c]);
        if (!f) continue;
        by_distance[g.distance[r][c]].push_back(
            {fmt::format("{} -> {}", node_name(g.initiators[r]), node_name(g.targets[c])), *f,
             factor_spread(q, *l, g.cells[r][c]), factor_rounds(q, *l, g.cells[r][c])});
        factors.push_back({{"initiator", g.initiators[r]},
                           {"target", g.targets[c]},
                           {"distance", g.distance[r][c]},
                           {"of", q.name},
                           {"factor", *f}});
      }
    }
    judge_siblings(ctx, "numa", fmt::format("local {}", q.name), q.unit, locals, q.higher_is_better);
    for (const auto& [distance, pairs] : by_distance) {
      judge_siblings(ctx, "numa", fmt::format("NUMA factor of {} at distance {}", q.name, distance), "x", pairs, false);
    }
  }
}

std::vector<Figure> numa_headlines(const NumaGrid& g) {
  std::vector<Figure> out;
  for (const bool local : {true, false}) {
    for (const Quantity& q : kQuantities) {
      std::vector<double> values;
      for (std::size_t r = 0; r < g.initiators.size(); ++r) {
        for (std::size_t c = 0; c < g.targets.size(); ++c) {
          const auto& v = g.cells[r][c].*q.field;
          if (v && (g.initiators[r] == g.targets[c]) == local) values.push_back(*v);
        }
      }
      if (values.empty()) continue;
      const double median = judge::robust_spread(values).median;
      const auto name = fmt::format("node.numa.{}.{}", local ? "local" : "remote", q.kernel);
      out.push_back(q.higher_is_better
                        ? Figure::bandwidth(name, median * 1e6, Stat::kMedian, Of::kRate, application_bytes())
                        : Figure::latency(name, median * 1e-9, Stat::kMedian));
    }
  }
  return out;
}

std::uint64_t default_numa_bytes(std::uint64_t llc_bytes_in_all, std::size_t nodes_with_cpus) {
  const std::uint64_t per_node = llc_bytes_in_all / std::max<std::size_t>(nodes_with_cpus, 1);
  return std::max<std::uint64_t>(kLeastNumaArrayBytes, 4 * per_node);
}

}  // namespace movebench::node
