// Default mode: TheBandwidthBenchmark's table, on arrays shared by all
// threads.
#include <fmt/format.h>

#include <cstdio>

#include "core/affinity.hpp"
#include "core/interrupt.hpp"
#include "core/sizes.hpp"
#include "mem/measure.hpp"
#include "mem/modes.hpp"
#include "mem/runner.hpp"

namespace movebench::mem {
namespace {

void print_placement(const std::vector<ThreadPlacement>& placement) {
  for (const auto& p : placement) {
    std::printf("thread %d running on CPU %d, affinity mask %s\n", p.thread, p.cpu, p.mask.c_str());
  }
}

nlohmann::json placement_json(const std::vector<ThreadPlacement>& placement) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : placement) out.push_back({{"thread", p.thread}, {"cpu", p.cpu}, {"mask", p.mask}});
  return out;
}

// One thread count. Returns the best bandwidth of each selected kernel.
template <class T>
std::vector<double> run_one(const MemOptions& opt, int threads, Report& report) {
  const auto kernels = selected_kernels(opt);
  const std::uint64_t n = opt.elements;
  HostRunner<T> runner(opt, threads, true, n);
  auto header = [&] {
    std::printf("%d threads, placement %s, %s per array (%llu elements of %s)\n", threads,
                opt.placement.describe().c_str(), format_bytes(static_cast<double>(n * sizeof(T))).c_str(),
                static_cast<unsigned long long>(n), opt.type_name().c_str());
    std::printf("Shapes (%s): %s\n",
                !opt.shape ? fmt::format("calibrated in {:.2f} s", runner.calibration().seconds).c_str()
                           : fmt::format("--shape {}", opt.shape_text()).c_str(),
                describe_shapes(runner.team(), kernels).c_str());
    std::printf("Total allocated datasize: %.2f MB\n", 4.0 * n * sizeof(T) * 1e-6);
    if (opt.verbose_affinity) print_placement(runner.placement());
  };
  auto best = run_table(opt, runner, fmt::format("{}t", threads), header, report);
  if (best.empty()) return best;
  report.settings("mem")["placement"][std::to_string(threads)] = placement_json(runner.placement());
  report.settings("mem")["calibration"][std::to_string(threads)] =
      calibration_json(runner.calibration(), runner.team(), kernels, opt);
  return best;
}

void print_scaling_table(const MemOptions& opt, const std::vector<int>& counts,
                         const std::vector<std::vector<double>>& rates) {
  const auto kernels = selected_kernels(opt);
  std::printf("\n%-8s", "#nt");
  for (auto k : kernels) std::printf("%-10s", std::string(info(k).label).c_str());
  std::printf("\n");
  for (std::size_t i = 0; i < rates.size(); ++i) {
    std::printf("%-8d", counts[i]);
    for (double r : rates[i]) std::printf("%-10.0f", r);
    std::printf("\n");
  }
}

}  // namespace

std::vector<double> run_table(const MemOptions& opt, Runner& runner, const std::string& result_suffix,
                              const std::function<void()>& header, Report& report) {
  const auto kernels = selected_kernels(opt);
  const std::uint64_t n = opt.elements;
  runner.reset(n);
  runner.prepare(kernels);
  double sum = 0;
  // One extra round first: TheBandwidthBenchmark's statistics (like
  // STREAM's) leave out the first, which pays for page faults and cold TLBs
  // (on a device: the first launch).
  const int rounds = opt.repetitions + 1;
  const auto times = runner.time_sequence(kernels, rounds, 1, 0, sum);
  const std::size_t done = times.front().size();  // fewer than rounds after a signal
  if (done < 2) return {};
  const Validation check = runner.check(kernels, done, sum);

  print_rule();
  header();
  print_rule();
  print_table_header(opt);
  std::vector<double> best;
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    std::vector<double> samples(times[k].begin() + 1, times[k].end());
    Record r = kernel_record(opt, kernels[k], n, runner.params(kernels[k]), runner.nontemporal(kernels[k]), samples);
    r.params["warmup_samples"] = {times[k][0]};
    print_table_row(opt, kernels[k], n, r);
    const Figure& bandwidth = r.figures.front();  // traffic over the best time
    best.push_back(bandwidth.value());
    report.set_result(bandwidth.named(fmt::format("mem.{}.{}", info(kernels[k]).name, result_suffix)));
    report.add(std::move(r));
  }
  print_rule();
  std::printf("%s\n", check.passed ? "Solution Validates" : ("Solution does not validate: " + check.message).c_str());
  report.validation(check.passed, "mem: " + check.message);
  return best;
}

void run_bandwidth(const MemOptions& opt, Report& report) {
  const ScopedAffinity restore;  // teams pin the main thread
  std::vector<std::vector<double>> rates;
  std::vector<int> counts;
  report.progress().begin("mem bandwidth", opt.threads.size());
  for (int threads : opt.threads) {
    if (interrupted()) break;
    report.progress().step(fmt::format("{} thread{}", threads, threads > 1 ? "s" : ""));
    auto best = opt.element_type == ElementType::kFloat ? run_one<float>(opt, threads, report)
                                            : run_one<double>(opt, threads, report);
    if (best.empty()) break;  // interrupted before a round was measured
    rates.push_back(std::move(best));
    counts.push_back(threads);
  }
  if (opt.threads.size() > 1) print_scaling_table(opt, counts, rates);
}

}  // namespace movebench::mem
