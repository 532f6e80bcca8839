#include "facts/machine_facts.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "core/errors.hpp"

namespace movebench::facts {
namespace {

constexpr std::size_t kMaxFactsBytes = 16 << 20;
constexpr const char* kNotCollected =
    "not read in this build: facts::collect() is not linked yet (branch verdicts)";

// THP as the document's host facts read it ("always [madvise] never"): the
// bracketed word is the mode; "never" lowers the bandwidth of large arrays.
nlohmann::json thp_setting(const nlohmann::json& host) {
  const std::string text = host.value("transparent_hugepages", "");
  const auto open = text.find('['), close = text.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) {
    return {{"value", "unknown"}, {"source", "/sys/kernel/mm/transparent_hugepage/enabled"}};
  }
  const std::string mode = text.substr(open + 1, close - open - 1);
  nlohmann::json s = {{"value", mode}, {"source", "/sys/kernel/mm/transparent_hugepage/enabled"}};
  if (mode == "never") s["warning"] = "THP never (transparent huge pages off: more TLB misses on large arrays)";
  return s;
}

}  // namespace

nlohmann::json machine_facts(const nlohmann::json& doc) {
  // At merge: `return collect(Sources{});` (facts.hpp), and drop the rest.
  const auto host = doc.value("host", nlohmann::json::object());
  return {
      {"cpu", {{"model", host.value("cpu_model", "")}, {"sockets", host.value("packages", 0)},
               {"cores", host.value("cores", 0)}, {"numa_nodes", host.value("numa_nodes", 0)},
               {"source", "the result document's host facts (hwloc)"}}},
      {"dram", {{"status", "unknown"}, {"why", fmt::format("DIMMs {}", kNotCollected)}}},
      {"pcie", nlohmann::json::array()},
      {"nics", nlohmann::json::array()},
      {"memory_tiers", {{"status", "unknown"}, {"why", kNotCollected}}},
      {"settings", {{"thp", thp_setting(host)}}},
      {"warnings", nlohmann::json::array()},
  };
}

nlohmann::json facts_from_file(const std::string& path) {
  const std::string what = fmt::format("--facts '{}'", path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(fmt::format("{}: cannot be read", what));
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().size() > kMaxFactsBytes) throw UsageError(fmt::format("{}: larger than 16 MiB", what));
  auto doc = nlohmann::json::parse(text.str(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) throw UsageError(fmt::format("{}: not a JSON object", what));
  if (doc.contains("facts")) doc = doc["facts"];
  if (!doc.is_object()) throw UsageError(fmt::format("{}: its 'facts' is not an object", what));
  return doc;
}

}  // namespace movebench::facts
