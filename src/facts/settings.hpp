// The settings that change the figures (setting_facts), read through the
// Sources' roots so the tests can give a made-up tree. Internal helpers.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/host_info.hpp"  // first_line_of
#include "facts/facts.hpp"

namespace movebench::facts {

// {"value", "source"} and, when `warning` is not empty, "warning".
nlohmann::json setting(nlohmann::json value, const std::string& source, const std::string& warning = "");
// {"value": "unknown", "why", "source"}.
nlohmann::json unknown_setting(const std::string& why, const std::string& source);

// settings_limits.cpp: the process's limits and where it runs.
nlohmann::json memlock_setting();
nlohmann::json virtualization_setting(const Sources& sources);
nlohmann::json container_setting(const Sources& sources);
nlohmann::json cgroup_cpu_setting(const Sources& sources);
nlohmann::json cgroup_memory_setting(const Sources& sources);

}  // namespace movebench::facts
