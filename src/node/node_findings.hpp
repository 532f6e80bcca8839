// How every part of the node command judges what it measured, in one place:
// each endpoint (a NUMA node, a core domain, a device, a pair of them)
// against its siblings by fleet's outlier rule (median, MAD, floor), and the
// matrices (rows initiators, columns targets, as Intel MLC prints its
// --bandwidth_matrix and --latency_matrix). The only file of src/node that
// knows where the outlier rule lives (src/judge's sibling rule).
#pragma once
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "judge/siblings.hpp"

namespace movebench::node {

struct NodeContext;

using OutlierRule = judge::OutlierRule;
inline constexpr double kMadToSigma = judge::kMadToSigma;

// One endpoint's figure among its siblings.
struct Endpoint {
  std::string name;  // "node 1", "node 0 -> node 1", "gpu 3"
  double value = 0;
  // Its samples' relative spread ((max - min) / median, judge::relative_spread)
  // where it has repeated samples: the noise term of the rule.
  std::optional<double> spread{};
  // Its figure in each round where it was measured in rounds with its
  // siblings (round r of each taken close in time, node_numa.hpp): then
  // judged round by round (judge::judge_in_rounds), not by `value`.
  std::vector<double> rounds{};
};

// Something the node command names: an endpoint worse than its siblings or
// than its peak, or a fact that does not hold (a device served best from a
// NUMA node other than its own).
struct Finding {
  std::string part;      // "numa", "cores", "devices"
  std::string figure;    // "local read bandwidth", "numa factor"
  std::string endpoint;  // as Endpoint::name
  double value = 0;
  double reference = 0;  // the siblings' median, or the peak
  double worse_by = 0;   // a fraction of the reference, > 0
  std::string unit;      // "MB/s", "ns", "x"
  std::string text;      // one line, what it is and what could explain it
  double noise = 0;      // the siblings' measured spread the rule used (a fraction), 0 none
};

// The outliers among `endpoints` by the rule in ctx's options, each as a
// Finding kept in ctx (printed after the matrices, written under the result
// document's "findings"). Fewer than 3 endpoints have no majority: none.
// Endpoints that all carry as many rounds (3 or more) are judged in rounds:
// named when worse than each round's median by more than the floor in
// every round (judge::judge_in_rounds); else by their values.
// Each set of 3 or more is also written under "judged" (the median, MAD,
// measured noise and allowed deviation, each endpoint's value and spread),
// so a reader sees why something was or was not named.
// `explain`, when given, says what facts could explain endpoint i ("its link
// PCIe Gen4 x8"), added to its finding's text.
std::vector<Finding> judge_siblings(NodeContext& ctx, std::string_view part, std::string_view figure,
                                    std::string_view unit, std::span<const Endpoint> endpoints, bool higher_is_better,
                                    const std::function<std::string(std::size_t)>& explain = {});
// A finding made otherwise (against a peak, a mismatch), kept the same way.
void add_finding(NodeContext& ctx, Finding finding);

// "findings: N" and one line each.
std::string findings_text(const std::vector<Finding>& findings);

// A matrix as MLC prints it: a title, then rows (initiators) by columns
// (targets); a missing cell prints "-".
struct Matrix {
  std::string title;   // "Bandwidth, read-only (sum), MB/s"
  std::string corner;  // what the rows are: "initiator \\ target"
  std::vector<std::string> rows, columns;
  std::vector<std::vector<std::optional<double>>> cells;  // [row][column]
};
std::string matrix_text(const Matrix& m);

}  // namespace movebench::node
