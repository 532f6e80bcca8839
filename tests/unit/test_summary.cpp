#include <gtest/gtest.h>

#include "core/figure.hpp"
#include "core/report.hpp"
#include "core/summary.hpp"

using namespace movebench;

namespace {
Report empty_report() { return Report("run", OutputOptions{}, {"movebench", "run"}); }

Record latency_record(std::uint64_t bytes, double ns) {
  Record r;
  r.benchmark = "mem";
  r.operation = "latency";
  r.bytes = bytes;
  r.samples = {ns * 1e-9};
  r.figures = {Figure::latency("latency", ns * 1e-9, Stat::kMin)};
  return r;
}
}  // namespace

TEST(SummaryLine, NamedResultsInTheirOwnUnitOrTheOneShown) {
  Report report = empty_report();
  report.set_result(Figure::latency("p2p.latency", 0.34631e-6, Stat::kMean));
  report.set_result(Figure::bandwidth("p2p.bw", 1175.2e6, Stat::kMean, Of::kTime, application_bytes()));
  report.set_result(Figure::latency("stream.launch_bound", 1612.0e-9, Stat::kMedian));
  EXPECT_EQ(SummaryLine(report, "p2p:").result("p2p.latency", "latency").result("p2p.bw", "bandwidth").str(),
            "p2p: latency 346.3 ns; bandwidth 1175 MB/s;");
  // Shown in us with one decimal, whatever the result's time unit.
  EXPECT_EQ(SummaryLine(report, "stream:").result("stream.launch_bound", "launch bound", {"us", 1}).str(),
            "stream: launch bound 1.6 us;");
  // Absent results are left out; a rate is not converted into a time.
  EXPECT_EQ(SummaryLine(report, "x:").result("p2p.bibw", "bibw").result("p2p.bw", "bw", {"us", 0}).str(),
            "x: bw 1175 MB/s;");
}

TEST(SummaryLine, EveryResultOfAFamilyLabelledByItsName) {
  Report report = empty_report();
  report.set_result(Figure::latency("coll.bcast.avg", 3.791e-6, Stat::kMean));
  report.set_result(Figure::latency("coll.allreduce.avg", 1114.0899e-6, Stat::kMean));
  report.set_result(
      Figure::bandwidth("coll.allreduce.busbw", 0.5e9, Stat::kMean, Of::kTime, bus_bytes(1), Scale::kGiga));
  const auto line = SummaryLine(report, "coll:")
                        .results("coll.", ".avg", [](std::string_view op) { return std::string(op); }, {"us", 2})
                        .str();
  EXPECT_EQ(line, "coll: allreduce 1114.09 us; bcast 3.79 us;");
}

TEST(SummaryLine, TheFigureOfTheLargestRecord) {
  Report report = empty_report();
  report.add(latency_record(4096, 1.2));
  report.add(latency_record(256u << 20, 85.31));
  report.add(latency_record(1u << 20, 4.0));
  EXPECT_EQ(SummaryLine(report, "mem:").at_largest("mem", "latency", "latency", "latency", {"ns", 1}).str(),
            "mem: latency at 256.00 MiB 85.3 ns;");
  EXPECT_EQ(SummaryLine(report, "mem:").at_largest("mem", "chase", "latency", "latency").str(), "mem:");
}

TEST(SummaryLine, TheFractionOfThePeakWhereTheResultHasOne) {
  Report report = empty_report();
  report.set_result(Figure::bandwidth("mem.triad.2t", 41.2e9, Stat::kMin, Of::kTime, application_bytes()));
  report.set_result(Figure::bandwidth("mem.triad.1t", 20.0e9, Stat::kMin, Of::kTime, application_bytes()));
  // What judge::attach_peaks writes: the peak in the figure's unit (MB/s).
  report.extra("results")["mem.triad.2t"]["peak"] = {
      {"label", "DRAM"}, {"value", 51200.0}, {"unit", "MB/s"}, {"fraction", 41200.0 / 51200}, {"source", "x"}};
  report.extra("results")["mem.triad.1t"]["peak"] = {{"status", "none"}, {"why", "1 of 2 threads"}};
  const auto label = [](std::string_view n) { return "triad " + std::string(n); };
  EXPECT_EQ(SummaryLine(report, "mem:").results("mem.triad.", "t", label, {"GB/s", 1}).str(),
            "mem: triad 1 20.0 GB/s; triad 2 41.2 GB/s = 80% of 51.2 GB/s DRAM peak;");
  EXPECT_EQ(SummaryLine(report, "mem:").result("mem.triad.2t", "triad").str(),
            "mem: triad 41200 MB/s = 80% of 51200 MB/s DRAM peak;");  // no exponent (core/figure significant_text)
}
