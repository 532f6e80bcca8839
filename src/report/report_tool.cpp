#include "report/report_tool.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/errors.hpp"

namespace movebench {
namespace {

namespace fs = std::filesystem;
constexpr const char* kTool = "movebench-report";

bool runnable(const fs::path& p) { return ::access(p.c_str(), X_OK) == 0 && fs::is_regular_file(p); }

// Candidates in order: $MOVEBENCH_REPORT alone when set (a chosen venv);
// else beside the binary (an install puts both in bin/), every PATH entry,
// then the venv that scripts/setup.sh makes in the source tree.
std::vector<fs::path> candidates() {
  if (const char* chosen = std::getenv("MOVEBENCH_REPORT"); chosen && *chosen) return {fs::path(chosen)};
  std::vector<fs::path> out;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) out.push_back(self.parent_path() / kTool);
  if (const char* path = std::getenv("PATH")) {
    std::string list(path);
    std::size_t start = 0;
    while (start <= list.size()) {
      const std::size_t end = std::min(list.find(':', start), list.size());
      if (end > start) out.push_back(fs::path(list.substr(start, end - start)) / kTool);
      start = end + 1;
    }
  }
  out.push_back(fs::path(MOVEBENCH_SOURCE_DIR) / ".venv" / "bin" / kTool);
  return out;
}

}  // namespace

int exec_report_tool(int argc, char** argv) {
  for (const auto& tool : candidates()) {
    if (!runnable(tool)) continue;
    std::vector<char*> args{const_cast<char*>(kTool)};
    for (int i = 0; i < argc; ++i) args.push_back(argv[i]);
    args.push_back(nullptr);
    ::execv(tool.c_str(), args.data());
    std::fprintf(stderr, "movebench report: error: cannot run %s\n", tool.c_str());
    return kExitUsage;
  }
  std::fprintf(stderr,
               "movebench report: error: %s is not installed (run scripts/setup.sh or pip install python/; "
               "looked at $MOVEBENCH_REPORT or beside movebench, on PATH and in %s/.venv)\n",
               kTool, MOVEBENCH_SOURCE_DIR);
  return kExitUsage;
}

}  // namespace movebench
