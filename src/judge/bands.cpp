#include "judge/bands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/errors.hpp"
#include "facts/input_file.hpp"

namespace movebench::judge {
namespace {

// A --expect file is a few rows; anything larger is not one.
constexpr std::size_t kMaxBandsBytes = 1 << 20;
constexpr double kMaxNormalFrom = 1000;

bool known_kind(const std::string& kind) {
  return std::find(std::begin(kBandKinds), std::end(kBandKinds), kind) != std::end(kBandKinds);
}

void check_row(const nlohmann::json& row, std::size_t i, const std::string& what) {
  const auto fail = [&](const std::string& why) { throw UsageError(fmt::format("{}: band {}: {}", what, i + 1, why)); };
  if (!row.is_object()) fail("not an object");
  if (!row.contains("kind") || !row["kind"].is_string() || !known_kind(row["kind"].get<std::string>())) {
    fail("'kind' must be one of dram, device_memory, pcie, c2c, network");
  }
  if (!row.contains("normal_from") || !row["normal_from"].is_number()) fail("'normal_from' must be a number");
  const double from = row["normal_from"].get<double>();
  if (!(from > 0 && from <= kMaxNormalFrom)) fail("'normal_from' must be above 0 and at most 1000 (0.75 is 75%)");
  if (!row.contains("source") || !row["source"].is_string() || row["source"].get<std::string>().empty()) {
    fail("'source' must say where the fraction comes from");
  }
  if (row.contains("cpu_model_contains") && !row["cpu_model_contains"].is_string()) {
    fail("'cpu_model_contains' must be a string");
  }
  if (row.contains("cpu_model_matches")) {
    if (!row["cpu_model_matches"].is_string()) fail("'cpu_model_matches' must be a string");
    try {
      std::regex(row["cpu_model_matches"].get<std::string>());
    } catch (const std::regex_error&) {
      fail("'cpu_model_matches' is not a regular expression (ECMAScript)");
    }
  }
}

// A row's CPU filters: the model names the text (cpu_model_contains), and
// a regular expression finds a match in it (cpu_model_matches: a CPU
// family's model numbers, e.g. "AMD EPYC 9[0-9]{2}4" for Genoa).
bool cpu_matches(const nlohmann::json& row, const std::string& cpu_model) {
  const std::string model_text = row.value("cpu_model_contains", "");
  if (!model_text.empty() && cpu_model.find(model_text) == std::string::npos) return false;
  const std::string pattern = row.value("cpu_model_matches", "");
  return pattern.empty() || std::regex_search(cpu_model, std::regex(pattern));
}

}  // namespace

nlohmann::json parse_bands(std::string_view text, const std::string& what) {
  const auto doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded()) throw UsageError(fmt::format("{}: not JSON", what));
  if (!doc.is_object() || !doc.contains("bands") || !doc["bands"].is_array() || doc["bands"].empty()) {
    throw UsageError(fmt::format("{}: wants {{\"bands\": [rows]}} with at least one row", what));
  }
  const auto& rows = doc["bands"];
  for (std::size_t i = 0; i < rows.size(); ++i) check_row(rows[i], i, what);
  return rows;
}

nlohmann::json load_bands(const std::string& expect_file) {
  nlohmann::json rows = parse_bands(builtin_bands_text(), "built-in bands");
  if (expect_file.empty()) return rows;
  const std::string what = fmt::format("--expect '{}'", expect_file);
  // The one reader of saved inputs: a FIFO, a folder or a binary file is one line.
  const std::string text = facts::read_text_input(expect_file, "--expect");
  nlohmann::json site = parse_bands(text, what);
  for (auto& row : site) row["site"] = true;  // says in the verdict that the site set it
  site.insert(site.end(), rows.begin(), rows.end());
  return site;
}

nlohmann::json band_for(const nlohmann::json& bands, std::string_view kind, const std::string& cpu_model) {
  for (const auto& row : bands) {
    if (row.value("kind", "") == kind && cpu_matches(row, cpu_model)) return row;
  }
  return nullptr;
}

}  // namespace movebench::judge
