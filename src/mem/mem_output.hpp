// The text of `movebench mem`, as functions of what was measured, through
// an Output (core/output.hpp): TheBandwidthBenchmark's table and its data
// files' lines, the sweeps' and the latency modes' tables. The modes
// (bandwidth.cpp, device_runner.cpp, sweep.cpp, latency.cpp,
// loaded_latency.cpp) hand their results to these and print nothing
// themselves; the unit tests call them on results made by hand.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/distribution.hpp"
#include "core/output.hpp"
#include "core/report.hpp"
#include "core/stats.hpp"
#include "mem/kernels.hpp"
#include "mem/loaded_latency.hpp"
#include "mem/mem_options.hpp"
#include "mem/team.hpp"

namespace movebench::mem {

// ---- bandwidth: TheBandwidthBenchmark's table ----

// The lines between the table's first two rules, on the host: the team,
// its arrays and the loop shapes it runs.
struct HostTableSetup {
  int threads = 1;
  std::string placement;       // Placement::describe()
  std::uint64_t elements = 0;  // per array
  int element_bytes = 8;
  std::string type;                                   // "double"
  std::optional<double> calibration_s;                // none: --shape forced the shapes
  std::string forced_shape;                           // --shape's value, when it forced them
  std::string shapes;                                 // describe_shapes: "init plain, copy nt, ..."
  std::vector<ThreadPlacement> placement_of_threads;  // --verbose-affinity's lines; empty: none
};
// The same on a device: its memory, its clock, how sum reduces.
struct DeviceTableSetup {
  std::string device, backend;
  std::uint64_t elements = 0;
  int element_bytes = 8;
  std::string type, reduction;
  DeviceTiming timing = DeviceTiming::kDevice;
};
void write_setup(Output& out, const HostTableSetup& s);
void write_setup(Output& out, const DeviceTableSetup& s);
void write_rule(Output& out);
// Function, Rate, Rate(flops), Avg, Min, Max, then the median (and the
// write-allocate rate when asked); a row is one kernel's record
// (kernel_record) of `elements` per array.
void write_table_header(Output& out, const MemOptions& opt);
void write_table_row(Output& out, const MemOptions& opt, Kernel k, std::uint64_t elements, const Record& r);
// "Solution Validates", or "Solution does not validate: <failure>": the
// last line of every mode.
void write_validation(Output& out, bool passed, const std::string& failure);
// More than one thread count: the best rate of each kernel per count.
void write_scaling_table(Output& out, std::span<const Kernel> kernels, const std::vector<int>& counts,
                         const std::vector<std::vector<double>>& rates);

// ---- seq and tp: the sweeps ----

void write_sweep_heading(Output& out, const std::string& subject, std::size_t sizes, const std::string& outdir);
void write_sweep_kernel(Output& out, const KernelInfo& ki, const std::string& unit);
// One size: N, the dataset, the record's bandwidth (best and median).
void write_sweep_row(Output& out, std::uint64_t n, const Record& r, bool passed);
// TheBandwidthBenchmark's dat/<Kernel>.dat: its header and one line per
// size, `s` being of the samples of `iters` calls each.
std::string data_file_header(const KernelInfo& ki);
std::string data_file_line(const KernelInfo& ki, std::uint64_t n, std::uint64_t total_elements, int eb,
                           std::size_t iters, const Summary& s);

// ---- latency and loaded latency ----

// "none (the whole working set)" or the window's size, as the headers print it.
std::string tlb_window_text(std::uint64_t window);
// chaser: what chased, where ("1 thread on CPU 3"; latency_chaser). `percentiles`:
// the P50, P90, P99, P99.9 and max columns (--percentiles).
void write_latency_heading(Output& out, std::uint64_t stride, std::uint64_t tlb_window, const std::string& chaser,
                           bool percentiles = false);
// "1 thread on CPU 3", or "1 thread" when not pinned (cpu -1).
std::string latency_chaser(int cpu);
// One working set: seconds per load (min and median of the samples), and
// whether its ring was one cycle; with `blocks`, its percentile columns
// (n/a where the sample count cannot support one: core/distribution).
void write_latency_row(Output& out, std::uint64_t bytes, const Summary& per_load, bool cycle,
                       const Distribution* blocks = nullptr);
// Under the table with percentile columns: what one sample is, the clock's cost.
void write_latency_note(Output& out, std::string_view event, const SampleCounts& counts);

// What loaded latency runs where.
struct LoadedLatencySetup {
  std::uint64_t chase_bytes = 0, stride = 64, tlb_window = 0;
  int chaser_cpu = -1;  // -1: not pinned
  Kernel kernel = Kernel::kTriad;
  std::vector<int> loader_cpus;  // one per loader, -1 when not pinned
  std::uint64_t elements = 0;    // of double, per array per loader
  std::size_t chunk_bytes = 0;   // per kernel call
  Shape shape = Shape::kPlain;
  bool percentiles = false;  // the P50 ... max columns (--percentiles)
};
void write_loaded_heading(Output& out, const LoadedLatencySetup& s);
// One level of load: the point (its latency the min) and the median; with
// `blocks`, its percentile columns as write_latency_row's.
void write_loaded_row(Output& out, const LoadedPoint& p, double median_s, const Distribution* blocks = nullptr);
// The knee (knee_index) or, when none, how far the load went.
void write_knee(Output& out, const LoadedPoint& least, const LoadedPoint& most, const std::optional<LoadedPoint>& knee);

}  // namespace movebench::mem
