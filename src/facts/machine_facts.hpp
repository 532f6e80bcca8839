// Where `movebench run` and a command run alone get the facts of the
// machine they measured: the document's own `facts` (main.cpp records them
// before every command), or a saved facts file (`run --facts FILE`).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace movebench::facts {

// The facts of this machine in collect()'s shape ({"cpu", "dram", "pcie",
// "nics", "memory_tiers", "settings", "warnings"}).
nlohmann::json machine_facts(const nlohmann::json& doc);

// Facts saved by `movebench facts --json` (or written by hand, as the tests
// do): the document's `facts` key, or the whole file when it has none.
// A file that cannot be read or is not a JSON object is a UsageError.
nlohmann::json facts_from_file(const std::string& path);

}  // namespace movebench::facts
