// Exit codes and the error that means "the user asked for something invalid".
#pragma once
#include <stdexcept>
#include <string>

namespace movebench {

// The exit codes every command uses (docs/architecture.md).
enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,   // validation failed or a run error
  kExitUsage = 2,     // bad options or input: nothing was measured
  kExitSkipped = 77,  // what CTest counts as a skip: an MPI command in a build without MPI
};

// Thrown while options are checked, before anything is allocated or timed.
// main() turns it into one line on stderr and exit code 2.
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace movebench
