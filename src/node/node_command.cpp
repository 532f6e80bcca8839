// `movebench node`: options, their checks, the parts in turn sharing the
// time budget, then the findings.
#include "node/node_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "core/affinity.hpp"
#include "core/errors.hpp"
#include "core/sizes.hpp"
#include "core/summary.hpp"
#include "core/vocabulary.hpp"
#include "node/node_devices.hpp"
#include "node/node_hwloc.hpp"
#include "node/node_parts.hpp"
#include "node/node_step.hpp"

namespace movebench {
namespace {

using namespace node;

constexpr double kMostSeconds = 86400;
constexpr double kMostOutlierK = 1000;
constexpr int kMostCoreSample = 1'000'000;
constexpr int kNoCoreSample = std::numeric_limits<int>::min();  // --core-sample not given
constexpr std::uint64_t kMostArrayBytes = std::uint64_t{1} << 40;

std::string part_names() {
  std::string out;
  for (const auto& p : node_parts()) out += (out.empty() ? "" : ", ") + std::string(p.name);
  return out;
}

// A list of node or CPU numbers as numactl and taskset write them (0-3,8),
// the error naming the option.
std::vector<int> parse_number_list(const std::string& text, std::string_view option) {
  try {
    return parse_cpu_list(text);
  } catch (const UsageError&) {
    throw UsageError(fmt::format("invalid {} '{}': expected numbers and ranges, e.g. 0-3,8", option, text));
  }
}

const NodePart& part_named(std::string_view name) {
  for (const auto& p : node_parts()) {
    if (p.name == name) return p;
  }
  throw UsageError(fmt::format("invalid --parts item '{}': one of {}", name, part_names()));
}

// The topology narrowed to --numa-nodes and --cpus; an unknown node or a CPU
// this process may not use is a usage error.
NodeTopology narrowed_topology(const NodeOptions& opt) {
  NodeTopology t = read_topology();
  if (opt.numa_nodes) {
    for (int n : *opt.numa_nodes) {
      if (t.find(n) == nullptr) throw UsageError(fmt::format("--numa-nodes: this machine has no NUMA node {}", n));
    }
  }
  if (opt.cpus) {
    const std::vector<int> allowed = allowed_cpus();
    for (int c : *opt.cpus) {
      if (std::find(allowed.begin(), allowed.end(), c) == allowed.end()) {
        throw UsageError(fmt::format("--cpus: CPU {} is not one this process may run on", c));
      }
    }
  }
  const auto listed = [](const std::optional<std::vector<int>>& list, int v) {
    return !list || std::find(list->begin(), list->end(), v) != list->end();
  };
  std::erase_if(t.numa, [&](const NumaNode& n) { return !listed(opt.numa_nodes, n.os_index); });
  for (auto& n : t.numa) std::erase_if(n.cpus, [&](int c) { return !listed(opt.cpus, c); });
  return t;
}

class NodeCommand : public Command {
 public:
  std::string name() const override { return "node"; }
  std::string summary() const override {
    return "The whole node: NUMA bandwidth and latency matrices, the core-to-core latency matrix, every "
           "accelerator from each NUMA node and all at once, each endpoint judged against its peak and its siblings";
  }
  std::vector<std::string> cases() const override {
    std::vector<std::string> out;
    for (const auto& p : node_parts()) out.push_back(fmt::format("node.{}", p.name));
    return out;
  }

  void add_options(CLI::App& app) override;
  void check_options() override;
  int run(Report& report) override;

  // The bounded step (node_step.hpp): the numa matrix and a sample of the
  // core matrix.
  std::vector<std::vector<std::string>> suite_runs(std::string&) const override { return {node_step_args()}; }
  std::string suite_summary(const Report& report) const override {
    const auto& doc = report.document();
    const std::size_t n = doc.contains("findings") ? doc["findings"].size() : 0;
    const auto relation = [](std::string_view r) { return std::string(r); };
    return SummaryLine(report, "node:")
               .result("node.numa.local.sum", "local read", {"MB/s", 0})
               .result("node.numa.local.triad", "local triad", {"MB/s", 0})
               .result("node.numa.local.chase", "local latency", {"ns", 1})
               .result("node.numa.remote.sum", "remote read", {"MB/s", 0})
               .result("node.numa.remote.chase", "remote latency", {"ns", 1})
               .results("node.cores.", "", relation, {"ns", 1})
               .str() +
           fmt::format(" findings {};", n);
  }

  explicit NodeCommand(Output& out) : out_(out) {}

 private:
  NodeOptions opt_;
  std::string parts_text_, numa_text_, cpus_text_, array_text_, devices_text_, device_bytes_text_,
      floor_text_ = percent_text(opt_.rule.floor);
  int core_sample_ = kNoCoreSample;
  NodeTopology topology_;
  Output& out_;

  std::vector<const NodePart*> chosen_parts() const;
  void write_xml(Report& report);
};

// --hwloc-xml: a failure is the run's error (exit 1), said in one line.
void NodeCommand::write_xml(Report& report) {
  const std::string why = write_hwloc_xml(opt_.hwloc_xml, measured_paths(report.document()));
  if (why.empty()) {
    out_.text(fmt::format("# hwloc topology with the measured memory attributes: {}\n", opt_.hwloc_xml));
    return;
  }
  const std::string line = fmt::format("node: --hwloc-xml '{}': {}", opt_.hwloc_xml, why);
  out_.problem(line);
  report.add_error("hwloc_xml", line);
}

void NodeCommand::add_options(CLI::App& app) {
  app.add_option("--parts", parts_text_,
                 fmt::format("Parts to run, comma-separated: {} (default: every part this machine and build can run)",
                             part_names()));
  app.add_option("--numa-nodes", numa_text_,
                 "NUMA nodes measured, as initiators and targets (e.g. 0-1,3; "
                 "default: all)");
  app.add_option("--cpus", cpus_text_, "CPUs used (e.g. 0-7; default: every CPU this process may run on)");
  app.add_option("--array-bytes", array_text_,
                 "numa: bytes of each of the 4 arrays and of the chase (default: 4 x the last-level cache per NUMA "
                 "node, at least 64M)");
  app.add_option("--devices", devices_text_,
                 "devices: the devices measured, by their index in the part's list (e.g. 0-3,6; default: all)");
  app.add_option("--device-bytes", device_bytes_text_,
                 fmt::format("devices: bytes per transfer of link and per array of mem in the device's memory "
                             "(default: {})",
                             size_text(NodeOptions{}.device_bytes)));
  app.add_option(vocabulary::names(vocabulary::kTimeBudget), opt_.time_budget,
                 vocabulary::help(vocabulary::kTimeBudget, "the whole command's, shared by its parts"))
      ->capture_default_str();
  app.add_option("--outlier-k", opt_.rule.k,
                 fmt::format("Outlier: worse than its siblings' median by more than k x MAD (x {})", kMadToSigma))
      ->capture_default_str();
  app.add_option("--outlier-floor", floor_text_, "Outlier: and by more than this share of the median")
      ->capture_default_str();
  app.add_option("--outlier-noise-k", opt_.rule.k_noise,
                 "Outlier: and by more than this many times the siblings' measured spread (the median of each "
                 "endpoint's (max - min) / median of its repeated samples; numa's cells)")
      ->capture_default_str();
  app.add_option("--core-sample", core_sample_,
                 "cores: the cache domains' pairs and this many drawn at random, whatever the CPUs (default: every "
                 "pair up to 64 CPUs, beyond it the domains' and 256)");
  app.add_option("--hwloc-xml", opt_.hwloc_xml,
                 "numa: write this machine's hwloc topology to FILE (XML) with the measured bandwidth (MiB/s) and "
                 "latency (ns) as hwloc memory attributes, initiator -> target (lstopo --memattrs reads them)");
  app.add_option(
         vocabulary::names(vocabulary::kSeed), opt_.seed,
         vocabulary::help(vocabulary::kSeed,
                          "of the latency chase's permutation and of the core matrix's sample of pairs beyond 64 CPUs"))
      ->capture_default_str();
}

void NodeCommand::check_options() {
  if (!parts_text_.empty()) {
    opt_.parts = parse_list(parts_text_, "--parts", [](std::string_view s) { return std::string(part_named(s).name); });
  }
  if (!numa_text_.empty()) opt_.numa_nodes = parse_number_list(numa_text_, "--numa-nodes");
  if (!cpus_text_.empty()) opt_.cpus = parse_number_list(cpus_text_, "--cpus");
  if (!array_text_.empty()) opt_.array_bytes = parse_size(array_text_);
  if (opt_.array_bytes > kMostArrayBytes) throw UsageError("--array-bytes: at most 1T");
  if (!devices_text_.empty()) opt_.devices = parse_cpu_list(devices_text_);
  if (!device_bytes_text_.empty()) opt_.device_bytes = parse_size(device_bytes_text_);
  check_seconds(opt_.time_budget, "--time-budget", kMostSeconds);
  if (core_sample_ != kNoCoreSample) {
    check_range(core_sample_, "--core-sample", 0, kMostCoreSample);
    opt_.core_sample = static_cast<std::size_t>(core_sample_);
  }
  check_range(opt_.rule.k, "--outlier-k", 0.0, kMostOutlierK);
  check_range(opt_.rule.k_noise, "--outlier-noise-k", 0.0, kMostOutlierK);
  opt_.rule.floor = parse_percent(floor_text_, "--outlier-floor");
  if (!opt_.hwloc_xml.empty()) {
    if (!opt_.parts.empty() && std::find(opt_.parts.begin(), opt_.parts.end(), "numa") == opt_.parts.end())
      throw UsageError("--hwloc-xml: writes the numa part's figures, and --parts leaves it out");
    if (auto why = hwloc_xml_unwritable(opt_.hwloc_xml))
      throw UsageError(fmt::format("--hwloc-xml '{}': cannot write it: {}", opt_.hwloc_xml, *why));
  }
  topology_ = narrowed_topology(opt_);
  check_devices_options(opt_);
  // A part asked for by name that cannot run here is a usage error; left
  // to the default, it is skipped with its reason.
  for (const auto& name : opt_.parts) {
    if (auto why = part_named(name).not_here(topology_, opt_))
      throw UsageError(fmt::format("--parts {}: {}", name, *why));
  }
}

std::vector<const NodePart*> NodeCommand::chosen_parts() const {
  std::vector<const NodePart*> out;
  for (const auto& p : node_parts()) {
    const bool asked = std::find(opt_.parts.begin(), opt_.parts.end(), p.name) != opt_.parts.end();
    if (!opt_.parts.empty() && !asked) continue;
    if (auto why = p.not_here(topology_, opt_)) {
      out_.text(fmt::format("# {}: skipped, {}\n", p.name, *why));
      continue;
    }
    out.push_back(&p);
  }
  return out;
}

int NodeCommand::run(Report& report) {
  const auto start = std::chrono::steady_clock::now();
  NodeContext ctx{opt_,
                  report,
                  out_,
                  topology_,
                  start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(opt_.time_budget)),
                  0,
                  {}};
  auto& settings = report.settings("node");
  settings["time_budget"] = opt_.time_budget;
  settings["outlier_k"] = opt_.rule.k;
  settings["outlier_floor"] = opt_.rule.floor;
  settings["outlier_noise_k"] = opt_.rule.k_noise;
  const auto parts = chosen_parts();
  settings["parts"] = nlohmann::json::array();
  for (const auto* p : parts) settings["parts"].push_back(p->name);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const double left = std::chrono::duration<double>(ctx.deadline - std::chrono::steady_clock::now()).count();
    ctx.part_seconds = std::max(0.0, left) / static_cast<double>(parts.size() - i);
    parts[i]->run(ctx);
  }
  if (!opt_.hwloc_xml.empty()) write_xml(report);
  send_now(out_, fmt::format("\n{}\nvalidation: {}\n", findings_text(ctx.findings), report.validation_verdict()));
  if (!report.document().contains("findings")) report.extra("findings") = nlohmann::json::array();
  return kExitOk;
}

}  // namespace

std::unique_ptr<Command> make_node_command(Output& out) { return std::make_unique<NodeCommand>(out); }

}  // namespace movebench
