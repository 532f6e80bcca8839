// Who is a unit in a fleet run, which rank measures it, and when: ranks are
// grouped by host name (MPI_Get_processor_name, which is what Slurm and
// scontrol call the node); with --per rank every rank is a unit. Units on
// one host take turns (slots) so that they do not disturb each other;
// hosts measure at the same time.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "core/named_values.hpp"

namespace movebench::fleet {

// What a unit is (--per): a host (its ranks grouped by host name) or a rank.
enum class UnitKind { kHost, kRank };
// Their names on the command line and in the result (fleet.per), once.
inline constexpr std::array<NamedValue<UnitKind>, 2> kUnitKindNames{
    {{"host", UnitKind::kHost}, {"rank", UnitKind::kRank}}};
inline std::string unit_kind_name(UnitKind kind) { return std::string(name_in(kUnitKindNames, kind)); }

struct Layout {
  int units = 0;
  std::vector<std::string> host;        // per unit
  std::vector<int> leader;              // per unit: the rank that measures it
  std::vector<int> slot;                // per unit: its turn on its host (0 ..)
  std::vector<std::vector<int>> ranks;  // per unit: its ranks
  int slots = 0;                        // turns in all: the most units on one host
  int my_unit = -1;                     // the unit this rank measures, -1: none
};

// Collective: every rank learns the same layout.
Layout make_layout(UnitKind per);

// A barrier whose waiting ranks sleep (1 ms between tests) instead of
// spinning: the units being measured keep the CPUs to themselves.
void quiet_barrier();

}  // namespace movebench::fleet
