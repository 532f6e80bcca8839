// The modes of `movebench mem`; each fills the report and prints its text.
#pragma once
#include <cstdint>
#include <string>

#include "core/report.hpp"
#include "mem/mem_options.hpp"

namespace movebench::mem {

// TheBandwidthBenchmark's default mode on shared arrays, once per thread
// count; more than one count adds the scaling table (#nt Init Sum ...).
void run_bandwidth(const MemOptions& opt, Report& report);
// seq: one thread over growing arrays; tp: every thread on private arrays.
// One data file per kernel in opt.outdir.
void run_sweep(const MemOptions& opt, Report& report);
// Pointer-chase latency over growing working sets.
void run_latency(const MemOptions& opt, Report& report);
// Pointer-chase latency on one CPU while the others run a kernel at a
// series of injection rates, idle to full (loaded_latency.cpp).
void run_loaded_latency(const MemOptions& opt, Report& report);
// "none (the whole working set)" or the window's size, as the header prints it.
std::string tlb_window_text(std::uint64_t window);

}  // namespace movebench::mem
