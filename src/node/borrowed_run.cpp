#include "node/borrowed_run.hpp"

#include <utility>

namespace movebench::node {

BorrowedRun::BorrowedRun(const std::string& benchmark) : report_(benchmark, OutputOptions::in_memory(), {}) {}

std::optional<Figure> BorrowedRun::result(const std::string& key) const {
  const auto& results = report_.document()["results"];
  if (!results.contains(key)) return std::nullopt;
  return Figure::from_json(key, results[key]);
}

bool BorrowedRun::move_into(Report& into, const std::function<void(Record&)>& adapt, const std::string& what) const {
  const auto& doc = report_.document();
  for (const auto& t : doc["timings"]) {
    Record r;
    r.benchmark = t["benchmark"].get<std::string>();
    r.operation = t["operation"].get<std::string>();
    r.bytes = t["bytes"].get<std::uint64_t>();
    r.params = t["params"];
    r.samples = t["samples"].get<std::vector<double>>();
    for (const auto& [name, figure] : t["figures"].items()) r.figures.push_back(Figure::from_json(name, figure));
    adapt(r);
    into.add(std::move(r));
  }
  for (const auto& [key, message] : doc["errors"].items()) {
    into.validation(false, what + ": " + message.get<std::string>());
  }
  if (!report_.failed()) into.validation(true, what);
  return !report_.failed();
}

}  // namespace movebench::node
