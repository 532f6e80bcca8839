#include "mem/mem_output.hpp"

#include <fmt/format.h>
#include <fmt/printf.h>

#include <algorithm>

#include "core/affinity.hpp"
#include "core/sizes.hpp"
#include "mem/measure.hpp"

// printf's formats, kept (fmt::sprintf): the text is TheBandwidthBenchmark's
// where it has one, and the integration tests read these tables.
namespace movebench::mem {

// ---- bandwidth ----

void write_setup(Output& out, const HostTableSetup& s) {
  const double bytes = static_cast<double>(s.elements) * s.element_bytes;
  out.text(fmt::sprintf("%d threads, placement %s, %s per array (%llu elements of %s)\n", s.threads, s.placement,
                        format_bytes(bytes), static_cast<unsigned long long>(s.elements), s.type));
  out.text(fmt::sprintf("Shapes (%s): %s\n",
                        s.calibration_s ? fmt::format("calibrated in {:.2f} s", *s.calibration_s)
                                        : fmt::format("--shape {}", s.forced_shape),
                        s.shapes));
  out.text(fmt::sprintf("Total allocated datasize: %.2f MB\n", 4.0 * bytes * 1e-6));
  for (const auto& p : s.placement_of_threads) {
    out.text(fmt::sprintf("thread %d running on CPU %d, affinity mask %s\n", p.thread, p.cpu, p.mask));
  }
}

void write_setup(Output& out, const DeviceTableSetup& s) {
  const double bytes = static_cast<double>(s.elements) * s.element_bytes;
  out.text(fmt::sprintf("Device memory of %s [%s backend], %s per array (%llu elements of %s)\n", s.device, s.backend,
                        format_bytes(bytes), static_cast<unsigned long long>(s.elements), s.type));
  const char* timing = s.timing == DeviceTiming::kHostSync
                           ? "Timed on the host clock per call, the queue finished after each (BabelStream's way)"
                           : "Timed on the device clock (events), rounds queued back to back";
  out.text(fmt::sprintf("%s; sum: %s\n", timing, s.reduction));
  out.text(fmt::sprintf("Total allocated datasize: %.2f MB\n", 4.0 * bytes * 1e-6));
}

void write_rule(Output& out) { out.text(std::string(92, '-') + "\n"); }

void write_table_header(Output& out, const MemOptions& opt) {
  const std::string rate = fmt::format("Rate({})", opt.unit_name());
  const std::string flops = fmt::format("Rate({})", opt.flop_unit());
  out.text(fmt::sprintf("%-12s%12s  %-13s  %-11s  %-11s  %-11s  %-11s%s\n", "Function", rate, flops, "Avg time",
                        "Min time", "Max time", "Med time", opt.write_allocate ? "  Rate+WA" : ""));
}

void write_table_row(Output& out, const MemOptions& opt, Kernel k, std::uint64_t elements, const Record& r) {
  const Summary s = summarize(r.samples);
  const std::string label = fmt::format("{}:", info(k).label);
  std::string flops = "-";
  std::string wa;
  for (const auto& f : r.figures) {
    if (f.name() == "flops") flops = fmt::format("{:.2f}", f.value());
    if (f.name() == "bandwidth_write_allocate") wa = fmt::format("  {:.2f}", f.value());
  }
  if (opt.write_allocate && wa.empty()) wa = "  -";
  out.text(fmt::sprintf("%-12s%12.2f  %-13s  %-11.6f  %-11.6f  %-11.6f  %-11.6f%s\n", label,
                        best_rate(opt, k, elements, s.min), flops, s.mean, s.min, s.max, s.median, wa));
}

void write_validation(Output& out, bool passed, const std::string& failure) {
  out.text(passed ? "Solution Validates\n" : "Solution does not validate: " + failure + "\n");
}

void write_scaling_table(Output& out, std::span<const Kernel> kernels, const std::vector<int>& counts,
                         const std::vector<std::vector<double>>& rates) {
  std::string text = fmt::sprintf("\n%-8s", "#nt");
  for (auto k : kernels) text += fmt::sprintf("%-10s", std::string(info(k).label));
  text += "\n";
  for (std::size_t i = 0; i < rates.size(); ++i) {
    text += fmt::sprintf("%-8d", counts[i]);
    for (double r : rates[i]) text += fmt::sprintf("%-10.0f", r);
    text += "\n";
  }
  out.text(text);
}

// ---- seq and tp ----

void write_sweep_heading(Output& out, const std::string& subject, std::size_t sizes, const std::string& outdir) {
  out.text(fmt::sprintf("Running memory hierarchy sweeps: %s, %zu sizes, data files in %s/\n", subject, sizes, outdir));
}

void write_sweep_kernel(Output& out, const KernelInfo& ki, const std::string& unit) {
  out.text(
      fmt::sprintf("Running kernel %s\n%14s %14s %12s %14s\n", std::string(ki.label), "N", "Dataset", unit, "Median"));
}

void write_sweep_row(Output& out, std::uint64_t n, const Record& r, bool passed) {
  out.text(fmt::sprintf("%14llu %14s %12.2f %12.2f%s\n", static_cast<unsigned long long>(n),
                        format_bytes(static_cast<double>(r.bytes)), r.figures[0].value(), r.figures[1].value(),
                        passed ? "" : "  VALIDATION FAILED"));
}

std::string data_file_header(const KernelInfo& ki) {
  // TheBandwidthBenchmark's header and columns, then the median and the
  // dataset size.
  if (ki.flops == 0) {
    return fmt::format(
        "# {}: {} words, no flops\n# N  Bytes(MB)  Rate(GB/s)  Avg time(s)  Min time(s)  Max time(s)  "
        "Median time(s)  Dataset(MB)\n",
        ki.label, ki.words());
  }
  return fmt::format(
      "# {}: {} words, {} flops\n# N  Bytes(MB)  Rate(GB/s)  Rate(GFlop/s)  Avg time(s)  Min time(s)  "
      "Max time(s)  Median time(s)  Dataset(MB)\n",
      ki.label, ki.words(), ki.flops);
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

// ---- latency and loaded latency ----

// The percentile columns of the latency tables (--percentiles): their heads, and a row's cells in ns.
std::string percentile_heads() {
  std::string columns;
  for (const auto& label : percentile_labels()) columns += fmt::sprintf(" %10s", label);
  return columns;
}

std::string percentile_cells(const Distribution* blocks) {
  std::string columns;
  if (blocks == nullptr) return columns;
  for (const auto& cell : blocks->cells(1e9)) columns += fmt::sprintf(" %10s", cell);
  return columns;
}

std::string tlb_window_text(std::uint64_t window) {
  return window == 0 ? "none (the whole working set)" : format_bytes(static_cast<double>(window));
}

void write_latency_heading(Output& out, std::uint64_t stride, std::uint64_t tlb_window, const std::string& chaser,
                           bool percentiles) {
  out.text(fmt::sprintf(
      "Memory latency: pointer chase through a random cyclic permutation, %llu B per node, TLB window %s, %s\n",
      static_cast<unsigned long long>(stride), tlb_window_text(tlb_window), chaser));
  out.text(fmt::sprintf("%14s %16s %16s%s\n", "Working set", "ns/load (min)", "ns/load (median)",
                        percentiles ? percentile_heads() : ""));
}

std::string latency_chaser(int cpu) { return cpu < 0 ? "1 thread" : fmt::format("1 thread on CPU {}", cpu); }

void write_latency_row(Output& out, std::uint64_t bytes, const Summary& per_load, bool cycle,
                       const Distribution* blocks) {
  out.text(fmt::sprintf("%14s %16.2f %16.2f%s%s\n", format_bytes(static_cast<double>(bytes)), per_load.min * 1e9,
                        per_load.median * 1e9, percentile_cells(blocks), cycle ? "" : "  NOT A SINGLE CYCLE"));
}

void write_latency_note(Output& out, std::string_view event, const SampleCounts& counts) {
  out.text(distribution_note(fmt::format("{} of loads, its time per load (one load is too short to time alone)", event),
                             counts, 1e9, "ns") +
           "\n");
}

void write_loaded_heading(Output& out, const LoadedLatencySetup& s) {
  const KernelInfo& ki = info(s.kernel);
  const int loaders = static_cast<int>(s.loader_cpus.size());
  std::vector<int> pinned = s.loader_cpus;
  pinned.erase(std::remove(pinned.begin(), pinned.end(), -1), pinned.end());
  out.text(fmt::sprintf("Loaded latency: pointer chase over %s (%llu B per node, TLB window %s) on %s\n",
                        format_bytes(static_cast<double>(s.chase_bytes)), static_cast<unsigned long long>(s.stride),
                        tlb_window_text(s.tlb_window),
                        s.chaser_cpu >= 0 ? fmt::format("CPU {}", s.chaser_cpu) : "an unpinned thread"));
  out.text(
      fmt::sprintf("Load: %s (%s) on %d thread%s%s, %llu elements of double per array per thread, %s chunks, "
                   "shape %s; delay: spin iterations after each chunk\n",
                   std::string(ki.name), std::string(ki.formula), loaders, loaders == 1 ? "" : "s",
                   pinned.empty() ? "" : fmt::format(" (CPU {})", format_cpu_list(pinned)),
                   static_cast<unsigned long long>(s.elements), format_bytes(static_cast<double>(s.chunk_bytes)),
                   std::string(shape_name(s.shape))));
  out.text(fmt::sprintf("%10s %14s %16s %16s%s\n", "Delay", "Load (MB/s)", "ns/load (min)", "ns/load (median)",
                        s.percentiles ? percentile_heads() : ""));
}

void write_loaded_row(Output& out, const LoadedPoint& p, double median_s, const Distribution* blocks) {
  out.text(fmt::sprintf("%10s %14.1f %16.2f %16.2f%s\n", delay_text(p.delay), p.bandwidth * 1e-6, p.latency * 1e9,
                        median_s * 1e9, percentile_cells(blocks)));
}

void write_knee(Output& out, const LoadedPoint& least, const LoadedPoint& most,
                const std::optional<LoadedPoint>& knee) {
  if (knee) {
    out.text(
        fmt::sprintf("Knee: %.1f MB/s of load at %.2f ns (delay %s); beyond it the latency (min) is more than "
                     "%.0f %% above the least-loaded %.2f ns\n",
                     knee->bandwidth * 1e-6, knee->latency * 1e9, delay_text(knee->delay), (kKneeRise - 1) * 100,
                     least.latency * 1e9));
  } else {
    out.text(
        fmt::sprintf("Knee: not reached; the latency (min) stays within %.0f %% of the least-loaded %.2f ns up "
                     "to %.1f MB/s of load\n",
                     (kKneeRise - 1) * 100, least.latency * 1e9, most.bandwidth * 1e-6));
  }
}

}  // namespace movebench::mem
