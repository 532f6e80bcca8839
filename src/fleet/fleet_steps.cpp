#include "fleet/fleet_steps.hpp"

#include <mpi.h>

#include "fleet/fleet_output.hpp"
#include "net/mpi_env.hpp"

namespace movebench::fleet {

Steps::Steps(const Layout& layout, UnitKind per, Report& report)
    : layout_(layout), per_(per), report_(report), out_(static_cast<std::size_t>(layout.units), false) {}

void Steps::begin(const std::string& step) {
  if (net::world_rank() != 0) return;
  auto& fleet = report_.extra("fleet");
  fleet["per"] = unit_kind_name(per_);
  fleet["in_progress"] = step;
  report_.extra("failed_units") = failures_json(layout_, failures_);
  report_.save();
}

void Steps::keep(const std::string& key, nlohmann::json value) {
  if (net::world_rank() == 0) report_.extra("fleet")[key] = std::move(value);
}

void Steps::fail(const std::string& step, const std::string& reason) {
  if (failed_) return;
  failed_ = true;
  step_ = step;
  reason_ = reason;
}

void Steps::attempt(const std::string& step, const std::function<void()>& work) {
  if (failed_) return;
  try {
    work();
  } catch (const std::exception& e) {
    fail(step, e.what());
  }
}

bool Steps::settle() {
  const int mine = failed_ ? 1 : 0;
  std::vector<int> flags(static_cast<std::size_t>(net::world_size()));
  MPI_Allgather(&mine, 1, MPI_INT, flags.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (int u = 0; u < layout_.units; ++u) {
    if (flags[static_cast<std::size_t>(layout_.leader[static_cast<std::size_t>(u)])])
      out_[static_cast<std::size_t>(u)] = true;
  }
  const auto texts = gather_texts(failed_ ? status_text(step_, reason_) : std::string());
  if (net::world_rank() == 0 && !note_failures(texts, layout_.leader, failures_).empty()) {
    report_.add_error("failed_units", failures_line(layout_, failures_));
  }
  // The checks of the units still in passed (a failed one is a failure above).
  report_.validation(true, "fleet");
  stopped_ = stopped_ || net::agree(false).any_interrupted;
  return !stopped_;
}

std::vector<std::string> gather_texts(const std::string& mine) {
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
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    out.push_back(all.substr(static_cast<std::size_t>(offsets[i]), static_cast<std::size_t>(lengths[i])));
  }
  return out;
}

nlohmann::json failures_json(const Layout& layout, const std::vector<UnitFailure>& failures) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : failures) {
    const auto u = static_cast<std::size_t>(f.unit);
    out.push_back({{"unit", f.unit},
                   {"host", layout.host[u]},
                   {"rank", layout.leader[u]},
                   {"step", f.step},
                   {"reason", f.reason}});
  }
  return out;
}

}  // namespace movebench::fleet
