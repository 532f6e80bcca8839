// Options that only some modes of a command use (mem's chase options, link's
// bandwidth sweep): each is registered once with the modes that use it, and
// one given to another mode is a usage error, not silently ignored (a user
// who passes --stride-bytes to `mem bandwidth` believes it did something).
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace movebench {

class ModeOptions {
 public:
  // `command` starts every mode's name in messages: "mem" gives "mem latency".
  explicit ModeOptions(std::string command) : command_(std::move(command)) {}

  // `option` is used by `modes` only. Returns it, for CLI11's chaining.
  CLI::Option* only(std::vector<std::string> modes, CLI::Option* option);

  // Throws UsageError naming the first registered option given on the
  // command line (count() > 0) that `mode` does not use:
  // "--stride-bytes applies to mem latency and loaded-latency, not to mem bandwidth".
  void check(std::string_view mode) const;

 private:
  struct Entry {
    CLI::Option* option;
    std::vector<std::string> modes;
  };
  std::string command_;
  std::vector<Entry> entries_;
};

}  // namespace movebench
