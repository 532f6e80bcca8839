#include "device/options.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/affinity.hpp"
#include "core/errors.hpp"
#include "core/sizes.hpp"
#include "core/vocabulary.hpp"
#include "device/pcie.hpp"
#include "device/registry.hpp"

namespace movebench::device {

void add_choice_options(CLI::App& app, DeviceChoice& choice, const std::string& backend_help) {
  app.add_option("--backend", choice.backend, backend_help);
  app.add_option("--platform", choice.platform, "OpenCL platform: index or part of its name");
  app.add_option("--device", choice.device,
                 "Device: index or part of its name (default: node-local MPI rank mod devices, else 0); "
                 "host backend: the worker's CPU");
}

void add_common_options(CLI::App& app, CommonOptions& o) {
  add_choice_options(app, o.choice,
                     fmt::format("{} (default: an accelerator when one is built and present, else {})",
                                 or_list(known_backends()), vocabulary::kHostBackend));
  app.add_option(
         vocabulary::names(vocabulary::kTimeout), o.timeout_s,
         vocabulary::help(vocabulary::kTimeout, "any wait on the device may take this long before the run fails"))
      ->capture_default_str();
  app.add_flag("--corrupt-for-test", o.corrupt_for_test, "")->group("");  // tests only
}

void check_choice(const DeviceChoice& choice) {
  const auto& known = known_backends();
  if (!choice.backend.empty() && std::find(known.begin(), known.end(), choice.backend) == known.end()) {
    throw UsageError(fmt::format("unknown backend '{}': {}", choice.backend, or_list(known)));
  }
  if (choice.backend == vocabulary::kHostBackend && !choice.device.empty()) {
    // The host backend's device is the worker's CPU: one this process may use.
    const auto cpus = parse_cpu_list(choice.device);
    const auto allowed = allowed_cpus();
    if (cpus.size() != 1 || std::find(allowed.begin(), allowed.end(), cpus.front()) == allowed.end()) {
      throw UsageError(fmt::format("invalid --device '{}': the host backend takes one CPU this process may use ({})",
                                   choice.device, format_cpu_list(allowed)));
    }
  }
}

void check_common_options(const CommonOptions& o) {
  check_choice(o.choice);
  check_seconds(o.timeout_s, "--timeout", 86400);
}

std::unique_ptr<Device> open_and_describe(const DeviceChoice& choice, Report& report, Output& out,
                                          const std::string& benchmark, const std::string& facts_key) {
  auto device = open_device(choice);
  report.set_device(device->name());
  nlohmann::json facts = device->facts();
  facts["caller_cpu"] = current_cpu();
  facts["caller_affinity"] = current_affinity_list();
  if (facts.contains("bus_id")) {
    const std::string bus = facts["bus_id"].get<std::string>();
    if (auto pcie = read_pcie_link(bus)) {
      facts["pcie"] = to_json(*pcie);
      const std::string warning = below_max_warning(*pcie);
      if (!warning.empty()) {
        out.problem(fmt::format("movebench {}: {}", benchmark, warning));
        facts["warnings"].push_back(warning);
      }
    }
    if (auto nvml = nvml_link_facts(bus)) facts["nvml"] = *nvml;
  }
  report.extra(facts_key) = facts;
  out.text(fmt::format("device: {} [{} backend]\n", device->name(), device->backend()));
  return device;
}

std::string suite_label(const Report& report, const std::string& benchmark) {
  const auto& doc = report.document();
  if (!doc.contains("link_device") || !doc["link_device"].contains("backend")) return benchmark + ":";
  return fmt::format("{} ({}):", benchmark, doc["link_device"]["backend"].get<std::string>());
}

}  // namespace movebench::device
