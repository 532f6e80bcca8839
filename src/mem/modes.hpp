// The modes of `movebench mem`; each fills the report and hands its results
// to mem_output.hpp's writer, which prints them through `out`.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/output.hpp"
#include "core/report.hpp"
#include "mem/mem_options.hpp"

namespace movebench::mem {

// TheBandwidthBenchmark's default mode on shared arrays, once per thread
// count; more than one count adds the scaling table (#nt Init Sum ...).
void run_bandwidth(const MemOptions& opt, Report& report, Output& out);
// seq: one thread over growing arrays; tp: every thread on private arrays.
// One data file per kernel in opt.outdir.
void run_sweep(const MemOptions& opt, Report& report, Output& out);

class Runner;
// The bodies of those modes on any runner (runner.hpp), shared by the host
// and the devices (device_runner.cpp):
// One table: a warm-up round and opt.repetitions timed rounds of every
// kernel on opt.elements per array, the validation, TheBandwidthBenchmark's
// table (`header` writes the lines between its first two rules), a record
// per kernel and the results mem.<kernel>.<result_suffix>. Returns the best
// bandwidth of each kernel; empty when a signal came before a timed round.
std::vector<double> run_table(const MemOptions& opt, Runner& runner, const std::string& result_suffix,
                              const std::function<void(Output&)>& header, Report& report, Output& out);
// The sweep over opt.sweep_sizes; `subject` completes "Running memory
// hierarchy sweeps: ", `progress` names it on the progress line.
void run_sweep_on(const MemOptions& opt, Runner& runner, const std::string& subject, const std::string& progress,
                  Report& report, Output& out);
// Pointer-chase latency over growing working sets.
void run_latency(const MemOptions& opt, Report& report, Output& out);
// Pointer-chase latency on one CPU while the others run a kernel at a
// series of injection rates, idle to full (loaded_latency.cpp).
void run_loaded_latency(const MemOptions& opt, Report& report, Output& out);

}  // namespace movebench::mem
