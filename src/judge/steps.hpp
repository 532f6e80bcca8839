// The steps of a run's sweeps, each named with its likely cause from the
// facts (docs/results.md, "Steps"): core/change_points finds them, this
// names them and writes them into the document (`steps`) and under the
// command's tables, as apply does the peaks.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/change_points.hpp"
#include "core/output.hpp"
#include "core/report.hpp"

namespace movebench::judge {

// A size a step may be named after: "L2 cache (1.00 MiB)" at 1 MiB. Or a
// range of sizes (least_bytes > 0): a shared last-level cache's share,
// which ends anywhere from the level below's size up (see causes_of).
struct StepCause {
  std::string name;
  double bytes = 0;
  double least_bytes = 0;
};

// The sizes the document's facts give for a sweep of `benchmark`: the
// MPI library's eager limits (mpi.eager_limits: the MPI commands), the
// caches (host.caches, hwloc), the host's last level's share (a range from
// the level below's size: an L3 that the L2s of several cores, and on a VM
// other guests, share),
// each data TLB's reach (facts.cpu.tlb; the
// huge-page reach only where THP is "always" or the sweep asked for huge
// pages), the page size and THP's huge page (facts.settings.page_bytes; the
// huge page under the same condition) and the pinned-memory limit
// (facts.settings.memlock_bytes: link, stream and the MPI commands). In that
// order: on a tie the first names the step (an MPI command's eager limit
// before a cache or the page size, a cache before a TLB).
std::vector<StepCause> step_causes(const nlohmann::json& document, const std::string& benchmark,
                                   bool huge_pages = false);

// The causes that fit a step from the level up to `size_before` to the level
// from `size` on: those within a factor kCauseReach of that span, nearest
// (in log of size) first. Empty: "unexplained". A last level's share fits
// a step `to_the_end` (one that takes the figure at least half the way, in
// log, to the level the sweep ends at: memory) whose span lies between the
// level below's size and a kCauseReach-th of the last level's, where the
// level's own size is out of reach: the part of a shared cache this core
// keeps ends before its size (a guest whose neighbours hold most of a 32 MiB
// L3 falls into memory at 4 to 8 MiB). At distance 0, after the sizes there.
inline constexpr double kCauseReach = 2;
std::vector<StepCause> causes_of(double size_before, double size, const std::vector<StepCause>& causes,
                                 bool to_the_end = false);

// One sweep's steps as the document keeps them: [{"from", "to",
// "size_before", "size", "ratio", "cause", "also"}], two steps in a row the
// same way with the same cause made one. The sweep ends at the last step's
// `to` (what to_the_end is measured against).
nlohmann::json named_steps(const StepSearch& search, const std::vector<StepCause>& causes);

// Every sweep of the document (records of one benchmark, operation, figure
// and memory kind over five or more growing sizes): [{"benchmark",
// "operation", "figure", "unit", "points", "noise", "floor_ratio", "steps"},
// and "memory" (params.host_memory: link's "pageable", "pinned" ...) where
// the records name one, so that two link sweeps of one operation are told apart].
nlohmann::json sweep_steps(const nlohmann::json& document);

// sweep_steps() of the report's document, written into it as "steps".
// Returns them.
nlohmann::json attach_steps(Report& report);

// Under the tables: "steps of mem latency latency (noise floor x1.1):" (of
// link's: "steps of link copy.read bandwidth, pinned host memory (...)"),
// then a line per step ("32.00 KiB -> 48.00 KiB: 1.62 -> 4.71 ns (x2.91): L1
// cache (32.00 KiB)"), or "none above the noise floor" per sweep. `prefix` starts every line ("# " under OSU's table).
void print_step_lines(Output& out, const nlohmann::json& steps, const std::string& prefix = "");

}  // namespace movebench::judge
