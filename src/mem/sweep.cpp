// seq and tp: sweeps over array sizes that show every level of the memory
// hierarchy, one data file per kernel (TheBandwidthBenchmark's
// dat/<Kernel>.dat).
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/affinity.hpp"
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/sizes.hpp"
#include "core/interrupt.hpp"
#include "core/stats.hpp"
#include "mem/measure.hpp"
#include "mem/modes.hpp"
#include "mem/runner.hpp"

namespace movebench::mem {
namespace {

// Calls per sample so that a sample lasts `target` seconds (core/clock's
// probe: doubling until a probe lasts a quarter of it). Counts every call
// made and adds up their sums, for the validation replay.
std::size_t calls_per_sample(Runner& runner, Kernel k, double target, std::uint64_t& calls, double& sum_total) {
  const Kernel seq[] = {k};
  const auto timed = [&](std::uint64_t iters) {
    double sum = 0;
    const double t = runner.time_sequence(seq, 1, iters, calls, sum).front().front();
    calls += iters;
    sum_total += sum;
    return t;
  };
  return calls_for_budget(timed, target, Probe{.first = 1, .growth = 2, .share = 0.25, .most = std::uint64_t{1} << 30}, 1,
                          std::uint64_t{1} << 40);
}

std::string data_file_header(const KernelInfo& ki) {
  // TheBandwidthBenchmark's header and columns, then the median and the
  // dataset size.
  if (ki.flops == 0) {
    return fmt::format("# {}: {} words, no flops\n# N  Bytes(MB)  Rate(GB/s)  Avg time(s)  Min time(s)  Max time(s)  "
                       "Median time(s)  Dataset(MB)\n", ki.label, ki.words());
  }
  return fmt::format("# {}: {} words, {} flops\n# N  Bytes(MB)  Rate(GB/s)  Rate(GFlop/s)  Avg time(s)  Min time(s)  "
                     "Max time(s)  Median time(s)  Dataset(MB)\n", ki.label, ki.words(), ki.flops);
}

std::string data_file_line(const KernelInfo& ki, std::uint64_t n, std::uint64_t total_elements, int eb,
                           std::size_t iters, const Summary& s) {
  const double bytes = static_cast<double>(ki.words()) * eb * static_cast<double>(total_elements);
  const double dataset = static_cast<double>(ki.arrays) * eb * static_cast<double>(total_elements);
  std::string line = fmt::format("{} {:11.5f} {:11.2f}", n, bytes * 1e-6, 1e-9 * bytes * iters / s.min);
  if (ki.flops > 0) line += fmt::format(" {:11.2f}", 1e-9 * ki.flops * total_elements * iters / s.min);
  line += fmt::format(" {:11.6f}  {:11.6f}  {:11.6f}  {:11.6f}  {:11.5f}\n", s.mean, s.min, s.max, s.median,
                      dataset * 1e-6);
  return line;
}

template <class T>
void sweep(const MemOptions& opt, Report& report) {
  const bool tp = opt.mode == Mode::kTp;
  const int threads = tp ? opt.threads.front() : 1;
  const std::uint64_t max_n = *std::max_element(opt.sweep_sizes.begin(), opt.sweep_sizes.end());
  HostRunner<T> runner(opt, threads, !tp, max_n);
  const std::string subject = fmt::format("{}, {} thread{}", tp ? "throughput (private arrays per thread)" : "sequential",
                                          threads, threads > 1 ? "s" : "");
  run_sweep_on(opt, runner, subject, tp ? "mem tp" : "mem seq", report);
}

}  // namespace

void run_sweep_on(const MemOptions& opt, Runner& runner, const std::string& subject, const std::string& progress,
                  Report& report) {
  const auto& sizes = opt.sweep_sizes;
  std::error_code ec;
  std::filesystem::create_directories(opt.outdir, ec);
  if (ec) throw UsageError(fmt::format("cannot create the output folder '{}': {}", opt.outdir, ec.message()));
  std::printf("Running memory hierarchy sweeps: %s, %zu sizes, data files in %s/\n", subject.c_str(), sizes.size(),
              opt.outdir.c_str());
  const double target = opt.point_time / opt.samples;
  bool all_passed = true;
  std::string first_failure;
  report.progress().begin(progress, selected_kernels(opt).size() * sizes.size());
  for (Kernel k : selected_kernels(opt)) {
    const KernelInfo& ki = info(k);
    const std::string path = fmt::format("{}/{}.dat", opt.outdir, ki.label);
    std::ofstream file(path);
    if (!file) throw UsageError(fmt::format("cannot write '{}'", path));
    file << data_file_header(ki);
    std::printf("Running kernel %s\n%14s %14s %12s %14s\n", std::string(ki.label).c_str(), "N", "Dataset", opt.unit_name().c_str(),
                "Median");
    for (std::uint64_t n : sizes) {
      if (interrupted()) break;
      report.progress().step(fmt::format("{} N={}", ki.label, n));
      runner.reset(n);
      const Kernel seq[] = {k};
      runner.prepare(seq);
      std::uint64_t calls = 0;
      double sum_total = 0;
      const std::size_t iters = calls_per_sample(runner, k, target, calls, sum_total);
      double sum = 0;
      const auto times = runner.time_sequence(seq, opt.samples, iters, calls, sum);
      const auto& samples = times.front();
      if (samples.empty()) break;
      calls += samples.size() * iters;
      sum_total += sum;
      const Validation check = runner.check(seq, calls, sum_total);
      if (!check.passed && all_passed) {
        all_passed = false;
        first_failure = fmt::format("{} at N={}: {}", ki.name, n, check.message);
      }
      std::vector<double> per_call;
      for (double t : samples) per_call.push_back(t / static_cast<double>(iters));
      const Summary s = summarize(samples);
      file << data_file_line(ki, n, runner.total_elements(), opt.element_bytes(), iters, s);
      Record r = kernel_record(opt, k, runner.total_elements(), runner.params(k), runner.nontemporal(k), per_call);
      r.params["calls_per_sample"] = iters;
      std::printf("%14llu %14s %12.2f %12.2f%s\n", static_cast<unsigned long long>(n),
                  format_bytes(static_cast<double>(r.bytes)).c_str(), r.figures[0].value(), r.figures[1].value(),
                  check.passed ? "" : "  VALIDATION FAILED");
      report.add(std::move(r));
    }
  }
  std::printf("%s\n", all_passed ? "Solution Validates" : ("Solution does not validate: " + first_failure).c_str());
  report.validation(all_passed, "mem: " + first_failure);
}

void run_sweep(const MemOptions& opt, Report& report) {
  const ScopedAffinity restore;  // teams pin the main thread
  if (opt.element_type == ElementType::kFloat) {
    sweep<float>(opt, report);
  } else {
    sweep<double>(opt, report);
  }
}

}  // namespace movebench::mem
