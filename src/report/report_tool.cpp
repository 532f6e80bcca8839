#include "report/report_tool.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "core/errors.hpp"

extern char** environ;

namespace movebench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
constexpr const char* kTool = "movebench-report";
constexpr std::size_t kMaxCaptured = 64 * 1024;

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

// This process's environment with `extra` ("NAME=value") in place of the
// variables of those names.
std::vector<std::string> environment_with(const std::vector<std::string>& extra) {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry(*e);
    bool replaced = false;
    for (const auto& x : extra) replaced = replaced || entry.rfind(x.substr(0, x.find('=') + 1), 0) == 0;
    if (!replaced) out.push_back(entry);
  }
  out.insert(out.end(), extra.begin(), extra.end());
  return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Reads `fd` until it closes (true) or the deadline passes (false), keeping
// the first kMaxCaptured bytes.
bool read_until_closed(int fd, Clock::time_point deadline, std::string& out) {
  char buffer[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (ready <= 0) {
      if (ready < 0 && errno != EINTR) return true;  // the pipe is unusable: the wait below is bounded too
      continue;
    }
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    out.append(buffer, std::min(static_cast<std::size_t>(n), kMaxCaptured - std::min(kMaxCaptured, out.size())));
  }
}

// The child's exit status; at the deadline it is killed (-1, timed_out).
int wait_for(pid_t pid, Clock::time_point deadline, bool& timed_out) {
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (done < 0 && errno != EINTR) return -1;
    if (Clock::now() >= deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);  // SIGKILL cannot be caught: this returns
      timed_out = true;
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// Starts `tool` with stdout and stderr into the pipe's write end; -1 when it cannot.
pid_t spawn(const std::string& tool, std::vector<std::string> argv, std::vector<std::string> env, int write_end) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, write_end, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, write_end, STDERR_FILENO);
  pid_t pid = -1;
  const int failed = ::posix_spawn(&pid, tool.c_str(), &actions, nullptr, pointers(argv).data(), pointers(env).data());
  posix_spawn_file_actions_destroy(&actions);
  return failed ? -1 : pid;
}

}  // namespace

std::string find_report_tool() {
  for (const auto& tool : candidates()) {
    if (runnable(tool)) return tool.string();
  }
  return "";
}

std::string report_tool_places() {
  return std::string("looked at $MOVEBENCH_REPORT or beside movebench, on PATH and in ") + MOVEBENCH_SOURCE_DIR +
         "/.venv";
}

int exec_report_tool(int argc, char** argv) {
  const std::string tool = find_report_tool();
  if (tool.empty()) {
    std::fprintf(stderr,
                 "movebench report: error: %s is not installed (run scripts/setup.sh or pip install python/; %s)\n",
                 kTool, report_tool_places().c_str());
    return kExitUsage;
  }
  std::vector<char*> args{const_cast<char*>(kTool)};
  for (int i = 0; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  ::execv(tool.c_str(), args.data());
  std::fprintf(stderr, "movebench report: error: cannot run %s\n", tool.c_str());
  return kExitUsage;
}

ToolRun run_report_tool(const std::vector<std::string>& args, const std::vector<std::string>& environment,
                        int seconds) {
  ToolRun run;
  const std::string tool = find_report_tool();
  int fds[2];
  if (tool.empty() || ::pipe2(fds, O_CLOEXEC) != 0) return run;
  std::vector<std::string> argv{kTool};
  argv.insert(argv.end(), args.begin(), args.end());
  const pid_t pid = spawn(tool, argv, environment_with(environment), fds[1]);
  ::close(fds[1]);
  if (pid < 0) {
    ::close(fds[0]);
    return run;
  }
  const auto deadline = Clock::now() + std::chrono::seconds(seconds);
  read_until_closed(fds[0], deadline, run.output);
  ::close(fds[0]);
  run.status = wait_for(pid, deadline, run.timed_out);
  return run;
}

}  // namespace movebench
