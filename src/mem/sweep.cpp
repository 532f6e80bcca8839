// seq and tp: sweeps over array sizes that show every level of the memory
// hierarchy, one data file per kernel (TheBandwidthBenchmark's
// dat/<Kernel>.dat).
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/affinity.hpp"
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "core/stats.hpp"
#include "mem/measure.hpp"
#include "mem/mem_output.hpp"
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
  return calls_for_budget(timed, target, Probe{.first = 1, .growth = 2, .share = 0.25, .most = std::uint64_t{1} << 30},
                          1, std::uint64_t{1} << 40);
}

template <class T>
void sweep(const MemOptions& opt, Report& report, Output& out) {
  const bool tp = opt.mode == Mode::kTp;
  const int threads = tp ? opt.threads.front() : 1;
  const std::uint64_t max_n = *std::max_element(opt.sweep_sizes.begin(), opt.sweep_sizes.end());
  HostRunner<T> runner(opt, threads, !tp, max_n);
  const std::string subject = fmt::format(
      "{}, {} thread{}", tp ? "throughput (private arrays per thread)" : "sequential", threads, threads > 1 ? "s" : "");
  run_sweep_on(opt, runner, subject, tp ? "mem tp" : "mem seq", report, out);
}

}  // namespace

void run_sweep_on(const MemOptions& opt, Runner& runner, const std::string& subject, const std::string& progress,
                  Report& report, Output& out) {
  const auto& sizes = opt.sweep_sizes;
  std::error_code ec;
  std::filesystem::create_directories(opt.outdir, ec);
  if (ec) throw UsageError(fmt::format("cannot create the output folder '{}': {}", opt.outdir, ec.message()));
  write_sweep_heading(out, subject, sizes.size(), opt.outdir);
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
    write_sweep_kernel(out, ki, opt.unit_name());
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
      write_sweep_row(out, n, r, check.passed);
      report.add(std::move(r));
    }
  }
  write_validation(out, all_passed, first_failure);
  report.validation(all_passed, "mem: " + first_failure);
}

void run_sweep(const MemOptions& opt, Report& report, Output& out) {
  const ScopedAffinity restore;  // teams pin the main thread
  if (opt.element_type == ElementType::kFloat) {
    sweep<float>(opt, report, out);
  } else {
    sweep<double>(opt, report, out);
  }
}

}  // namespace movebench::mem
