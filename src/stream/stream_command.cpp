// `movebench stream`: oneAPI's simple-host-streaming designs and the
// low-latency ones, their latency and throughput per design, and the
// chunk-size sweep. The command: its options are StreamCli's
// (stream_cli.cpp: StreamOptions, with the device's CommonOptions), the
// run on a device stream_measure.hpp's, the text stream_output's.
#include "stream/stream_command.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/summary.hpp"
#include "stream/designs.hpp"
#include "stream/stream_measure.hpp"

namespace movebench {
namespace {

using namespace stream;

class StreamCommand : public Command {
 public:
  std::string name() const override { return "stream"; }
  std::string summary() const override {
    return "Host-device streaming: offload vs chunked vs pipeline vs persistent kernel; latency and throughput";
  }
  std::vector<std::string> cases() const override {
    std::vector<std::string> out{"stream.launch_bound"};
    for (const auto& d : designs()) out.push_back(fmt::format("stream.{}", d.name));
    return out;
  }

  void add_options(CLI::App& app) override { cli_.add_options(app, opt_); }
  void check_options() override { cli_.resolve(opt_, cases()); }

  int run(Report& report) override {
    auto device = device::open_and_describe(opt_.common.choice, report, out_, "stream");
    run_stream(*device, report, opt_, out_);
    return kExitOk;
  }

  std::vector<std::vector<std::string>> suite_runs(std::string&) const override {
    // Every design of the default device, on 16 chunks of 16 KiB, 3 passes.
    return {{"--chunks", "16", "--chunk-elements", "4096", "--inflight", "2", "--repetitions", "3", "--sizes-bytes",
             "4K:64K:x4"}};
  }

  std::string suite_summary(const Report& report) const override {
    const auto design = [](std::string_view d) { return fmt::format("{}.latency", d); };
    return SummaryLine(report, device::suite_label(report, "stream"))
        .result("stream.launch_bound", "launch bound", {"us", 1})
        .results("stream.", ".latency", design, {"us", 1})
        .str();
  }

 private:
  // Where the text goes (core/output.hpp): the standard streams.
  Output& out_ = standard_output();
  StreamCli cli_;
  StreamOptions opt_;
};

}  // namespace

std::unique_ptr<Command> make_stream_command() { return std::make_unique<StreamCommand>(); }

}  // namespace movebench
