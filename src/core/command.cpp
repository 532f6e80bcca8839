#include "core/command.hpp"

#include "core/errors.hpp"

namespace movebench {

bool Command::run_in_suite(Report& report, const std::vector<std::string>& args, std::string& why) {
  try {
    CLI::App app{summary(), name()};
    add_options(app);
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
    app.parse(reversed);
    check_options();
    run(report);
    return true;
  } catch (const UsageError& e) {
    // This machine or build cannot run it: a skip, not an error.
    report.progress().clear();
    why = e.what();
  } catch (const std::exception& e) {
    // Recorded, and the suite goes on with the next benchmark.
    report.progress().clear();
    report.add_error(name(), e.what());
    why = e.what();
  }
  return false;
}

}  // namespace movebench
