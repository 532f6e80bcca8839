#include "fleet/fleet_run.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <functional>
#include <new>
#include <optional>
#include <stdexcept>

#include "core/sizes.hpp"
#include "facts/facts.hpp"
#include "fleet/fleet_memory.hpp"
#include "fleet/fleet_pairs.hpp"
#include "fleet/fleet_publish.hpp"
#include "fleet/fleet_steps.hpp"
#include "fleet/fleet_suspects.hpp"
#include "fleet/fleet_verdict.hpp"
#include "node/node_step.hpp"

namespace movebench::fleet {
namespace {

// A unit's memory figures travel to rank 0 in one gather of doubles, of
// the same length from every rank: the samples padded with 0 (no sample)
// to the count asked for. memory_fields names every field once, in the
// order both ends take them; RowWriter writes a row, RowReader reads one.
struct RowWriter {
  std::vector<double> row;
  void number(double v) { row.push_back(v); }
  void count(int v) { row.push_back(static_cast<double>(v)); }
  void samples(const std::vector<double>& v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) row.push_back(i < v.size() ? v[i] : 0);
  }
};

struct RowReader {
  const double* next;
  void number(double& v) { v = *next++; }
  void count(int& v) { v = static_cast<int>(*next++); }
  void samples(std::vector<double>& v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i, ++next) {
      if (*next > 0) v.push_back(*next);
    }
  }
};

// `Figures`: MemoryFigures to read into, const MemoryFigures to write.
// Not sent: error (a unit whose check failed sends zeros; steps carries
// why) and measured_again (rank 0 sets it).
template <class Io, class Figures>
void memory_fields(Io& io, Figures& m, const FleetOptions& opt) {
  io.number(m.copy_mbs);
  io.number(m.triad_mbs);
  io.number(m.latency_ns);
  io.count(m.threads);
  io.samples(m.copy_seconds, static_cast<std::size_t>(opt.repetitions));
  io.samples(m.triad_seconds, static_cast<std::size_t>(opt.repetitions));
  io.samples(m.chase_seconds, static_cast<std::size_t>(kChaseSamples));
}

// One pass over the units' memory: the first, of every unit, or a second
// of the suspects alone (`again`: the steps' names say so, and a unit not
// among `measures` sleeps through its turns).
struct Pass {
  bool measures = true;  // this rank's unit measures in this pass
  std::string suffix;    // added to every step's name: "" or " (suspects again)"
};

// Memory in turns: the units of one slot (one per host) measure at once,
// the other ranks sleep in the barrier; slot after slot, round after round.
// A unit that failed an earlier turn sits the rest out.
void in_turns(const Layout& layout, net::Watchdog& dog, double step_timeout, Steps& steps, const Pass& pass,
              const std::string& name, const std::function<void()>& mine) {
  const std::string what = name + pass.suffix;
  steps.begin(what);
  for (int slot = 0; slot < layout.slots; ++slot) {
    net::WatchedStep step(dog, step_timeout,
                          fmt::format("fleet {}, turn {} of {} on every host", what, slot + 1, layout.slots));
    if (pass.measures && layout.my_unit >= 0 && layout.slot[static_cast<std::size_t>(layout.my_unit)] == slot) {
      steps.attempt(what, mine);
    }
    quiet_barrier();
  }
}

// This rank's unit's memory figures, measured in turns and checked; zero
// when its unit failed a step (steps says which and why) or does not
// measure in this pass.
MemoryFigures measure_mine(const FleetOptions& opt, const Layout& layout, net::Watchdog& dog, double step_timeout,
                           Steps& steps, const Pass& pass) {
  std::optional<UnitMemory> unit;
  in_turns(layout, dog, step_timeout, steps, pass, "memory set-up", [&] {
    try {
      unit.emplace(opt);
    } catch (const std::bad_alloc&) {  // its what() says no more than that
      throw std::runtime_error(fmt::format("out of memory: arrays of {} each and a chase of {} (std::bad_alloc)",
                                           format_bytes(static_cast<double>(opt.mem_bytes)),
                                           format_bytes(static_cast<double>(opt.chase_bytes))));
    }
  });
  for (int r = 0; r < opt.repetitions; ++r) {
    in_turns(layout, dog, step_timeout, steps, pass, fmt::format("memory round {} of {}", r + 1, opt.repetitions),
             [&] { unit->time_round(); });
  }
  for (int s = 0; s < kChaseSamples; ++s) {
    in_turns(layout, dog, step_timeout, steps, pass, fmt::format("latency sample {} of {}", s + 1, kChaseSamples),
             [&] { unit->chase_sample(); });
  }
  const std::string check = "memory check" + pass.suffix;
  steps.begin(check);
  MemoryFigures mine;
  if (unit) {
    net::WatchedStep step(dog, step_timeout, "fleet " + check);
    steps.attempt(check, [&] {
      mine = unit->finish();
      if (!mine.error.empty()) steps.fail(check, "validation failed: " + mine.error);
    });
  }
  return steps.failed_here() ? MemoryFigures{} : mine;
}

// Rank 0 gets every unit's figures (zero for a unit that failed or did not
// measure).
std::vector<MemoryFigures> gather_units(const FleetOptions& opt, const Layout& layout, const MemoryFigures& mine) {
  RowWriter writer;
  memory_fields(writer, mine, opt);
  const std::vector<double>& row = writer.row;
  const int n = net::world_size();
  std::vector<double> all(net::world_rank() == 0 ? row.size() * static_cast<std::size_t>(n) : 0);
  MPI_Gather(row.data(), static_cast<int>(row.size()), MPI_DOUBLE, all.data(), static_cast<int>(row.size()), MPI_DOUBLE,
             0, MPI_COMM_WORLD);
  std::vector<MemoryFigures> units;
  if (net::world_rank() != 0) return units;
  for (int leader : layout.leader) {
    RowReader reader{&all[static_cast<std::size_t>(leader) * row.size()]};
    memory_fields(reader, units.emplace_back(), opt);
  }
  return units;
}

std::vector<MemoryFigures> measure_units(const FleetOptions& opt, const Layout& layout, net::Watchdog& dog,
                                         double step_timeout, net::FailMode fail, Steps& steps) {
  net::maybe_fail(fail);
  return gather_units(opt, layout, measure_mine(opt, layout, dog, step_timeout, steps, Pass{}));
}

// Every rank learns rank 0's suspects: the units slow on a memory figure,
// among those still in.
std::vector<int> share_suspects(const FleetOptions& opt, const Steps& steps, const Gathered& got) {
  std::vector<int> which;
  if (net::world_rank() == 0) {
    std::vector<bool> left_out = steps.out();
    for (std::size_t u = 0; u < left_out.size() && u < got.no_memory.size(); ++u)
      left_out[u] = left_out[u] || got.no_memory[u];
    which = memory_suspects(got.units, left_out, opt.rule);
  }
  int n = static_cast<int>(which.size());
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  which.resize(static_cast<std::size_t>(n));
  if (n > 0) MPI_Bcast(which.data(), n, MPI_INT, 0, MPI_COMM_WORLD);
  return which;
}

// The suspects measure their memory again, in turns, after the pairs (a
// burst of other work has passed by then; a slow node is still slow), and
// keep the best of both per figure (fleet_suspects.hpp): a unit is named
// only if slow again. False: stopped (interrupted).
bool measure_memory_again(const FleetOptions& opt, const Layout& layout, net::Watchdog& dog, double step_timeout,
                          Steps& steps, Gathered& got) {
  const auto which = share_suspects(opt, steps, got);
  if (which.empty()) return true;
  const Pass again{layout.my_unit >= 0 && std::find(which.begin(), which.end(), layout.my_unit) != which.end(),
                   " (suspects again)"};
  const auto units = gather_units(opt, layout, measure_mine(opt, layout, dog, step_timeout, steps, again));
  if (!steps.settle()) return false;
  if (net::world_rank() != 0) return true;
  for (int u : which) keep_best(got.units[static_cast<std::size_t>(u)], units[static_cast<std::size_t>(u)]);
  steps.keep("units", units_json(layout, got.units, got.no_memory, {}));
  return true;
}

// Each unit's machine as the facts layer reads it (src/facts): the unit's
// rank collects, rank 0 gathers the JSON texts (each at most kFactsBytes;
// a larger or failed one is {"status": "unknown", "why"}). Rank 0 gets one
// per unit, others none.
constexpr std::size_t kFactsBytes = std::size_t{1} << 20;

std::string my_facts_text(const Layout& layout) {
  if (layout.my_unit < 0) return {};
  nlohmann::json j;
  try {
    j = facts::collect(facts::Sources{});
  } catch (const std::exception& e) {
    j = {{"status", "unknown"}, {"why", fmt::format("facts not collected: {}", e.what())}};
  }
  std::string text = j.dump();
  if (text.size() > kFactsBytes) {
    text = nlohmann::json{{"status", "unknown"}, {"why", fmt::format("facts over {} bytes", kFactsBytes)}}.dump();
  }
  return text;
}

std::vector<nlohmann::json> gather_facts(const Layout& layout) {
  const auto all = gather_texts(my_facts_text(layout));
  std::vector<nlohmann::json> out;
  if (net::world_rank() != 0) return out;
  for (int leader : layout.leader)
    out.push_back(nlohmann::json::parse(all[static_cast<std::size_t>(leader)], nullptr, false));
  return out;
}

// Each unit's node step (node/node_step.hpp: the suite's own command line),
// in turns as memory: the units of one host one after another, so that no
// two share its cores or memory. Its text stays on the unit (the summary is
// rank 0's); a step that cannot run, or that records an error (a misplaced
// page, a failed check, a pair that never answered), is the unit's failure
// in "node step". Rank 0 gets every unit's headlines and findings.
std::vector<NodeStepFigures> measure_node_steps(const Layout& layout, net::Watchdog& dog, double step_timeout,
                                                Steps& steps) {
  std::string mine;
  const Pass pass;
  in_turns(layout, dog, step_timeout, steps, pass, "node step", [&] {
    CapturedOutput text;
    Report report("node", OutputOptions::in_memory(), {});
    std::string why;
    const bool ran = node::run_node_step(report, text, why);
    nlohmann::json summary = node::step_summary(report.document());
    if (!ran) throw std::runtime_error(why);
    if (!summary["errors"].empty()) throw std::runtime_error(summary["errors"].begin()->get<std::string>());
    summary.erase("errors");
    mine = summary.dump();
  });
  const auto all = gather_texts(mine);
  std::vector<NodeStepFigures> out;
  if (net::world_rank() != 0) return out;
  for (int leader : layout.leader) {
    const auto j = nlohmann::json::parse(all[static_cast<std::size_t>(leader)], nullptr, false);
    NodeStepFigures& u = out.emplace_back();
    if (!j.is_object()) continue;                                       // failed or not measured: no figures
    const auto figures = j.value("figures", nlohmann::json::object());  // items() of a temporary would dangle
    for (const auto& [name, value] : figures.items()) {
      if (value.is_number()) u.figures[name] = value.get<double>();
    }
    u.findings = j.value("findings", nlohmann::json::array());
  }
  return out;
}

Named share(Named named) {
  MPI_Bcast(&named.outliers, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&named.regressions, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return named;
}

// The pairs and the bisection, each unit's pair buffers first (a unit that
// cannot allocate them is out before any exchange, so that no partner waits
// for it). False: stopped (interrupted).
bool measure_network(const FleetOptions& opt, const Layout& layout, const std::vector<Round>& schedule,
                     net::Watchdog& dog, double step_timeout, Steps& steps, Gathered& got) {
  steps.begin("pairs set-up");
  std::optional<PairBuffers> buffers;
  if (layout.my_unit >= 0) steps.attempt("pairs set-up", [&] { buffers.emplace(opt); });
  if (!steps.settle()) return false;
  const double turn = pair_turn_seconds(opt, layout, schedule, step_timeout);
  got.pairs = measure_pairs(opt, layout, schedule, dog, step_timeout, turn, buffers ? &*buffers : nullptr, steps);
  if (steps.stopped()) return false;
  got.bisection = measure_bisection(opt, layout, dog, step_timeout, turn, buffers ? &*buffers : nullptr, steps);
  return !steps.stopped();
}

}  // namespace

Named run_fleet(const FleetOptions& opt, Report& report, Output& out, net::Watchdog& dog, double step_timeout,
                net::FailMode fail) {
  const Layout layout = make_layout(opt.per);
  const auto schedule =
      opt.skip_pairs ? std::vector<Round>{} : pair_schedule(layout.units, opt.random_rounds, opt.seed);
  FleetWriter writer(out);
  if (net::world_rank() == 0) writer.heading(opt, layout, schedule);
  Steps steps(layout, opt.per, report);
  Gathered got;
  got.units = measure_units(opt, layout, dog, step_timeout, fail, steps);
  if (!steps.settle()) return share({});
  // Units out now have no memory figures; one that fails later keeps them.
  got.no_memory = steps.out();
  steps.keep("units", units_json(layout, got.units, got.no_memory, {}));
  if (!schedule.empty() && !measure_network(opt, layout, schedule, dog, step_timeout, steps, got)) return share({});
  if (!measure_memory_again(opt, layout, dog, step_timeout, steps, got)) return share({});
  if (opt.node) {
    got.node = measure_node_steps(layout, dog, step_timeout, steps);
    if (!steps.settle()) return share({});
  }
  steps.begin("facts");
  got.facts = gather_facts(layout);
  Named named;
  if (net::world_rank() == 0) {
    got.failures = steps.failures();
    const Verdict verdict = judge(opt, layout, got.units, got.no_memory, got.pairs, got.node);
    named.regressions = publish(opt, layout, got, verdict, report, writer);
    named.outliers = static_cast<int>(verdict.outliers.size());
  }
  return share(named);
}

}  // namespace movebench::fleet
