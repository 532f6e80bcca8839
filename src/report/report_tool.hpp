// `movebench report ...`: hands over to the Python tool movebench-report
// (python/), which reads result files; nothing is measured here.
#pragma once

namespace movebench {

// Replaces this process with movebench-report and the given arguments. Runs
// $MOVEBENCH_REPORT when set; else looks next to this binary, then on PATH,
// then in the source tree's .venv. Returns only when it cannot: one line on
// stderr and kExitUsage (2).
int exec_report_tool(int argc, char** argv);

}  // namespace movebench
