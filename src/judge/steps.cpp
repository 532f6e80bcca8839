#include "judge/steps.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "core/figure.hpp"
#include "core/sizes.hpp"

namespace movebench::judge {
namespace {

constexpr std::size_t kLeastSweepPoints = 5;

bool mpi_benchmark(const std::string& benchmark) {
  return benchmark == "p2p" || benchmark == "coll" || benchmark == "beff";
}

// A fact's number, or 0 where it is unknown.
double fact_number(const nlohmann::json& j, const nlohmann::json::json_pointer& at) {
  return j.contains(at) && j.at(at).is_number() ? j.at(at).get<double>() : 0;
}

// The TLB levels of the pages the sweep's buffers are on: base pages
// (`base`), huge ones (`huge`), or both.
void add_tlb_causes(std::vector<StepCause>& out, const nlohmann::json& facts, bool base, bool huge) {
  const auto levels = facts.contains("/cpu/tlb/levels"_json_pointer) ? facts.at("/cpu/tlb/levels"_json_pointer)
                                                                     : nlohmann::json::array();
  for (const auto& l : levels) {
    const double page = l.value("page_bytes", 0.0), entries = l.value("entries", 0.0);
    if (page <= 0 || entries <= 0 || (page > 4096 ? !huge : !base)) continue;
    out.push_back({fmt::format("L{} TLB reach ({:.0f} x {} pages = {})", l.value("level", 0), entries,
                               format_bytes(page), format_bytes(page * entries)),
                   page * entries});
  }
}

// The host's last cache level's share: shared by the cores of the level
// below where hwloc lists fewer of it, and on a VM with other guests
// whatever the guest is told (caches in level order, as hwloc lists them).
void add_share_cause(std::vector<StepCause>& out, const nlohmann::json& caches) {
  if (!caches.is_array() || caches.size() < 2) return;
  const auto& last = caches[caches.size() - 1];
  const auto& below = caches[caches.size() - 2];
  const double bytes = last.value("bytes", 0.0), below_bytes = below.value("bytes", 0.0);
  if (bytes <= 0 || below_bytes <= 0) return;
  const int level = last.value("level", 0), instances = below.value("instances", 0);
  const std::string shared = last.value("instances", 0) < instances
                                 ? fmt::format(" shared by {} L{}s: other cores', or guests', lines hold part of it",
                                               instances, below.value("level", 0))
                                 : ", the last level: other cores', or guests', lines may hold part of it";
  out.push_back({fmt::format("L{} cache's share ({}{})", level, format_bytes(bytes), shared), bytes, below_bytes});
}

// The MPI library's eager limits (mpi.eager_limits, read through MPI_T).
void add_eager_causes(std::vector<StepCause>& out, const nlohmann::json& document) {
  if (!document.contains("mpi") || !document["mpi"].is_object()) return;
  for (const auto& e : document["mpi"].value("eager_limits", nlohmann::json::array())) {
    const double bytes = e.value("bytes", 0.0);
    if (bytes > 0) {
      out.push_back({fmt::format("eager limit ({} = {})", e.value("name", "?"), format_bytes(bytes)), bytes});
    }
  }
}

}  // namespace

std::vector<StepCause> step_causes(const nlohmann::json& document, const std::string& benchmark, bool huge_pages) {
  std::vector<StepCause> out;
  // An MPI command's messages switch protocol at the eager limit: on a tie
  // (a 4 KiB limit and the page size) the limit names the step.
  if (mpi_benchmark(benchmark)) add_eager_causes(out, document);
  // mem --backend opencl|cuda: the device's own caches, and none of the host's pages.
  const nlohmann::json device = benchmark == "mem" ? document.value("mem_device", nlohmann::json()) : nlohmann::json();
  const bool on_device = device.is_object() && device.contains("caches");
  const nlohmann::json caches = on_device                   ? device["caches"]
                                : document.contains("host") ? document["host"].value("caches", nlohmann::json::array())
                                                            : nlohmann::json::array();
  for (const auto& c : caches) {
    const double bytes = c.value("bytes", 0.0);
    if (bytes > 0) out.push_back({fmt::format("L{} cache ({})", c.value("level", 0), format_bytes(bytes)), bytes});
  }
  if (on_device) return out;
  add_share_cause(out, caches);
  const nlohmann::json facts = document.value("facts", nlohmann::json::object());
  const std::string thp = facts.contains("/settings/thp/value"_json_pointer)
                              ? facts.at("/settings/thp/value"_json_pointer).get<std::string>()
                              : "";
  // The pages the sweep's buffers are on: huge ones where it asked for them
  // and THP allows it (madvise, always), so not the base pages' TLB reach
  // (with 2 MiB pages a step at the base pages' 12 MiB reach is something
  // else); huge ones beside the base pages where THP "always" gives them
  // unasked (large buffers only); else the base pages.
  const bool huge_asked = huge_pages && thp != "never";
  const bool huge_used = huge_asked || thp == "always";
  add_tlb_causes(out, facts, !huge_asked, huge_used);
  if (const double page = fact_number(facts, "/settings/page_bytes/value"_json_pointer); page > 0 && !huge_asked) {
    out.push_back({fmt::format("page size ({})", format_bytes(page)), page});
  }
  const double huge = fact_number(facts, "/settings/page_bytes/huge_bytes"_json_pointer);
  if (huge > 0 && huge_used) {
    out.push_back(
        {fmt::format("huge page size ({}, THP {})", format_bytes(huge), thp.empty() ? "unknown" : thp), huge});
  }
  const double memlock = fact_number(facts, "/settings/memlock_bytes/value"_json_pointer);
  if (memlock > 0 && (benchmark == "link" || benchmark == "stream" || mpi_benchmark(benchmark))) {
    out.push_back({fmt::format("pinned-memory limit (ulimit -l, {})", format_bytes(memlock)), memlock});
  }
  return out;
}

std::vector<StepCause> causes_of(double size_before, double size, const std::vector<StepCause>& causes,
                                 bool to_the_end) {
  std::vector<std::pair<double, StepCause>> fit;
  for (const auto& c : causes) {
    if (c.least_bytes > 0) {
      if (to_the_end && c.least_bytes <= size_before && size * kCauseReach <= c.bytes) fit.emplace_back(0.0, c);
      continue;
    }
    if (c.bytes < size_before / kCauseReach || c.bytes > size * kCauseReach) continue;
    const double distance = c.bytes < size_before ? std::log(size_before / c.bytes)
                            : c.bytes > size      ? std::log(c.bytes / size)
                                                  : 0.0;
    fit.emplace_back(distance, c);
  }
  std::stable_sort(fit.begin(), fit.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<StepCause> out;
  for (auto& [d, c] : fit) out.push_back(std::move(c));
  return out;
}

nlohmann::json named_steps(const StepSearch& search, const std::vector<StepCause>& causes) {
  nlohmann::json out = nlohmann::json::array();
  const double end = search.steps.empty() ? 1 : search.steps.back().to;
  for (const auto& s : search.steps) {
    const double way = std::log(end / s.from);
    const bool to_the_end = way != 0 && std::log(s.to / s.from) / way >= 0.5;
    const auto fit = causes_of(s.size_before, s.size, causes, to_the_end);
    nlohmann::json also = nlohmann::json::array();
    for (std::size_t i = 1; i < fit.size(); ++i) also.push_back(fit[i].name);
    const std::string cause = fit.empty() ? "unexplained" : fit.front().name;
    if (!out.empty() && out.back()["cause"] == cause && cause != "unexplained" &&
        (out.back()["ratio"].get<double>() > 1) == (s.ratio > 1)) {
      auto& last = out.back();  // one transition, cut in two: one step
      last["to"] = s.to;
      last["size"] = s.size;
      last["ratio"] = s.to / last["from"].get<double>();
      continue;
    }
    out.push_back({{"from", s.from},
                   {"to", s.to},
                   {"size_before", s.size_before},
                   {"size", s.size},
                   {"ratio", s.ratio},
                   {"cause", cause},
                   {"also", also}});
  }
  return out;
}

}  // namespace movebench::judge

namespace movebench::judge {
namespace {

// The points of one benchmark, operation and figure over growing sizes.
struct SweepSeries {
  std::string benchmark, operation, figure, unit;
  std::string memory;  // params.host_memory: a link sweep's memory kind; "" where none
  bool huge_pages = false;
  std::vector<SweepPoint> points;
};

constexpr const char* kSweptFigures[] = {"bandwidth", "latency", "throughput"};

std::vector<SweepSeries> sweep_series(const nlohmann::json& timings) {
  std::vector<SweepSeries> done;
  std::map<std::tuple<std::string, std::string, std::string, std::string>, SweepSeries> open;
  for (const auto& t : timings) {
    const auto figures = t.value("figures", nlohmann::json::object());
    for (const char* name : kSweptFigures) {
      if (!figures.contains(name) || !figures[name].value("value", nlohmann::json()).is_number()) continue;
      const auto params = t.value("params", nlohmann::json::object());
      const auto memory = params.value("host_memory", nlohmann::json());
      const auto key = std::make_tuple(t.value("benchmark", ""), t.value("operation", ""), std::string(name),
                                       memory.is_string() ? memory.get<std::string>() : std::string());
      const double size = t.value("bytes", 0.0);
      auto& s = open[key];
      if (!s.points.empty() && s.points.back().size >= size) done.push_back(std::exchange(s, SweepSeries{}));
      s.benchmark = std::get<0>(key);
      s.operation = std::get<1>(key);
      s.figure = name;
      s.memory = std::get<3>(key);
      s.unit = figures[name].value("unit", "");
      s.huge_pages = params.value("huge_pages", false);
      std::vector<double> samples;
      if (t.contains("samples") && t["samples"].is_array()) samples = t["samples"].get<std::vector<double>>();
      s.points.push_back({.size = size, .value = figures[name]["value"].get<double>(), .samples = std::move(samples)});
    }
  }
  for (auto& [key, s] : open) done.push_back(std::move(s));
  std::erase_if(done, [](const SweepSeries& s) { return s.points.size() < kLeastSweepPoints; });
  return done;
}

}  // namespace

nlohmann::json sweep_steps(const nlohmann::json& document) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& s : sweep_series(document.value("timings", nlohmann::json::array()))) {
    // A rate (bandwidth, throughput) grows with the size where a fixed cost per call binds it.
    const StepSearch search = find_steps(s.points, s.figure == "latency" ? SweepFigure::kTime : SweepFigure::kRate);
    nlohmann::json sweep = {{"benchmark", s.benchmark},
                            {"operation", s.operation},
                            {"figure", s.figure},
                            {"unit", s.unit},
                            {"points", s.points.size()},
                            {"noise", search.noise},
                            {"floor_ratio", search.floor_ratio},
                            {"steps", named_steps(search, step_causes(document, s.benchmark, s.huge_pages))}};
    if (!s.memory.empty()) sweep["memory"] = s.memory;
    if (search.bound_points > 0) {
      sweep["overhead_bound"] = {{"points", search.bound_points}, {"through", s.points[search.bound_points - 1].size}};
    }
    out.push_back(std::move(sweep));
  }
  return out;
}

nlohmann::json attach_steps(Report& report) {
  nlohmann::json steps = sweep_steps(report.document());
  report.extra("steps") = steps;
  return steps;
}

void print_step_lines(Output& out, const nlohmann::json& steps, const std::string& prefix) {
  for (const auto& sweep : steps) {
    const std::string unit = sweep.value("unit", "");
    const std::string memory = sweep.value("memory", "");
    out.text(fmt::format("{}steps of {} {} {}{} (noise floor x{}):{}\n", prefix, sweep.value("benchmark", ""),
                         sweep.value("operation", ""), sweep.value("figure", ""),
                         memory.empty() ? "" : ", " + memory + " host memory",
                         significant_text(sweep.value("floor_ratio", 1.0)),
                         sweep["steps"].empty() ? " none above the noise floor" : ""));
    if (sweep.contains("overhead_bound")) {
      const auto& bound = sweep["overhead_bound"];
      out.text(
          fmt::format("{}  up to {} ({} points): bound by a fixed cost per call (a launch, a pass, a transfer's "
                      "set-up), each call's time within x{} of the least; no steps sought there\n",
                      prefix, format_bytes(bound.value("through", 0.0)), bound.value("points", 0),
                      significant_text(kBoundTimeRatio)));
    }
    for (const auto& s : sweep["steps"]) {
      std::string line = fmt::format("{}  {} -> {}: {} -> {} {} (x{}): {}", prefix,
                                     format_bytes(s.value("size_before", 0.0)), format_bytes(s.value("size", 0.0)),
                                     significant_text(s.value("from", 0.0)), significant_text(s.value("to", 0.0)), unit,
                                     significant_text(s.value("ratio", 1.0)), s.value("cause", ""));
      if (!s["also"].empty()) {
        line += fmt::format("; also fits: {}", fmt::join(s["also"].get<std::vector<std::string>>(), ", "));
      }
      out.text(line + "\n");
    }
  }
}

}  // namespace movebench::judge
