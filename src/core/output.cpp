#include "core/output.hpp"

#include <cstdio>

namespace movebench {
namespace {

class StandardOutput final : public Output {
 public:
  void text(std::string_view s) override { std::fwrite(s.data(), 1, s.size(), stdout); }
  void problem(std::string_view line) override {
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fputc('\n', stderr);
  }
};

}  // namespace

Output& standard_output() {
  static StandardOutput out;
  return out;
}

}  // namespace movebench
