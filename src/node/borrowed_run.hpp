// A routine of another command (link's bandwidth and latency, mem's table
// on a device) run for `movebench node` into a document of its own, then its
// records moved into the node's, named as the node's (benchmark node, the
// part's operation, params device and numa_node). The routine's own result keys ("link.copy.read.pinned") would
// collide from one device or NUMA node to the next, so they stay in the
// borrowed document, where the node part reads them; its tables go to a
// captured output (the node prints its matrices instead).
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/output.hpp"
#include "core/report.hpp"

namespace movebench::node {

class BorrowedRun {
 public:
  explicit BorrowedRun(const std::string& benchmark);
  Report& report() { return report_; }
  const Report& report() const { return report_; }
  Output& out() { return out_; }
  // The routine's headline figure under its result key; nullopt when it
  // set none.
  std::optional<Figure> result(const std::string& key) const;
  // Every record moved into `into`, each first given to `adapt` (the node
  // part's benchmark, operation and params), and the routine's checks as
  // one: each failure as a failed validation there ("<what>: the failure"),
  // else one pass. True when nothing failed.
  bool move_into(Report& into, const std::function<void(Record&)>& adapt, const std::string& what) const;

 private:
  Report report_;
  CapturedOutput out_;
};

}  // namespace movebench::node
