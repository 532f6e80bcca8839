#include "mem/measure.hpp"

#include <fmt/format.h>

#include <utility>

#include "core/clock.hpp"
#include "core/host_info.hpp"
#include "core/stats.hpp"

namespace movebench::mem {

Team make_team(const MemOptions& opt, int threads) {
  Team team;
  team.threads = threads;
  team.cpus = place_threads(threads, opt.placement, core_ordered_cpus());
  return team;
}

namespace {

// What --nt-stores means for kernel k's candidates. "auto" keeps only the
// streaming-store shapes of a kernel that writes lines it did not read
// (init, copy, triad, striad: they save the write-allocate read) once its
// arrays together exceed the last-level cache: there the saving is certain,
// and the calibration's short windows cannot weigh it, since a plain
// store's write-back to memory comes after the trial (on the AMD EPYC of
// docs/performance.md they picked plain stores for init). In-place kernels
// and data that fit in the cache calibrate every shape.
NtStores nt_stores_for(const MemOptions& opt, Kernel k, std::uint64_t array_bytes) {
  if (opt.nt_stores != NtStores::kAuto || !info(k).write_allocate) return opt.nt_stores;
  return exceeds_last_level_cache(static_cast<double>(info(k).arrays) * static_cast<double>(array_bytes))
             ? NtStores::kOn
             : NtStores::kAuto;
}

}  // namespace

template <class T>
Calibration choose_shapes(const MemOptions& opt, Workspace<T>& ws, Team& team, std::span<const Kernel> kernels) {
  Calibration none;
  if (opt.shape) {
    const Shape forced = *opt.shape;
    for (Kernel k : kernels) {
      team.shape[static_cast<std::size_t>(k)] = k == Kernel::kSum ? without_streaming_stores(forced) : forced;
    }
    return none;
  }
  std::array<std::vector<Shape>, kKernelCount> candidates;
  const std::uint64_t array_bytes = ws.total_elements() * sizeof(T);
  for (Kernel k : kernels)
    candidates[static_cast<std::size_t>(k)] = shape_candidates(k, nt_stores_for(opt, k, array_bytes));
  const double start = now_seconds();
  Calibration c = calibrate_shapes(ws, team, kernels, candidates, kCalibrationBudget);
  for (Kernel k : kernels) team.shape[static_cast<std::size_t>(k)] = c.shape[static_cast<std::size_t>(k)];
  initialise(ws, team);               // the calibration left the windows it ran on changed
  c.seconds = now_seconds() - start;  // what the calibration costs the run, the new first touch included
  return c;
}
template Calibration choose_shapes<double>(const MemOptions&, Workspace<double>&, Team&, std::span<const Kernel>);
template Calibration choose_shapes<float>(const MemOptions&, Workspace<float>&, Team&, std::span<const Kernel>);

template <class T>
std::uint64_t corrupt_for_test(const MemOptions& opt, Workspace<T>& ws, std::uint64_t calls) {
  const std::size_t i = ws.elements_per_view / 2;
  T* a = ws.views[0].a;
  if (opt.corrupt_for_test == "value") a[i] = a[i] * 2 + 1;
  if (opt.corrupt_for_test == "swap" && i + 1 < ws.elements_per_view) std::swap(a[i], a[i + 1]);
  return opt.corrupt_for_test == "skip" ? calls + 1 : calls;
}
template std::uint64_t corrupt_for_test<double>(const MemOptions&, Workspace<double>&, std::uint64_t);
template std::uint64_t corrupt_for_test<float>(const MemOptions&, Workspace<float>&, std::uint64_t);

std::string describe_shapes(const Team& team, std::span<const Kernel> kernels) {
  std::string out;
  for (Kernel k : kernels) {
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", info(k).name, shape_name(team.shape_of(k)));
  }
  return out;
}

nlohmann::json calibration_json(const Calibration& c, const Team& team, std::span<const Kernel> kernels,
                                const MemOptions& opt) {
  nlohmann::json out = {{"shape_option", opt.shape_text()},
                        {"nt_stores", opt.nt_stores_name()},
                        {"seconds", c.seconds},
                        {"budget_seconds", kCalibrationBudget},
                        {"share_seconds", c.share}};
  nlohmann::json per = nlohmann::json::object();
  for (Kernel k : kernels) {
    nlohmann::json candidates = nlohmann::json::object();
    for (const auto& [shape, seconds] : c.timings[static_cast<std::size_t>(k)]) {
      if (seconds < 1e299) candidates[std::string(shape_name(shape))] = seconds;
    }
    per[std::string(info(k).name)] = {{"shape", shape_name(team.shape_of(k))},
                                      {"rounds", c.rounds[static_cast<std::size_t>(k)]},
                                      {"last_round_began_seconds", c.last_round_began[static_cast<std::size_t>(k)]},
                                      {"seconds", c.kernel_seconds[static_cast<std::size_t>(k)]},
                                      {"window_call_seconds", candidates}};
  }
  out["kernels"] = per;
  return out;
}

std::vector<Kernel> selected_kernels(const MemOptions& opt) {
  if (!opt.kernels.empty()) return opt.kernels;
  std::vector<Kernel> all;
  for (const auto& k : kernel_table()) all.push_back(k.id);
  return all;
}

double best_rate(const MemOptions& opt, Kernel k, std::uint64_t elements, double seconds) {
  const double bytes = static_cast<double>(info(k).words()) * opt.element_bytes() * static_cast<double>(elements);
  return bytes / seconds * opt.unit_scale();
}

Record kernel_record(const MemOptions& opt, Kernel k, std::uint64_t elements, nlohmann::json params, bool nontemporal,
                     std::vector<double> per_call_seconds) {
  const bool nt = nontemporal;
  const KernelInfo& ki = info(k);
  const double n = static_cast<double>(elements);
  const double eb = opt.element_bytes();
  const Summary s = summarize(per_call_seconds);
  Record r;
  r.benchmark = "mem";
  r.operation = std::string(ki.name);
  r.bytes = static_cast<std::uint64_t>(ki.arrays * eb * n);
  r.params = std::move(params);
  r.params["mode"] = opt.mode_name();
  r.params["elements"] = elements;
  r.params["type"] = opt.type_name();
  // TheBandwidthBenchmark's accounting: loads plus stores, over the best
  // (least) time; the median beside it.
  const Scale scale = scale_of_unit(opt.unit_name());
  const double moved = ki.words() * eb * n;
  r.figures.push_back(Figure::bandwidth("bandwidth", moved / s.min, Stat::kMin, Of::kTime, application_bytes(), scale));
  r.figures.push_back(
      Figure::bandwidth("bandwidth_median", moved / s.median, Stat::kMedian, Of::kTime, application_bytes(), scale));
  if (ki.flops > 0) r.figures.push_back(Figure::flop_rate("flops", ki.flops * n / s.min, Stat::kMin, Of::kTime, scale));
  if (opt.write_allocate && ki.write_allocate && !nt) {
    // With streaming stores the line is not read first: no write-allocate traffic.
    r.figures.push_back(Figure::bandwidth("bandwidth_write_allocate", ki.words_with_write_allocate() * eb * n / s.min,
                                          Stat::kMin, Of::kTime, write_allocate_bytes(), scale));
  }
  r.samples = std::move(per_call_seconds);
  return r;
}

}  // namespace movebench::mem
