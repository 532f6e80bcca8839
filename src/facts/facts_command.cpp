// movebench facts [--dmidecode FILE] [--lspci FILE]: collect() as a table
// and, with --json, as the result document's `facts`.
#include <fmt/format.h>

#include "core/errors.hpp"
#include "facts/facts.hpp"
#include "facts/facts_command.hpp"
#include "facts/input_file.hpp"
#include "facts/smbios.hpp"

namespace movebench::facts {
namespace {

class FactsCommand : public Command {
 public:
  std::string name() const override { return "facts"; }
  std::string summary() const override {
    return "What movebench knows of the machine: CPU, DRAM (DIMMs, channels, peak), PCIe, accelerators (memory, peak), "
           "NICs, memory tiers, settings; each with its source";
  }
  std::vector<std::string> cases() const override { return {}; }

  void add_options(CLI::App& app) override {
    app.add_option("--dmidecode", sources_.dmidecode_file,
                   "Read the DRAM and CPU from this text of `dmidecode` (or -t memory, -t 17), e.g. saved on another "
                   "machine, instead of this machine's SMBIOS table. With a file given the facts are that machine's: "
                   "what no file given tells (PCIe without --lspci, NICs, accelerators, settings) is 'not in the file'")
        ->type_name("FILE");
    app.add_option("--lspci", sources_.lspci_file,
                   "Read the PCIe links from this text of `lspci -vv` (run as root) instead of this machine's sysfs; "
                   "the facts are then that machine's, as with --dmidecode")
        ->type_name("FILE");
  }

  // Both files are read and checked here, before any result file is made:
  // a bad one is one line and exit 2.
  void check_options() override {
    if (!sources_.dmidecode_file.empty()) {
      std::string why;
      read_smbios(sources_, why);
    }
    if (!sources_.lspci_file.empty()) pcie_facts(sources_);
  }

  int run(Report& report) override {
    report.settings("facts") = {{"dmidecode", sources_.dmidecode_file}, {"lspci", sources_.lspci_file}};
    const nlohmann::json facts = collect(sources_);
    report.extra("facts") = facts;
    standard_output().text(facts_table(facts));
    print_warnings(standard_output(), facts, "movebench facts");
    return kExitOk;
  }

  std::vector<std::vector<std::string>> suite_runs(std::string& why) const override {
    why = "every result document records the facts (its facts key)";
    return {};
  }
  std::string suite_summary(const Report&) const override { return ""; }

 private:
  Sources sources_;
};

}  // namespace

std::unique_ptr<Command> make_facts_command() { return std::make_unique<FactsCommand>(); }

void print_warnings(Output& out, const nlohmann::json& facts, const std::string& where) {
  if (!facts.contains("warnings")) return;
  for (const auto& w : facts["warnings"]) {
    if (w.is_string()) out.problem(fmt::format("{}: warning: {}", where, w.get<std::string>()));
  }
}

}  // namespace movebench::facts
