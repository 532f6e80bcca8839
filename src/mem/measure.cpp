#include "mem/measure.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "core/host_info.hpp"
#include "core/stats.hpp"

namespace movebench::mem {

Team make_team(const MemOptions& opt, int threads, bool nt) {
  return {threads, place_threads(threads, opt.placement, core_ordered_cpus()), nt};
}

bool use_nontemporal(const MemOptions& opt, std::uint64_t dataset_bytes) {
  if (!has_nontemporal_stores() || opt.nt_stores == "off") return false;
  if (opt.nt_stores == "on") return true;
  const auto llc = last_level_cache_bytes();
  return llc > 0 && dataset_bytes > llc;
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

Record kernel_record(const MemOptions& opt, Kernel k, std::uint64_t elements, int threads, bool nt,
                     std::vector<double> per_call_seconds) {
  const KernelInfo& ki = info(k);
  const double n = static_cast<double>(elements);
  const double eb = opt.element_bytes();
  const Summary s = summarize(per_call_seconds);
  Record r;
  r.benchmark = "mem";
  r.operation = std::string(ki.name);
  r.bytes = static_cast<std::uint64_t>(ki.arrays * eb * n);
  r.params = {{"mode", opt.mode_name}, {"threads", threads}, {"elements", elements},
              {"type", opt.element_type}, {"nontemporal", nt}, {"alignment", opt.alignment}};
  const std::string unit = opt.unit;
  r.figures.push_back({"bandwidth", best_rate(opt, k, elements, s.min), unit, "min"});
  r.figures.push_back({"bandwidth_median", best_rate(opt, k, elements, s.median), unit, "median"});
  if (ki.flops > 0) r.figures.push_back({"flops", ki.flops * n * opt.unit_scale() / s.min, opt.flop_unit(), "min"});
  if (opt.write_allocate && ki.write_allocate && !nt) {
    // With streaming stores the line is not read first: no write-allocate traffic.
    r.figures.push_back({"bandwidth_write_allocate", ki.words_with_write_allocate() * eb * n * opt.unit_scale() / s.min,
                         unit, "min"});
  }
  r.samples = std::move(per_call_seconds);
  return r;
}

void print_rule() { std::printf("%s\n", std::string(92, '-').c_str()); }

void print_table_header(const MemOptions& opt) {
  const std::string rate = fmt::format("Rate({})", opt.unit);
  const std::string flops = fmt::format("Rate({})", opt.flop_unit());
  std::printf("%-12s%12s  %-13s  %-11s  %-11s  %-11s  %-11s%s\n", "Function", rate.c_str(), flops.c_str(),
              "Avg time", "Min time", "Max time", "Med time", opt.write_allocate ? "  Rate+WA" : "");
}

void print_table_row(const MemOptions& opt, Kernel k, std::uint64_t elements, const Record& r) {
  const Summary s = summarize(r.samples);
  const KernelInfo& ki = info(k);
  const std::string label = fmt::format("{}:", ki.label);
  std::string flops = "-";
  std::string wa;
  for (const auto& f : r.figures) {
    if (f.name == "flops") flops = fmt::format("{:.2f}", f.value);
    if (f.name == "bandwidth_write_allocate") wa = fmt::format("  {:.2f}", f.value);
  }
  if (opt.write_allocate && wa.empty()) wa = "  -";
  std::printf("%-12s%12.2f  %-13s  %-11.6f  %-11.6f  %-11.6f  %-11.6f%s\n", label.c_str(),
              best_rate(opt, k, elements, s.min), flops.c_str(), s.mean, s.min, s.max, s.median, wa.c_str());
}

}  // namespace movebench::mem
