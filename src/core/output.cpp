#include "core/output.hpp"

#include <cstdio>
#include <string>

namespace movebench {
namespace {

class StandardOutput final : public Output {
 public:
  void text(std::string_view s) override { std::fwrite(s.data(), 1, s.size(), stdout); }
  void flush() override { std::fflush(stdout); }
  // The line and its newline in one write(2), as one fprintf made it:
  // under a launcher every rank's stderr meets in one stream, and a line
  // written in two pieces could be split by another rank's.
  void problem(std::string_view line) override {
    std::string whole(line);
    whole += '\n';
    std::fwrite(whole.data(), 1, whole.size(), stderr);
  }
};

}  // namespace

Output& standard_output() {
  static StandardOutput out;
  return out;
}

}  // namespace movebench
