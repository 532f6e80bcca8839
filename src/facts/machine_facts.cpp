#include "facts/machine_facts.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "facts/facts.hpp"
#include "facts/input_file.hpp"

namespace movebench::facts {

nlohmann::json machine_facts(const nlohmann::json& doc) {
  // main.cpp records them in every document before the command runs; read
  // again only for a document without them (one made by a test).
  if (doc.contains("facts") && doc["facts"].is_object() && doc["facts"].contains("cpu")) return doc["facts"];
  return collect(Sources{});
}

nlohmann::json facts_from_file(const std::string& path) {
  const std::string what = fmt::format("--facts '{}'", path);
  const std::string text = read_text_input(path, "--facts");
  auto doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) throw UsageError(fmt::format("{}: not a JSON object", what));
  if (doc.contains("facts")) doc = doc["facts"];
  if (!doc.is_object()) throw UsageError(fmt::format("{}: its 'facts' is not an object", what));
  return doc;
}

}  // namespace movebench::facts
