// `movebench report ...`: hands over to the Python tool movebench-report
// (python/), which reads result files; nothing is measured here. `--store`
// (result_store.hpp) runs it as a child to store a document.
#pragma once
#include <string>
#include <vector>

namespace movebench {

// Replaces this process with movebench-report and the given arguments. Runs
// $MOVEBENCH_REPORT when set; else looks next to this binary, then on PATH,
// then in the source tree's .venv. Returns only when it cannot: one line on
// stderr and kExitUsage (2).
int exec_report_tool(int argc, char** argv);

// The movebench-report exec_report_tool would run, or "" when none is found.
std::string find_report_tool();
// Where find_report_tool looks, in words, for a message that none was found.
std::string report_tool_places();

// What a run of movebench-report as a child gave.
struct ToolRun {
  int status = -1;         // its exit status; -1 when it did not start, was killed or timed out
  bool timed_out = false;  // it ran past the bound and was killed
  std::string output;      // its stdout and stderr together (the first 64 KiB)
};

// Runs movebench-report (find_report_tool) with `args`, this process's
// environment plus `environment` ("NAME=value", replacing a variable of that
// name), stdin from /dev/null; waits at most `seconds`, then kills it. A child
// of posix_spawn, not fork: safe in an MPI process.
ToolRun run_report_tool(const std::vector<std::string>& args, const std::vector<std::string>& environment, int seconds);

}  // namespace movebench
