// What the modes of `movebench mem` share: building the team, choosing
// streaming stores, turning samples into a record, printing the table.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/report.hpp"
#include "mem/mem_options.hpp"
#include "mem/team.hpp"

namespace movebench::mem {

Team make_team(const MemOptions& opt, int threads, bool nt);

// Streaming stores for a dataset: on/off as asked, or with "auto" when the
// dataset does not fit in the last-level cache (where write-allocate traffic
// is real and bypassing the cache pays).
bool use_nontemporal(const MemOptions& opt, std::uint64_t dataset_bytes);

// Kernels to run, in the seed's order.
std::vector<Kernel> selected_kernels(const MemOptions& opt);

// A record for one kernel: samples are seconds per call of `elements`
// elements per array (over all threads).
Record kernel_record(const MemOptions& opt, Kernel k, std::uint64_t elements, int threads, bool nt,
                     std::vector<double> per_call_seconds);

// Bandwidth (in opt.unit) of `elements` per array moved in `seconds`, as the
// seed counts the kernel's traffic.
double best_rate(const MemOptions& opt, Kernel k, std::uint64_t elements, double seconds);

// The seed's table: Function, Rate, Rate(flops), Avg, Min, Max, then the
// median (and the write-allocate rate when asked).
void print_table_header(const MemOptions& opt);
void print_table_row(const MemOptions& opt, Kernel k, std::uint64_t elements, const Record& r);
void print_rule();

}  // namespace movebench::mem
