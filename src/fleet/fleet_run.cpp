#include "fleet/fleet_run.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <functional>
#include <optional>

#include "facts/facts.hpp"
#include "fleet/fleet_memory.hpp"
#include "fleet/fleet_pairs.hpp"
#include "fleet/fleet_publish.hpp"
#include "fleet/fleet_verdict.hpp"

namespace movebench::fleet {
namespace {

// Every value a unit's rank measured, as one fixed-length row for a gather:
// copy, triad, latency, threads, then the copy and triad rounds' seconds
// and the chase's samples (0 where fewer were taken).
std::vector<double> row_of(const FleetOptions& opt, const MemoryFigures& m) {
  std::vector<double> row{m.copy_mbs, m.triad_mbs, m.latency_ns, static_cast<double>(m.threads)};
  const auto append = [&](const std::vector<double>& v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) row.push_back(i < v.size() ? v[i] : 0);
  };
  append(m.copy_seconds, static_cast<std::size_t>(opt.repetitions));
  append(m.triad_seconds, static_cast<std::size_t>(opt.repetitions));
  append(m.chase_seconds, static_cast<std::size_t>(kChaseSamples));
  return row;
}

MemoryFigures figures_of_row(const FleetOptions& opt, const double* row) {
  MemoryFigures m;
  m.copy_mbs = row[0];
  m.triad_mbs = row[1];
  m.latency_ns = row[2];
  m.threads = static_cast<int>(row[3]);
  const auto reps = static_cast<std::size_t>(opt.repetitions);
  const auto take = [](const double* from, std::size_t n, std::vector<double>& to) {
    for (std::size_t i = 0; i < n; ++i) {
      if (from[i] > 0) to.push_back(from[i]);
    }
  };
  take(row + 4, reps, m.copy_seconds);
  take(row + 4 + reps, reps, m.triad_seconds);
  take(row + 4 + 2 * reps, static_cast<std::size_t>(kChaseSamples), m.chase_seconds);
  return m;
}

// Memory in turns: the units of one slot (one per host) measure at once,
// the other ranks sleep in the barrier; slot after slot, round after round.
void in_turns(const Layout& layout, net::Watchdog& dog, double step_timeout, const std::string& what,
              const std::function<void()>& mine) {
  for (int slot = 0; slot < layout.slots; ++slot) {
    net::WatchedStep step(dog, step_timeout, fmt::format("fleet {}, turn {} of {} on every host", what, slot + 1, layout.slots));
    if (layout.my_unit >= 0 && layout.slot[static_cast<std::size_t>(layout.my_unit)] == slot) mine();
    quiet_barrier();
  }
}

// Rank 0 gets every unit's figures.
std::vector<MemoryFigures> measure_units(const FleetOptions& opt, const Layout& layout, net::Watchdog& dog,
                                         double step_timeout, net::FailMode fail, std::string& error) {
  std::optional<UnitMemory> unit;
  net::maybe_fail(fail);
  in_turns(layout, dog, step_timeout, "memory set-up", [&] { unit.emplace(opt); });
  for (int r = 0; r < opt.repetitions; ++r) {
    in_turns(layout, dog, step_timeout, fmt::format("memory round {}", r + 1), [&] { unit->time_round(); });
  }
  for (int s = 0; s < kChaseSamples; ++s) {
    in_turns(layout, dog, step_timeout, fmt::format("latency sample {}", s + 1), [&] { unit->chase_sample(); });
  }
  MemoryFigures mine;
  if (unit) {
    net::WatchedStep step(dog, step_timeout, "fleet memory check");
    mine = unit->finish();
    error = mine.error;
  }
  const auto row = row_of(opt, mine);
  const int n = net::world_size();
  std::vector<double> all(net::world_rank() == 0 ? row.size() * static_cast<std::size_t>(n) : 0);
  MPI_Gather(row.data(), static_cast<int>(row.size()), MPI_DOUBLE, all.data(), static_cast<int>(row.size()), MPI_DOUBLE,
             0, MPI_COMM_WORLD);
  std::vector<MemoryFigures> units;
  if (net::world_rank() != 0) return units;
  for (int leader : layout.leader) units.push_back(figures_of_row(opt, &all[static_cast<std::size_t>(leader) * row.size()]));
  return units;
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
  const std::string mine = my_facts_text(layout);
  int length = static_cast<int>(mine.size());
  const bool root = net::world_rank() == 0;
  const auto n = static_cast<std::size_t>(net::world_size());
  std::vector<int> lengths(root ? n : 0), offsets(root ? n : 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::size_t total = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    offsets[i] = static_cast<int>(total);
    total += static_cast<std::size_t>(lengths[i]);
  }
  std::string all(total, '\0');
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<nlohmann::json> out;
  if (!root) return out;
  for (int leader : layout.leader) {
    const auto r = static_cast<std::size_t>(leader);
    out.push_back(nlohmann::json::parse(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])),
                                        nullptr, false));
  }
  return out;
}

Named share(Named named) {
  int counts[2] = {named.outliers, named.regressions};
  MPI_Bcast(counts, 2, MPI_INT, 0, MPI_COMM_WORLD);
  return {counts[0], counts[1]};
}

}  // namespace

Named run_fleet(const FleetOptions& opt, Report& report, Output& out, net::Watchdog& dog, double step_timeout,
                net::FailMode fail) {
  const Layout layout = make_layout(opt.per_rank);
  const auto schedule = opt.skip_pairs ? std::vector<Round>{} : pair_schedule(layout.units, opt.random_rounds, opt.seed);
  FleetWriter writer(out);
  if (net::world_rank() == 0) writer.heading(opt, layout, schedule);
  std::string error;
  const auto units = measure_units(opt, layout, dog, step_timeout, fail, error);
  if (!net::settle_step(report, "fleet", "memory", error, true)) return share({});
  std::vector<PairFigures> pairs;
  Bisection bisection;
  if (!schedule.empty()) {
    pairs = measure_pairs(opt, layout, schedule, dog, step_timeout, error);
    if (!net::settle_step(report, "fleet", "pairs", error, true)) return share({});
    bisection = measure_bisection(opt, layout, dog, step_timeout, error);
    if (!net::settle_step(report, "fleet", "bisection", error, true)) return share({});
  }
  const auto facts = gather_facts(layout);
  Named named;
  if (net::world_rank() == 0) {
    const Verdict verdict = judge(opt, layout, units, pairs);
    named.regressions = publish(opt, layout, units, facts, pairs, bisection, verdict, report, writer);
    named.outliers = static_cast<int>(verdict.outliers.size());
  }
  return share(named);
}

}  // namespace movebench::fleet
