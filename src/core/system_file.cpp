#include "core/system_file.hpp"

#include <fstream>

namespace movebench {

std::optional<std::string> first_line_of(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  if (line.size() > 4096) line.resize(4096);  // sysfs lines are short; a made-up tree is not trusted
  return line;
}

std::string first_line_or_empty(const std::string& path) { return first_line_of(path).value_or(""); }

}  // namespace movebench
