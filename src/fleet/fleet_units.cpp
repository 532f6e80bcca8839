#include "fleet/fleet_units.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "net/mpi_env.hpp"

namespace movebench::fleet {
namespace {

std::vector<std::string> all_host_names() {
  char mine[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(mine, &length);
  const int n = net::world_size();
  std::vector<char> all(static_cast<std::size_t>(MPI_MAX_PROCESSOR_NAME) * static_cast<std::size_t>(n));
  MPI_Allgather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD);
  std::vector<std::string> names;
  for (int r = 0; r < n; ++r) names.emplace_back(&all[static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME]);
  return names;
}

}  // namespace

Layout make_layout(UnitKind per) {
  const auto names = all_host_names();
  Layout l;
  std::vector<std::string> hosts;  // in order of their first rank
  std::vector<int> per_host;       // units so far on each host
  for (int r = 0; r < static_cast<int>(names.size()); ++r) {
    const auto& name = names[static_cast<std::size_t>(r)];
    const auto it = std::find(hosts.begin(), hosts.end(), name);
    const auto h = static_cast<std::size_t>(it - hosts.begin());
    const bool first_on_host = it == hosts.end();
    if (first_on_host) {
      hosts.push_back(name);
      per_host.push_back(0);
    }
    const bool new_unit = per == UnitKind::kRank || first_on_host;
    if (new_unit) {
      l.host.push_back(name);
      l.leader.push_back(r);
      l.slot.push_back(per_host[h]++);
      l.ranks.push_back({r});
    } else {
      // --per host: the host's unit is the one its first rank leads.
      const auto u = static_cast<std::size_t>(std::find(l.host.begin(), l.host.end(), name) - l.host.begin());
      l.ranks[u].push_back(r);
    }
    if (new_unit && r == net::world_rank()) l.my_unit = static_cast<int>(l.host.size()) - 1;
  }
  l.units = static_cast<int>(l.host.size());
  l.slots = per_host.empty() ? 0 : *std::max_element(per_host.begin(), per_host.end());
  return l;
}

void quiet_barrier() {
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  int done = 0;
  MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  while (!done) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
}

}  // namespace movebench::fleet
