#include "fleet/fleet_run.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <cstdio>
#include <functional>
#include <optional>

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

int share_count(int count) {
  MPI_Bcast(&count, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return count;
}

}  // namespace

int run_fleet(const FleetOptions& opt, Report& report, net::Watchdog& dog, double step_timeout, net::FailMode fail) {
  const Layout layout = make_layout(opt.per_rank);
  const auto schedule = opt.skip_pairs ? std::vector<Round>{} : pair_schedule(layout.units, opt.random_rounds, opt.seed);
  if (net::world_rank() == 0) print_header(opt, layout, schedule);
  std::string error;
  const auto units = measure_units(opt, layout, dog, step_timeout, fail, error);
  if (!net::settle_step(report, "fleet", "memory", error, true)) return share_count(0);
  std::vector<PairFigures> pairs;
  Bisection bisection;
  if (!schedule.empty()) {
    pairs = measure_pairs(opt, layout, schedule, dog, step_timeout, error);
    if (!net::settle_step(report, "fleet", "pairs", error, true)) return share_count(0);
    bisection = measure_bisection(opt, layout, dog, step_timeout, error);
    if (!net::settle_step(report, "fleet", "bisection", error, true)) return share_count(0);
  }
  int count = 0;
  if (net::world_rank() == 0) {
    const Verdict verdict = judge(opt, layout, units, pairs);
    publish(opt, layout, units, pairs, bisection, verdict, report);
    count = static_cast<int>(verdict.outliers.size());
  }
  return share_count(count);
}

}  // namespace movebench::fleet
