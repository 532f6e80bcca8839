// movebench node's devices part (node_devices.hpp). Each device is opened
// in the thread that measures it and closed before the next is opened: the
// CUDA backend makes its device current when it opens it (cudaSetDevice is
// per thread), so a device opened elsewhere would allocate on another GPU.
// link's and mem's routines run unchanged (through BorrowedRun), link's host
// buffers placed by NumaPlacement on one NUMA node at a time.
#include "node/node_devices.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <barrier>
#include <exception>
#include <set>
#include <thread>

#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/sizes.hpp"
#include "device/pcie.hpp"
#include "device/registry.hpp"
#include "link/link_bench.hpp"
#include "mem/device_runner.hpp"
#include "node/borrowed_run.hpp"
#include "node/devices_output.hpp"
#include "node/node_parts.hpp"
#include "node/numa_placement.hpp"

namespace movebench::node {

using device::MemKind;
using link::Direction;

std::vector<NodeDevice> list_node_devices() {
  const nlohmann::json found = device::list_accelerators();
  if (found.value("status", "") != "known") return {};
  const auto& part = found["devices"].empty() ? found["cpu_devices"] : found["devices"];
  const auto built = device::built_backends();  // preference order
  auto rank = [&](const std::string& b) { return std::find(built.begin(), built.end(), b) - built.begin(); };
  std::vector<NodeDevice> all;
  for (const auto& e : part) {
    all.push_back({0, e.value("backend", ""), e.value("index", 0), e.value("name", ""), e.value("type", ""),
                   e["bus_id"].is_string() ? e["bus_id"].get<std::string>() : ""});
  }
  std::stable_sort(all.begin(), all.end(),
                   [&](const NodeDevice& a, const NodeDevice& b) { return rank(a.backend) < rank(b.backend); });
  std::vector<NodeDevice> out;
  std::set<std::string> buses;
  for (auto& d : all) {
    if (!d.bus_id.empty() && !buses.insert(device::normalize_bus_id(d.bus_id)).second) continue;
    d.index = static_cast<int>(out.size());
    out.push_back(d);
  }
  return out;
}

std::vector<NodeDevice> pick_devices(const std::vector<NodeDevice>& all,
                                     const std::optional<std::vector<int>>& wanted) {
  if (!wanted) return all;
  std::vector<NodeDevice> out;
  for (int i : *wanted) {
    if (i < 0 || static_cast<std::size_t>(i) >= all.size()) {
      throw UsageError(all.empty() ? fmt::format("--devices: no device found here (device {} asked for)", i)
                                   : fmt::format("--devices: no device {}: this node has {} (0 to {})", i, all.size(),
                                                 all.size() - 1));
    }
    if (std::none_of(out.begin(), out.end(), [&](const NodeDevice& d) { return d.index == i; })) {
      out.push_back(all[static_cast<std::size_t>(i)]);
    }
  }
  return out;
}

void check_devices_options(const NodeOptions& opt) {
  if (opt.device_bytes < 4096 || opt.device_bytes % 4096) {
    throw UsageError(fmt::format("invalid --device-bytes '{}': whole 4 KiB pages, 4K or more", opt.device_bytes));
  }
  if (opt.devices) pick_devices(list_node_devices(), opt.devices);
}

namespace {

constexpr std::size_t kHostPagesChecked = 16;  // per host buffer: first, last and evenly between
constexpr int kTests = 10;                     // link's tests per figure, at most (the budget decides)
constexpr int kMemRounds = 5;                  // mem's timed rounds per kernel
constexpr int kAllAtOnceStretch = 4;           // all at once runs four single budgets (see one_of_all)
constexpr double kLeastFigureSeconds = 0.02, kMostFigureSeconds = 2;
constexpr double kDeviceTimeout = 60;  // bound on any wait for a device

// link's host buffers on one NUMA node: allocated while the calling
// thread's policy binds it there (pinned memory is placed as the driver
// allocates it, and cannot be moved after), then bound and moved (pages a
// backend's own threads touched first); once written, a sample of their
// pages is checked (move_pages). The last check's text is kept.
class NumaPlacement : public link::HostPlacement {
 public:
  explicit NumaPlacement(int numa_node) : node_(numa_node) {}
  std::unique_ptr<device::Buffer> alloc(device::Device& device, MemKind kind, std::size_t bytes) const override {
    std::unique_ptr<device::Buffer> b;
    {
      ScopedNodeBinding bind(node_);
      if (!bind.error().empty()) throw std::runtime_error(bind.error());
      b = device.alloc(kind, bytes);
    }
    if (b->host()) bind_to_node(b->host(), b->bytes(), node_);  // best effort: misplaced() decides
    return b;
  }
  std::string misplaced(const device::Buffer& host) const override {
    const auto why = placement_problem(check_placement(host.host(), host.bytes(), node_, kHostPagesChecked), node_);
    checked_ = why.empty() ? fmt::format("every sampled page on NUMA node {}", node_) : why;
    return why;
  }
  const std::string& checked() const { return checked_; }

 private:
  int node_;
  mutable std::string checked_;
};

// What every measurement of the part is given.
struct Plan {
  std::uint64_t bytes = 0;    // per transfer; per mem array
  double figure_seconds = 0;  // link's budget per figure
};

// The part's share of the time over its figures: three directions per
// device and NUMA node, mem per device (counted as one), both directions
// of all at once (four budgets each); the latency probes take what their
// fixed counts take.
Plan plan_of(const NodeContext& ctx, std::size_t devices, std::size_t numa_nodes) {
  const double figures = static_cast<double>(devices * numa_nodes * 3 + devices + 2 * kAllAtOnceStretch);
  return {ctx.opt.device_bytes, std::clamp(ctx.part_seconds * 0.7 / figures, kLeastFigureSeconds, kMostFigureSeconds)};
}

// Pinned where the backend has it (the copy engine's own path), else the
// first host kind it has.
MemKind copy_kind(device::Device& d) {
  const auto kinds = d.host_kinds();
  return std::find(kinds.begin(), kinds.end(), MemKind::kPinned) != kinds.end() ? MemKind::kPinned : kinds.front();
}

link::LinkOptions link_options(const Plan& plan, device::Device& d, const link::HostPlacement* placement) {
  link::LinkOptions lo;
  lo.common.timeout_s = kDeviceTimeout;
  lo.placement = placement;
  lo.paths = {link::Path::kCopy};
  lo.kinds = {copy_kind(d)};
  lo.sizes = {plan.bytes};
  lo.repetitions = kTests;
  lo.time_budget = plan.figure_seconds;
  lo.batch = 4;
  lo.roundtrip_sizes = {64};
  lo.roundtrip_repetitions = 10 * kTests;
  lo.chase_per_unit = false;  // the part reads the first word only; a chase per SM would cost seconds per node
  return lo;
}

// Median and MAD (scaled to sigma) of a link record's per-test rates, MB/s.
Single single_of(const BorrowedRun& run, const std::string& operation) {
  for (const auto& t : run.report().document()["timings"]) {
    if (t["operation"] != operation || t["samples"].empty()) continue;
    const double bytes = t["bytes"].get<double>() * (operation.ends_with(".total") ? 2 : 1);
    std::vector<double> rates;
    for (double s : t["samples"]) rates.push_back(s > 0 ? bytes / s * 1e-6 : 0);
    const auto spread = judge::robust_spread(rates);
    return {spread.median, spread.mad};
  }
  return {};
}

// The direction of a link record: its row in link's case table
// (copy.duplex.read is the row copy.duplex's).
std::string direction_of(const std::string& operation) {
  for (const auto& c : link::link_cases()) {
    if (operation != c.name && !operation.starts_with(std::string(c.name) + ".")) continue;
    switch (c.routine) {
      case link::Routine::kBandwidth: return link::direction_name(c.direction);
      case link::Routine::kChase:
      case link::Routine::kUnitChase: return "read";
      case link::Routine::kWrite: return "write";
      case link::Routine::kRoundtrip: return "roundtrip";
    }
  }
  return "";
}

// A borrowed record as the part's: benchmark node, operation devices, the
// routine's own case in params.case ("link.copy.read", "mem.triad").
std::function<void(Record&)> as_device_record(const NodeDevice& d, std::optional<int> numa_node,
                                              const nlohmann::json& more = nlohmann::json::object()) {
  return [=](Record& r) {
    r.params["case"] = r.benchmark + "." + r.operation;
    if (r.benchmark == "link") r.params["direction"] = direction_of(r.operation);
    r.benchmark = "node";
    r.operation = "devices";
    r.params["device"] = d.index;
    r.params["device_name"] = d.name;
    r.params["numa_node"] = numa_node ? nlohmann::json(*numa_node) : nlohmann::json("device");
    r.params.update(more);
  };
}

// link on one device with its host buffers on one NUMA node: bandwidth by
// copy in each direction, then the latency probes (on memory the device's
// kernels reach: pinned where they reach it, else mapped).
void link_on_node(NodeContext& ctx, const Plan& plan, device::Device& d, int node, DeviceResult& r) {
  NumaPlacement placement(node);
  BorrowedRun run("link");
  auto lo = link_options(plan, d, &placement);
  r.host_memory = device::kind_name(lo.kinds.front());
  try {
    link::run_link_bandwidth(d, lo, run.report(), run.out());
    const auto have = d.host_kinds();
    if (!d.kernel_reaches(lo.kinds.front()) && std::find(have.begin(), have.end(), MemKind::kMapped) != have.end()) {
      lo.kinds.push_back(MemKind::kMapped);
    }
    if (!interrupted()) link::run_link_latency(d, lo, run.report(), run.out());
  } catch (const std::exception& e) {
    run.report().add_error("run", e.what());
  }
  const bool ok =
      run.move_into(ctx.report, as_device_record(r.device, node, {{"placement", placement.checked()}}),
                    fmt::format("node devices: device {}, host memory on NUMA node {}", r.device.index, node));
  if (!ok) {
    const auto& errors = run.report().document()["errors"];
    r.failed[node] = errors.empty() ? "failed" : errors.begin()->get<std::string>();
    ctx.out.problem(fmt::format("movebench node: {}, host memory on NUMA node {}: {}", device_words(r.device), node,
                                r.failed[node]));
  }
  for (const char* dir : {"read", "write", "duplex"}) {
    const std::string op = fmt::format("copy.{}{}", dir, std::string_view(dir) == "duplex" ? ".total" : "");
    if (auto f = run.result(fmt::format("link.{}.{}", op, r.host_memory))) {
      r.bandwidth[dir].push_back({node, f->value()});
      r.spread[dir][node] = single_of(run, op);
    }
  }
  if (auto f = run.result("link.latency.first_word")) r.latency_ns[node] = f->value();
}

// mem's bandwidth table in the device's own memory: copy and triad.
void mem_on_device(NodeContext& ctx, const Plan& plan, device::Device& d, DeviceResult& r) {
  mem::MemOptions mo;
  mo.choice = {d.backend(), "", std::to_string(r.device.backend_index)};
  mo.elements = plan.bytes / sizeof(double);
  mo.repetitions = kMemRounds;
  mo.kernels = {mem::Kernel::kCopy, mem::Kernel::kTriad};
  BorrowedRun run("mem");
  try {
    mem::run_on_device(mo, d, run.report(), run.out());
  } catch (const std::exception& e) {
    run.report().add_error("run", e.what());
  }
  run.move_into(ctx.report, as_device_record(r.device, std::nullopt),
                fmt::format("node devices: mem on device {}", r.device.index));
  if (auto f = run.result("mem.copy." + d.backend())) r.mem_copy = f->value();
  if (auto f = run.result("mem.triad." + d.backend())) r.mem_triad = f->value();
}

// The device's own NUMA node and link, from sysfs (the facts' reader).
void read_device_facts(DeviceResult& r) {
  if (r.device.bus_id.empty()) {
    r.own_why = "its backend gives no PCI bus id";
    return;
  }
  r.pcie = device::read_pcie_link(r.device.bus_id);
  if (!r.pcie) {
    r.own_why = "no sysfs entry for " + r.device.bus_id;
  } else if (r.pcie->numa_node < 0) {
    r.own_why = "sysfs numa_node of " + r.device.bus_id + " is -1 or unreadable";
  }
  r.own_node = r.pcie ? r.pcie->numa_node : -1;
}

DeviceResult measure_device(NodeContext& ctx, const Plan& plan, const NodeDevice& nd,
                            const std::vector<int>& numa_nodes) {
  DeviceResult r;
  r.device = nd;
  read_device_facts(r);
  auto d = device::open_device({nd.backend, "", std::to_string(nd.backend_index)});
  for (int node : numa_nodes) {
    if (interrupted()) break;
    ctx.report.progress().step(fmt::format("device {}, host memory on NUMA node {}", nd.index, node));
    link_on_node(ctx, plan, *d, node, r);
  }
  if (!interrupted()) mem_on_device(ctx, plan, *d, r);
  r.best_node = best_numa_node(r.bandwidth["read"]);
  r.affinity = check_affinity(r.own_node, r.own_why, r.bandwidth["read"]);
  return r;
}

// One device's share of all at once: opened in this thread, its host buffer
// on the NUMA node that served it best, its tests started when every
// device's buffers are ready (the barrier, through link's ready hook), and
// run for four single budgets, so that they overlap whatever the warm-ups
// take. A device that fails drops out of the barrier: the others never wait
// for it. Returns what the placement check saw.
std::string one_of_all(const Plan& plan, const DeviceResult& r, Direction dir, std::barrier<>& start,
                       BorrowedRun& run) {
  bool arrived = false;
  const NumaPlacement placement(r.best_node);
  try {
    auto d = device::open_device({r.device.backend, "", std::to_string(r.device.backend_index)});
    auto lo = link_options(plan, *d, r.best_node >= 0 ? &placement : nullptr);
    lo.directions = {dir};
    lo.repetitions = kAllAtOnceStretch * kTests;
    lo.time_budget = kAllAtOnceStretch * plan.figure_seconds;
    lo.ready = [&] {
      if (!arrived) start.arrive_and_wait();
      arrived = true;
    };
    link::run_link_bandwidth(*d, lo, run.report(), run.out());
  } catch (const std::exception& e) {
    run.report().add_error("run", e.what());
  }
  if (!arrived) start.arrive_and_drop();
  return placement.checked();
}

// Their PCIe links' peaks summed (MB/s), where the facts give every one.
void add_peak_sum(AllAtOnce& a, const std::vector<DeviceResult>& results) {
  for (const auto& r : results) {
    const double peak = r.pcie ? r.pcie->bytes_per_second() * 1e-6 : 0;
    if (peak <= 0) {
      a.peak_sum = 0;
      a.peak_why =
          fmt::format("device {}: {}", r.device.index, r.pcie ? "its link's speed or width unread" : r.own_why);
      return;
    }
    a.peak_sum += peak;
  }
}

AllAtOnce all_at_once(NodeContext& ctx, const Plan& plan, const std::vector<DeviceResult>& results, Direction dir) {
  AllAtOnce a;
  a.direction = link::direction_name(dir);
  std::vector<std::unique_ptr<BorrowedRun>> runs;
  for (std::size_t i = 0; i < results.size(); ++i) runs.push_back(std::make_unique<BorrowedRun>("link"));
  std::vector<std::string> placed(results.size());
  std::barrier start(static_cast<std::ptrdiff_t>(results.size()));
  {
    std::vector<std::jthread> threads;
    for (std::size_t i = 0; i < results.size(); ++i) {
      threads.emplace_back([&, i] { placed[i] = one_of_all(plan, results[i], dir, start, *runs[i]); });
    }
  }
  std::vector<Single> singles;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    runs[i]->move_into(
        ctx.report,
        as_device_record(r.device, r.best_node, {{"all_at_once", results.size()}, {"placement", placed[i]}}),
        fmt::format("node devices: device {} with all at once, {}", r.device.index, a.direction));
    // Each device's median test rate, as each single figure summed against it.
    const Single together = single_of(*runs[i], "copy." + a.direction);
    a.per_device.push_back(together.median > 0 ? std::optional<double>(together.median) : std::nullopt);
    const auto spread = r.spread.find(a.direction);
    if (spread != r.spread.end() && spread->second.contains(r.best_node))
      singles.push_back(spread->second.at(r.best_node));
  }
  double measured = 0;
  for (const auto& v : a.per_device) measured += v.value_or(0);
  a.check = check_aggregate(measured, singles);
  add_peak_sum(a, results);
  return a;
}

// What of its facts could explain a slow device: its PCIe link.
std::string link_words(const DeviceResult& r) {
  if (!r.pcie) return "its PCIe link unknown (" + r.own_why + ")";
  const auto& l = *r.pcie;
  std::string text = fmt::format("its link PCIe Gen{} x{}", l.gen, l.width);
  if (l.below_max()) text += fmt::format(", below its maximum Gen{} x{}", l.max_gen, l.max_width);
  return text;
}

std::optional<double> at_best(const DeviceResult& r, const std::string& dir) {
  const auto it = r.bandwidth.find(dir);
  if (it == r.bandwidth.end() || it->second.empty()) return std::nullopt;
  return std::max_element(it->second.begin(), it->second.end(),
                          [](const NodeFigure& a, const NodeFigure& b) { return a.value < b.value; })
      ->value;
}

// Each group of siblings (the same backend and name) judged by the one rule
// (node_findings): host to device and device to host from the NUMA node
// that serves each best, and the device's own memory (triad).
void judge_devices(NodeContext& ctx, const std::vector<DeviceResult>& results) {
  std::map<std::string, std::vector<const DeviceResult*>> groups;
  for (const auto& r : results) groups[r.device.backend + " " + r.device.name].push_back(&r);
  for (const auto& [name, group] : groups) {
    for (const char* dir : {"read", "write", "triad"}) {
      std::vector<Endpoint> endpoints;
      std::vector<std::string> facts;
      for (const auto* r : group) {
        const auto v = std::string_view(dir) == "triad" ? r->mem_triad : at_best(*r, dir);
        if (!v) continue;
        endpoints.push_back({fmt::format("device {}", r->device.index), *v});
        facts.push_back(link_words(*r));
      }
      const std::string figure =
          std::string_view(dir) == "triad" ? "own memory triad bandwidth" : direction_words(dir) + " bandwidth";
      judge_siblings(ctx, "devices", figure, "MB/s", endpoints, true, [&](std::size_t i) { return facts[i]; });
    }
  }
}

void add_device_findings(NodeContext& ctx, const std::vector<DeviceResult>& results,
                         const std::vector<AllAtOnce>& all) {
  for (const auto& r : results) {
    if (r.affinity.verdict != "mismatch") continue;
    const auto own = r.bandwidth.at("read");
    const double best = *at_best(r, "read");
    const double mine =
        std::find_if(own.begin(), own.end(), [&](const NodeFigure& f) { return f.numa_node == r.own_node; })->value;
    add_finding(ctx, {"devices", "host to device bandwidth from its own NUMA node",
                      fmt::format("device {}", r.device.index), mine, best, 1 - mine / best, "MB/s",
                      fmt::format("devices: {}: {}", device_words(r.device), r.affinity.text)});
  }
  for (const auto& a : all) {
    if (!a.check.contention) continue;
    add_finding(ctx, {"devices", "all at once, " + direction_words(a.direction), "all devices", a.check.aggregate,
                      a.check.sum, a.check.drop, "MB/s",
                      fmt::format("devices: all at once, {}: {} MB/s, {}% below each alone summed ({} MB/s; the "
                                  "noise allows {}%): they share a path (a PCIe switch, a root port, host memory)",
                                  direction_words(a.direction), significant_text(a.check.aggregate),
                                  significant_text(a.check.drop * 100), significant_text(a.check.sum),
                                  significant_text(a.check.tolerance * 100))});
  }
  judge_devices(ctx, results);
}

// All at once, one record per direction (each device's own beside it).
void record_all_at_once(NodeContext& ctx, const AllAtOnce& a) {
  Record rec;
  rec.benchmark = "node";
  rec.operation = "devices";
  rec.params = {{"case", "link.copy." + a.direction},
                {"direction", a.direction},
                {"device", "all"},
                {"devices", a.per_device.size()},
                {"numa_node", "best"},
                {"sum_alone_mb_s", a.check.sum},
                {"tolerance", a.check.tolerance},
                {"contention", a.check.contention}};
  if (a.peak_sum > 0) rec.params["pcie_peak_sum_mb_s"] = a.peak_sum;
  rec.figures = {
      Figure::bandwidth("bandwidth", a.check.aggregate * 1e6, Stat::kMedian, Of::kRate, application_bytes())};
  ctx.report.add(std::move(rec));
}

void run_devices(NodeContext& ctx) {
  const auto devices = pick_devices(list_node_devices(), ctx.opt.devices);
  std::vector<int> numa_nodes;
  for (const auto& n : ctx.topology.numa) numa_nodes.push_back(n.os_index);
  const Plan plan = plan_of(ctx, devices.size(), numa_nodes.size());
  send_now(ctx.out, devices_heading_text(devices, numa_nodes, plan.bytes));
  ctx.report.settings("node")["device_bytes"] = plan.bytes;
  ctx.report.settings("node")["device_figure_seconds"] = plan.figure_seconds;
  ctx.report.progress().begin("node devices", devices.size() * numa_nodes.size());
  std::vector<DeviceResult> results;
  for (const auto& d : devices) {
    if (interrupted()) break;
    try {
      results.push_back(measure_device(ctx, plan, d, numa_nodes));
    } catch (const std::exception& e) {
      ctx.report.validation(false, fmt::format("node devices: {}: {}", device_words(d), e.what()));
      ctx.out.problem(fmt::format("movebench node: devices: {}: {}", device_words(d), e.what()));
    }
  }
  ctx.report.progress().clear();
  send_now(ctx.out, device_matrices_text(results, numa_nodes));
  std::vector<AllAtOnce> all;
  for (Direction dir : {Direction::kRead, Direction::kWrite}) {
    if (results.size() < 2 || interrupted()) break;
    all.push_back(all_at_once(ctx, plan, results, dir));
    record_all_at_once(ctx, all.back());
    send_now(ctx.out, all_at_once_text(all.back(), results));
  }
  add_device_findings(ctx, results, all);
}

std::optional<std::string> devices_not_here(const NodeTopology&, const NodeOptions&) {
  if (list_node_devices().empty()) {
    return "no device found by the built backends (" + or_list(device::built_backends()) +
           "; the host backend is host memory, not a device)";
  }
  return std::nullopt;
}

}  // namespace

NodePart devices_part() {
  return {"devices", "every accelerator: link with the host memory on each NUMA node, mem in its memory, all at once",
          devices_not_here, run_devices};
}

}  // namespace movebench::node
