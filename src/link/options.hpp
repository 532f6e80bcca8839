// Options shared by link and stream: which backend and device, and the
// bound on every wait.
#pragma once
#include <CLI/CLI.hpp>

#include <nlohmann/json.hpp>

#include "core/report.hpp"
#include "link/device.hpp"

namespace movebench::link {

struct CommonOptions {
  DeviceChoice choice;
  double timeout_s = 30;         // bound on any wait for a device or worker
  bool corrupt_for_test = false;  // tests only: damage one word before a check
};

void add_common_options(CLI::App& app, CommonOptions& o);
// Throws UsageError before anything is opened.
void check_common_options(const CommonOptions& o);
// Opens the device and records what explains its figures: name, backend,
// versions, PCIe link, NUMA node, CPUs. Prints the facts line and warnings.
std::unique_ptr<Device> open_and_describe(const CommonOptions& o, Report& report, const std::string& benchmark);

// "link (cuda):": a suite summary's start, naming the device's backend.
std::string suite_label(const Report& report, const std::string& benchmark);

}  // namespace movebench::link
