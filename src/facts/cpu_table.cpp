#include "facts/cpu_table.hpp"

#include <fmt/format.h>

#include <regex>
#include <stdexcept>

namespace movebench::facts {
namespace {

std::vector<std::string> split_commas(std::string_view line) {
  std::vector<std::string> cells;
  while (true) {
    const auto comma = line.find(',');
    cells.emplace_back(line.substr(0, comma));
    if (comma == std::string_view::npos) return cells;
    line.remove_prefix(comma + 1);
  }
}

CpuMemoryRow row_of(const std::vector<std::string>& cells, int line_number) {
  if (cells.size() != 6) {
    throw std::runtime_error(fmt::format("cpu table line {}: {} cells, not 6", line_number, cells.size()));
  }
  CpuMemoryRow row{cells[0], cells[1], 0, cells[3], std::nullopt, cells[5]};
  try {
    row.channels_per_socket = std::stoi(cells[2]);
    if (!cells[4].empty()) row.max_mts = std::stoi(cells[4]);
  } catch (const std::exception&) {
    throw std::runtime_error(fmt::format("cpu table line {}: channels or MT/s not a number", line_number));
  }
  if (row.channels_per_socket <= 0 || row.source.empty()) {
    throw std::runtime_error(fmt::format("cpu table line {}: no channels or no source", line_number));
  }
  return row;
}

}  // namespace

std::vector<CpuMemoryRow> parse_cpu_table(std::string_view csv) {
  std::vector<CpuMemoryRow> rows;
  int line_number = 0;
  bool header_seen = false;
  while (!csv.empty()) {
    const auto nl = csv.find('\n');
    std::string_view line = csv.substr(0, nl);
    csv = nl == std::string_view::npos ? std::string_view{} : csv.substr(nl + 1);
    ++line_number;
    if (line.empty() || line.starts_with('#')) continue;
    if (!header_seen) {  // the column names
      header_seen = true;
      continue;
    }
    rows.push_back(row_of(split_commas(line), line_number));
  }
  return rows;
}

std::optional<CpuMemoryRow> find_cpu_row(const std::vector<CpuMemoryRow>& rows, std::string_view model) {
  const std::string text(model);
  for (const auto& row : rows) {
    if (std::regex_search(text, std::regex(row.pattern, std::regex::icase | std::regex::ECMAScript))) return row;
  }
  return std::nullopt;
}

const std::vector<CpuMemoryRow>& cpu_table() {
  static const std::vector<CpuMemoryRow> rows = parse_cpu_table(cpu_memory_channels_csv());
  return rows;
}

}  // namespace movebench::facts
