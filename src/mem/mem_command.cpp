// `movebench mem`: the command (its options and their checks are MemCli's,
// mem_cli.cpp and mem_resolve.cpp), its modes, and the suite entry.
#include "mem/mem_command.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/affinity.hpp"
#include "core/errors.hpp"
#include "core/host_info.hpp"
#include "core/output.hpp"
#include "core/summary.hpp"
#include "mem/device_runner.hpp"
#include "mem/mem_cli.hpp"
#include "mem/modes.hpp"

namespace movebench {
namespace {

using mem::Mode;

class MemCommand : public Command {
 public:
  std::string name() const override { return "mem"; }
  std::string summary() const override {
    return fmt::format("Memory bandwidth (the {} streaming kernels) and latency (pointer chase)", mem::kKernelCount);
  }
  std::vector<std::string> cases() const override {
    std::vector<std::string> out;
    for (const auto& k : mem::kernel_table()) out.push_back(fmt::format("mem.{}", k.name));
    out.push_back("mem.latency");
    out.push_back("mem.loaded_latency");
    return out;
  }

  void add_options(CLI::App& app) override { cli_.add_options(app, opt_); }
  void check_options() override { cli_.resolve(opt_); }

  int run(Report& report) override {
    mem::record_settings(opt_, report);
    if (opt_.on_device()) {
      mem::run_on_device(opt_, report, out_);
      return kExitOk;
    }
    switch (opt_.mode) {
      case Mode::kBandwidth: mem::run_bandwidth(opt_, report, out_); break;
      case Mode::kSeq:
      case Mode::kTp: mem::run_sweep(opt_, report, out_); break;
      case Mode::kLatency: mem::run_latency(opt_, report, out_); break;
      case Mode::kLoadedLatency: mem::run_loaded_latency(opt_, report, out_); break;
    }
    return kExitOk;
  }

  std::vector<std::vector<std::string>> suite_runs(std::string&) const override {
    // Bounded: arrays four times the last-level cache (so memory, not cache,
    // is measured), one thread and all threads; then latency. At most 512 MiB
    // per array and a 512 MiB chase: a guest shown its host's whole L3
    // (480 MiB on the development VM) made the suite's mem part take 11
    // minutes with 2 GiB arrays and a chase up to 1.5 GiB.
    constexpr std::uint64_t kSuiteMaxBytes = 512ull << 20;
    const auto llc = std::max<std::uint64_t>(last_level_cache_bytes(), 8ull << 20);
    const auto elements = std::clamp<std::uint64_t>(4 * llc / 8, 16ull << 20, kSuiteMaxBytes / 8);
    const int all = static_cast<int>(allowed_cpus().size());
    auto chase = mem::default_latency_sizes();
    std::erase_if(chase, [](std::uint64_t b) { return b > kSuiteMaxBytes; });
    return {
        {"bandwidth", "--elements", std::to_string(elements), "--threads", all > 1 ? fmt::format("1,{}", all) : "1"},
        {"latency", "--time-budget", "0.05", "--sizes-bytes", fmt::format("{}", fmt::join(chase, ","))}};
  }

  std::string suite_summary(const Report& report) const override {
    const auto triad = [](std::string_view threads) {
      return fmt::format("triad with {} thread{}", threads, threads == "1" ? "" : "s");
    };
    return SummaryLine(report, "mem:")
        .results("mem.triad.", "t", triad, {"MB/s", 0})
        // Latency at the largest working set: main memory.
        .at_largest("mem", "latency", "latency", "latency", {"ns", 1})
        .str();
  }

 private:
  // Where the text goes (core/output.hpp): the standard streams.
  Output& out_ = standard_output();
  mem::MemOptions opt_;
  mem::MemCli cli_;
};

}  // namespace

std::unique_ptr<Command> make_mem_command() { return std::make_unique<MemCommand>(); }

}  // namespace movebench
