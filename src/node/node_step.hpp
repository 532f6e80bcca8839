// `movebench node` as a bounded step of the suite (`movebench run`) and of
// `movebench fleet` (each unit): the one command line both run
// (node_step_args), the headline figures a step reports (kStepFigures:
// node's own result names), and what a step hands fleet (step_summary).
#pragma once
#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/output.hpp"
#include "core/report.hpp"

namespace movebench::node {

// The step's bounds: the whole step's --time-budget, the numa part's arrays
// (node's default, at most kStepMostArrayBytes), and the core matrix's
// sample (--core-sample: the cache domains' pairs and this many drawn).
inline constexpr double kStepSeconds = 6;
inline constexpr std::uint64_t kStepMostArrayBytes = std::uint64_t{256} << 20;
inline constexpr std::size_t kStepCoreSample = 32;

// The step's headlines, each a result of node's own document: the numa
// part's medians over the initiators (node_numa.hpp's numa_headlines) and
// the core matrix's per relation (node.cores.<relation>, the median pair).
struct StepFigure {
  std::string_view name, unit;
  bool higher_is_better;
};
inline constexpr std::array<StepFigure, 11> kStepFigures{{
    {"node.numa.local.sum", "MB/s", true},
    {"node.numa.local.triad", "MB/s", true},
    {"node.numa.local.chase", "ns", false},
    {"node.numa.remote.sum", "MB/s", true},
    {"node.numa.remote.triad", "MB/s", true},
    {"node.numa.remote.chase", "ns", false},
    {"node.cores.smt_sibling", "ns", false},
    {"node.cores.same_l2", "ns", false},
    {"node.cores.same_l3", "ns", false},
    {"node.cores.same_socket", "ns", false},
    {"node.cores.other_socket", "ns", false},
}};

// node's options for the step on this machine: --parts numa, and cores
// where this process may use two CPUs; the bounds above.
std::vector<std::string> node_step_args();

// Runs the step (node_step_args) into `report` as the suite runs a
// benchmark (Command::run_in_suite), its text to `out`. False: skipped or
// failed, with why.
bool run_node_step(Report& report, Output& out, std::string& why);

// What a step's document says, for fleet: {"figures": {name: value in the
// StepFigure's unit}, "findings": node's findings, "errors": node's errors}.
nlohmann::json step_summary(const nlohmann::json& node_doc);

}  // namespace movebench::node
