// Default mode: TheBandwidthBenchmark's table, on arrays shared by all
// threads.
#include <fmt/format.h>

#include "core/affinity.hpp"
#include "core/interrupt.hpp"
#include "mem/measure.hpp"
#include "mem/mem_output.hpp"
#include "mem/modes.hpp"
#include "mem/runner.hpp"

namespace movebench::mem {
namespace {

nlohmann::json placement_json(const std::vector<ThreadPlacement>& placement) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : placement) out.push_back({{"thread", p.thread}, {"cpu", p.cpu}, {"mask", p.mask}});
  return out;
}

// What the table's header says about a host runner, once it has prepared
// (calibrated) its kernels.
template <class T>
HostTableSetup host_setup(const MemOptions& opt, const HostRunner<T>& runner, int threads) {
  HostTableSetup s;
  s.threads = threads;
  s.placement = opt.placement.describe();
  s.elements = opt.elements;
  s.element_bytes = static_cast<int>(sizeof(T));
  s.type = opt.type_name();
  if (!opt.shape) s.calibration_s = runner.calibration().seconds;
  s.forced_shape = opt.shape_text();
  s.shapes = describe_shapes(runner.team(), selected_kernels(opt));
  if (opt.verbose_affinity) s.placement_of_threads = runner.placement();
  return s;
}

// One thread count. Returns the best bandwidth of each selected kernel.
template <class T>
std::vector<double> run_one(const MemOptions& opt, int threads, Report& report, Output& out) {
  const auto kernels = selected_kernels(opt);
  HostRunner<T> runner(opt, threads, true, opt.elements);
  auto header = [&](Output& o) { write_setup(o, host_setup(opt, runner, threads)); };
  auto best = run_table(opt, runner, fmt::format("{}t", threads), header, report, out);
  if (best.empty()) return best;
  report.settings("mem")["placement"][std::to_string(threads)] = placement_json(runner.placement());
  report.settings("mem")["calibration"][std::to_string(threads)] =
      calibration_json(runner.calibration(), runner.team(), kernels, opt);
  return best;
}

}  // namespace

std::vector<double> run_table(const MemOptions& opt, Runner& runner, const std::string& result_suffix,
                              const std::function<void(Output&)>& header, Report& report, Output& out) {
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

  write_rule(out);
  header(out);
  write_rule(out);
  write_table_header(out, opt);
  std::vector<double> best;
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    std::vector<double> samples(times[k].begin() + 1, times[k].end());
    Record r = kernel_record(opt, kernels[k], n, runner.params(kernels[k]), runner.nontemporal(kernels[k]), samples);
    r.params["warmup_samples"] = {times[k][0]};
    write_table_row(out, opt, kernels[k], n, r);
    const Figure& bandwidth = r.figures.front();  // traffic over the best time
    best.push_back(bandwidth.value());
    report.set_result(bandwidth.named(fmt::format("mem.{}.{}", info(kernels[k]).name, result_suffix)));
    report.add(std::move(r));
  }
  write_rule(out);
  write_validation(out, check.passed, check.message);
  report.validation(check.passed, "mem: " + check.message);
  return best;
}

void run_bandwidth(const MemOptions& opt, Report& report, Output& out) {
  const ScopedAffinity restore;  // teams pin the main thread
  std::vector<std::vector<double>> rates;
  std::vector<int> counts;
  report.progress().begin("mem bandwidth", opt.threads.size());
  for (int threads : opt.threads) {
    if (interrupted()) break;
    report.progress().step(fmt::format("{} thread{}", threads, threads > 1 ? "s" : ""));
    auto best = opt.element_type == ElementType::kFloat ? run_one<float>(opt, threads, report, out)
                                                        : run_one<double>(opt, threads, report, out);
    if (best.empty()) break;  // interrupted before a round was measured
    rates.push_back(std::move(best));
    counts.push_back(threads);
  }
  if (opt.threads.size() > 1) write_scaling_table(out, selected_kernels(opt), counts, rates);
}

}  // namespace movebench::mem
