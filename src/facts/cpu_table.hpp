// The table of CPU models kept as data (data/cpu_memory_channels.csv, with a
// source per row), embedded in the binary at build time so an installed
// movebench needs no data path.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace movebench::facts {

struct CpuMemoryRow {
  std::string pattern;  // ECMAScript regex, searched case-insensitively
  std::string family;
  int channels_per_socket = 0;
  std::string memory_type;
  std::optional<int> max_mts;  // at one DIMM per channel; none where the row gives none
  std::string source;
};

// The embedded table's text (written by CMake from the CSV).
std::string_view cpu_memory_channels_csv();

// The rows of a table's text. Throws std::runtime_error naming the line of
// a malformed row (the build's own table is checked by the unit tests).
std::vector<CpuMemoryRow> parse_cpu_table(std::string_view csv);

// The first row matching `model`, none when no row does.
std::optional<CpuMemoryRow> find_cpu_row(const std::vector<CpuMemoryRow>& rows, std::string_view model);

// The embedded table's rows, parsed once.
const std::vector<CpuMemoryRow>& cpu_table();

}  // namespace movebench::facts
