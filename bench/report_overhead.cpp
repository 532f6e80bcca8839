// What writing the result file costs a long sweep (docs/reliability.md,
// "Result files"): a sweep of N records, each after `point` seconds of
// work (a busy wait standing for the measurement), written through Report
// as every command writes it. Prints the run time, the writes, and the
// seconds spent writing; with --every-record, the old scheme (the whole
// file rewritten after each record) for comparison.
//   report_overhead RECORDS POINT_SECONDS FILE [--every-record]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/report.hpp"

using namespace movebench;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: report_overhead RECORDS POINT_SECONDS FILE [--every-record]\n");
    return 2;
  }
  const long records = std::atol(argv[1]);
  const double point = std::atof(argv[2]);
  const bool every_record = argc > 4 && std::string(argv[4]) == "--every-record";
  const auto start = Clock::now();
  Report report("mem", {argv[3], false, true}, {"report_overhead", argv[1], argv[2]});
  double write_s = 0;
  for (long i = 0; i < records; ++i) {
    const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(point));
    while (Clock::now() < until) {
    }
    // A record as `mem seq` makes it: five samples, its parameters, two figures.
    Record r;
    r.benchmark = "mem";
    r.operation = "copy";
    r.bytes = static_cast<std::uint64_t>(16 * (i + 1) * 16);
    r.params = {{"threads", 1},
                {"elements", 16 * (i + 1)},
                {"type", "double"},
                {"nt_stores", false},
                {"elements_per_thread", 16 * (i + 1)},
                {"calls_per_sample", 1000}};
    r.samples = {1.1e-6, 1.0e-6, 1.2e-6, 1.05e-6, 1.15e-6};
    r.figures = {Figure::bandwidth("bandwidth", 12345.6e6, Stat::kMedian, Of::kTime, application_bytes()),
                 Figure::latency("time", 1.1e-6, Stat::kMedian)};
    report.add(std::move(r));
    if (every_record) {
      const auto t0 = Clock::now();
      report.save();
      write_s += std::chrono::duration<double>(Clock::now() - t0).count();
    }
  }
  report.validation(true, "");
  const int code = report.finish();
  const double total = std::chrono::duration<double>(Clock::now() - start).count();
  const double writing = every_record ? write_s : report.save_seconds();
  const double work = static_cast<double>(records) * point;
  std::printf(
      "records %ld, point %.4f s, %s: run %.2f s (work %.2f s), %zu writes, writing %.3f s = %.2f%% of the run\n",
      records, point, every_record ? "rewrite after every record" : "checkpoints", total, work,
      every_record ? static_cast<std::size_t>(records) : report.saves(), writing, 100.0 * writing / total);
  return code;
}
