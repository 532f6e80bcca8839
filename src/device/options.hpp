// Options of the commands that run on a device (link, stream, mem
// --backend): which backend and device, and for link and stream the bound
// on every wait; opening the device and recording what explains its figures.
#pragma once
#include <CLI/CLI.hpp>

#include <nlohmann/json.hpp>

#include "core/output.hpp"
#include "core/report.hpp"
#include "device/device.hpp"

namespace movebench::device {

struct CommonOptions {
  DeviceChoice choice;
  double timeout_s = 30;          // bound on any wait for a device or worker
  bool corrupt_for_test = false;  // tests only: damage one word before a check
};

void add_common_options(CLI::App& app, CommonOptions& o);
// --backend (with its help text), --platform and --device alone.
void add_choice_options(CLI::App& app, DeviceChoice& choice, const std::string& backend_help);
// Throw UsageError before anything is opened.
void check_common_options(const CommonOptions& o);
void check_choice(const DeviceChoice& choice);
// Opens the device and records what explains its figures (name, backend,
// versions, PCIe link, NUMA node, CPUs) under `facts_key` of the result
// document. Writes the device line (text) and the link's warnings (problems)
// to `out`.
std::unique_ptr<Device> open_and_describe(const DeviceChoice& choice, Report& report, Output& out,
                                          const std::string& benchmark, const std::string& facts_key = "link_device");

// "link (cuda):": a suite summary's start, naming the device's backend.
std::string suite_label(const Report& report, const std::string& benchmark);

}  // namespace movebench::device
