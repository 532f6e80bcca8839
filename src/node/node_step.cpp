#include "node/node_step.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/affinity.hpp"
#include "core/sizes.hpp"
#include "node/node_command.hpp"
#include "node/node_numa.hpp"
#include "node/node_topology.hpp"

namespace movebench::node {

std::vector<std::string> node_step_args() {
  const NodeTopology topology = read_topology();
  std::size_t initiators = 0;
  for (const auto& n : topology.numa) initiators += n.cpus.empty() ? 0 : 1;
  const std::uint64_t bytes = std::min(machine_numa_bytes(std::max<std::size_t>(initiators, 1)), kStepMostArrayBytes);
  return {"--parts",       allowed_cpus().size() >= 2 ? "numa,cores" : "numa",
          "--time-budget", fmt::format("{}", kStepSeconds),
          "--array-bytes", size_text(bytes),
          "--core-sample", std::to_string(kStepCoreSample)};
}

bool run_node_step(Report& report, Output& out, std::string& why) {
  return make_node_command(out)->run_in_suite(report, node_step_args(), why);
}

nlohmann::json step_summary(const nlohmann::json& node_doc) {
  nlohmann::json figures = nlohmann::json::object();
  const auto results = node_doc.value("results", nlohmann::json::object());
  for (const StepFigure& f : kStepFigures) {
    const auto it = results.find(std::string(f.name));
    if (it == results.end() || it->value("unit", std::string()) != f.unit) continue;
    const auto& value = it->at("value");  // NaN is written as null: not a figure
    if (value.is_number() && std::isfinite(value.get<double>())) figures[std::string(f.name)] = value;
  }
  return {{"figures", figures},
          {"findings", node_doc.value("findings", nlohmann::json::array())},
          {"errors", node_doc.value("errors", nlohmann::json::object())}};
}

}  // namespace movebench::node
