#include "report/result_store.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/output.hpp"
#include "core/vocabulary.hpp"
#include "report/report_tool.hpp"

namespace movebench {
namespace {

namespace fs = std::filesystem;

// $XDG_DATA_HOME/movebench/pending, or ~/.local/share/movebench/pending:
// beside the report tool's default store (docs/history.md).
fs::path pending_folder() {
  if (const char* data = std::getenv("XDG_DATA_HOME"); data && *data) return fs::path(data) / "movebench" / "pending";
  if (const char* home = std::getenv("HOME"); home && *home) {
    return fs::path(home) / ".local" / "share" / "movebench" / "pending";
  }
  throw UsageError(
      "--store without --json: neither $XDG_DATA_HOME nor $HOME says where to keep the result "
      "until it is stored (give --json FILE)");
}

std::string utc_stamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &tm);
  return text;
}

// The reason in what `store add` printed: its last line, without the tool's
// "movebench-report: error: " (movebench's line names itself), on one line.
std::string reason_of(const ToolRun& run) {
  if (run.timed_out) return fmt::format("movebench-report store add did not finish in {} s", kStoreSeconds);
  std::string text = run.output;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  text = text.substr(text.find_last_of('\n') == std::string::npos ? 0 : text.find_last_of('\n') + 1);
  for (const std::string prefix : {"movebench-report: error: ", "movebench-report: "}) {
    if (text.rfind(prefix, 0) == 0) text = text.substr(prefix.size());
  }
  for (auto& c : text) c = static_cast<unsigned char>(c) < ' ' ? ' ' : c;  // control characters; UTF-8 kept
  if (!text.empty()) return text;
  return run.status < 0 ? std::string("movebench-report could not be started or was killed")
                        : fmt::format("movebench-report store add exited with status {}", run.status);
}

std::string without_password(std::string url) {
  const auto scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  const auto start = scheme + 3;
  const auto end = url.find_first_of("/?#", start);
  const auto at = url.rfind('@', end);
  if (at == std::string::npos || at < start) return url;
  const auto colon = url.find(':', start);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon + 1) + "***" + url.substr(at);
}

}  // namespace

bool prepare_store(OutputOptions& output, const std::string& command) {
  if (output.store.empty() || !output.write_file) return false;
  if (find_report_tool().empty()) {
    throw UsageError(
        fmt::format("--store needs movebench-report, which is not installed (run scripts/setup.sh or "
                    "pip install python/; {})",
                    report_tool_places()));
  }
  if (!output.json_path.empty()) return false;
  const fs::path folder = pending_folder();
  check_output_folder(folder.string(), "folder for results waiting to be stored");
  output.json_path = (folder / fmt::format("{}-{}-{}.json", command, utc_stamp(), ::getpid())).string();
  return true;
}

int store_result(const OutputOptions& output, bool own_file, const Report& report) {
  if (output.store.empty() || !output.write_file) return kExitOk;
  const std::string where = "movebench " + report.document()["benchmark"].get<std::string>();
  Output& out = standard_output();
  if (report.write_failed()) {
    out.problem(fmt::format("{}: error: not stored: the result file could not be written", where));
    return kExitFailure;
  }
  if (interrupt_signal() != 0) {
    out.problem(
        fmt::format("{}: interrupted, so not stored (what was measured is kept in {})", where, output.json_path));
    return kExitOk;  // the exit code is already the signal's
  }
  const ToolRun run =
      run_report_tool({"store", "add", output.json_path}, {"MOVEBENCH_STORE=" + output.store}, kStoreSeconds);
  if (run.status == 0) {
    std::error_code ec;
    if (own_file) fs::remove(output.json_path, ec);  // the store keeps the whole document
    return kExitOk;
  }
  out.problem(fmt::format("{}: error: cannot store the result: {} (the result is kept in {})", where, reason_of(run),
                          output.json_path));
  return kExitFailure;
}

std::vector<std::string> without_store_password(std::vector<std::string> command_line) {
  const std::string name(vocabulary::kStore.long_name);
  for (std::size_t i = 0; i < command_line.size(); ++i) {
    std::string& arg = command_line[i];
    if (arg == name && i + 1 < command_line.size()) {
      command_line[i + 1] = without_password(command_line[i + 1]);
    } else if (arg.rfind(name + "=", 0) == 0) {
      arg = name + "=" + without_password(arg.substr(name.size() + 1));
    }
  }
  return command_line;
}

}  // namespace movebench
