// THE SEAM to the facts layer (issue 18). `movebench run` asks this one
// function for the facts of the machine it measured. On the verdicts branch
// facts::collect() (facts.hpp, written on the facts-dram and facts-pcie
// branches) is not there yet, so machine_facts() builds what it can from the
// result document's own `host` facts and says "unknown" for the rest. At
// merge, its body becomes `return collect(Sources{});` (see the comment in
// machine_facts.cpp); nothing else changes.
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
