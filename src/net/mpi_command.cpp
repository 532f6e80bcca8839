#include "net/mpi_command.hpp"

#include <fmt/format.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "core/output.hpp"
#include "core/sizes.hpp"
#include "core/vocabulary.hpp"

namespace movebench::net {
namespace {

// A local job for `movebench run` must end even if MPI misbehaves.
constexpr int kSuiteJobSeconds = 120;

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

Record record_from_json(const nlohmann::json& t) {
  Record r;
  r.benchmark = t.value("benchmark", "");
  r.operation = t.value("operation", "");
  r.bytes = t.value("bytes", std::uint64_t{0});
  r.params = t.value("params", nlohmann::json::object());
  r.samples = t.value("samples", std::vector<double>{});
  const auto figures = t.value("figures", nlohmann::json::object());
  for (const auto& [name, f] : figures.items()) r.figures.push_back(Figure::from_json(name, f));
  return r;
}

// Usage errors come from every rank at once; only rank 0's should be seen.
// Other ranks' stderr goes to /dev/null from the moment this command's
// options are parsed until they have been found good.
void quiet_other_ranks(int& saved) {
  if (launcher_rank() <= 0 || saved >= 0) return;
  std::fflush(stderr);
  saved = dup(STDERR_FILENO);
  const int null = open("/dev/null", O_WRONLY);
  if (null >= 0) {
    dup2(null, STDERR_FILENO);
    close(null);
  }
}

void restore_stderr(int& saved) {
  if (saved < 0) return;
  std::fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  saved = -1;
}

}  // namespace

void MpiCommand::add_options(CLI::App& app) {
  app.preparse_callback([this](std::size_t) { quiet_other_ranks(saved_stderr_); });
  add_all_options(app);
}

void MpiCommand::add_all_options(CLI::App& app) {
  app.add_option(vocabulary::names("", vocabulary::kTimeout, "--step-timeout"), step_timeout_,
                 vocabulary::help(vocabulary::kTimeout,
                                  "one step (one operation at one size) may take this long before the job is aborted"))
      ->capture_default_str();
  app.add_option("--fail-for-test", fail_text_, "")->group("");  // tests: hang, die, corrupt
  add_own_options(app);
}

void MpiCommand::add_check_options(CLI::App& app, bool& skip, bool& every, const std::string& every_means) {
  app.add_flag(vocabulary::names(vocabulary::kSkipValidation), skip,
               vocabulary::help(vocabulary::kSkipValidation,
                                "do not check the received data (recorded: validation_skipped names this option, "
                                "validated is false)"));
  app.add_flag(vocabulary::names("-C", vocabulary::kCheckEvery), every,
               vocabulary::help(vocabulary::kCheckEvery, every_means));
}

void MpiCommand::check_options() {
  // A UsageError leaves other ranks' stderr quiet: every rank exits 2, and
  // only rank 0's line is seen.
  check_seconds(step_timeout_, "--timeout", 86400);
  fail_ = parse_fail_mode(fail_text_);
  resolve();
  restore_stderr(saved_stderr_);
}

int MpiCommand::run(Report& report) {
  Watchdog& dog = start_mpi(name(), step_timeout_);
  report.set_mpi(mpi_facts());
  int code = kExitOk;
  try {
    code = run_mpi(report, dog);
  } catch (const UsageError&) {
    // Found once the job is known (its rank count), by every rank alike:
    // as with the options, only rank 0's line is seen; main() discards the
    // result file and exits 2.
    quiet_other_ranks(saved_stderr_);
    throw;
  }
  // The upstream tools' formats own stdout (mpiBench's ends with "END
  // mpiBench"): a check turned off is said on stderr, once, in the verdict
  // words of every command (Report::validation_verdict).
  if (is_root() && report.document().contains("validation_skipped")) {
    standard_output().problem(fmt::format("movebench {}: validation: {}", name(), report.validation_verdict()));
  }
  end_mpi_run(dog);
  return code;
}

bool MpiCommand::run_in_suite(Report& report, const std::vector<std::string>& args, std::string& why) {
  if (!under_launcher()) {
    run_local_job(report, args, why);
    return why.empty();
  }
  const bool ran = Command::run_in_suite(report, args, why);
  restore_stderr(saved_stderr_);  // a usage error leaves other ranks quiet; the suite goes on
  return ran;
}

void MpiCommand::run_local_job(Report& report, const std::vector<std::string>& args, std::string& why) {
  // The launcher of the MPI this binary was built with, found by CMake:
  // Open MPI's mpirun cannot start an MPICH binary, nor hydra an Open MPI one.
  const std::string launcher = MOVEBENCH_MPIEXEC;
  if (launcher.empty() || access(launcher.c_str(), X_OK) != 0) {
    why = fmt::format("no MPI launcher ('{}', the one of the MPI this movebench was built with)", launcher);
    return;
  }
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);  // this binary, not the shell's
  if (ec) {
    why = "cannot find this binary to start it under mpirun";
    return;
  }
  const auto dir = std::filesystem::temp_directory_path();
  const std::string json = (dir / fmt::format("movebench-{}-{}.json", name(), getpid())).string();
  // Open MPI refuses more ranks than cores and root unless told; MPICH's
  // hydra does both without a flag and refuses Open MPI's flags.
  std::string flags;
  if (mpi_family() == MpiFamily::kOpenMpi)
    flags = geteuid() == 0 ? " --oversubscribe --allow-run-as-root" : " --oversubscribe";
  std::string cmd = fmt::format("timeout -k 5 {} {} -np 2{} {} {}", kSuiteJobSeconds, shell_quote(launcher), flags,
                                shell_quote(self.string()), name());
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " --json " + shell_quote(json) + " >/dev/null";
  const int status = std::system(cmd.c_str());
  std::ifstream in(json);
  nlohmann::json doc;
  if (in) doc = nlohmann::json::parse(in, nullptr, false);
  std::filesystem::remove(json, ec);
  if (!doc.is_object()) {
    why = fmt::format("the local 2-rank {} job failed (status {})", launcher, status);
    return;
  }
  import_document(doc, name(), report);
  if (status != 0) report.add_error(name(), fmt::format("local {} job ended with status {}", launcher, status));
}

void import_document(const nlohmann::json& doc, const std::string& benchmark, Report& report) {
  if (doc.contains("settings") && doc["settings"].contains(benchmark)) {
    report.settings(benchmark) = doc["settings"][benchmark];
  }
  if (doc.contains("mpi") && doc["mpi"].is_object()) report.set_mpi(doc["mpi"]);
  const auto timings = doc.value("timings", nlohmann::json::array());
  const auto results = doc.value("results", nlohmann::json::object());
  const auto errors = doc.value("errors", nlohmann::json::object());
  for (const auto& t : timings) report.add(record_from_json(t), t.value("distribution", nlohmann::json()));
  for (const auto& [key, value] : results.items()) report.set_result(Figure::from_json(key, value));
  for (const auto& [key, value] : errors.items()) {
    report.add_error(benchmark + "." + key, value.get<std::string>());
  }
  // A command's own sections of the document (fleet's: docs/fleet.md).
  for (const char* key : {"fleet", "outliers", "failed_units", "baseline", "regressions"}) {
    if (doc.contains(key)) report.extra(key) = doc[key];
  }
  if (doc.contains("validation_skipped")) {
    report.validation_skipped(doc["validation_skipped"].get<std::string>());
  } else {
    report.validation(doc.value("validated", false), benchmark + ": validation failed in the local job");
  }
}

}  // namespace movebench::net
