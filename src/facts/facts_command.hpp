#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/command.hpp"
#include "core/output.hpp"

namespace movebench::facts {

// `movebench facts`: what movebench knows of the machine (docs/facts.md).
std::unique_ptr<Command> make_facts_command();

// The readable table `movebench facts` prints of collect()'s object.
std::string facts_table(const nlohmann::json& facts);

// The settings' warnings, one "<where>: warning: <text>" line each on
// stderr (out's problems): once per run, by `facts` and `run`.
void print_warnings(Output& out, const nlohmann::json& facts, const std::string& where);

}  // namespace movebench::facts
