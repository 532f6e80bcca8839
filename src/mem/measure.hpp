// What the modes of `movebench mem` share: building the team, choosing
// streaming stores, turning samples into a record (mem_output.hpp prints it).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/report.hpp"
#include "mem/mem_options.hpp"
#include "mem/team.hpp"

namespace movebench::mem {

// A team placed as asked; every kernel's shape is plain until choose_shapes.
Team make_team(const MemOptions& opt, int threads);

// Sets the shape of every kernel in `kernels` on the team: the one forced by
// --shape, or the fastest candidate of a short calibration on this
// workspace (bounded by kCalibrationBudget; it changes the arrays, so the
// workspace is initialised again after it). Returns the calibration's facts
// for the header and the result file (empty when --shape forced one).
inline constexpr double kCalibrationBudget = 0.3;  // seconds, all kernels together
template <class T>
Calibration choose_shapes(const MemOptions& opt, Workspace<T>& ws, Team& team, std::span<const Kernel> kernels);
// The test-only damage of --corrupt-for-test (mem_options.hpp); returns the
// call count the check is to expect.
template <class T>
std::uint64_t corrupt_for_test(const MemOptions& opt, Workspace<T>& ws, std::uint64_t calls);

// "copy page-nt, triad nt, ..." and the JSON of a calibration.
std::string describe_shapes(const Team& team, std::span<const Kernel> kernels);
nlohmann::json calibration_json(const Calibration& c, const Team& team, std::span<const Kernel> kernels,
                                const MemOptions& opt);

// Kernels to run, in TheBandwidthBenchmark's order.
std::vector<Kernel> selected_kernels(const MemOptions& opt);

// A record for one kernel: samples are seconds per call of `elements`
// elements per array (over all threads); `params` are the runner's
// (Runner::params), `nontemporal` whether its stores streamed.
Record kernel_record(const MemOptions& opt, Kernel k, std::uint64_t elements, nlohmann::json params, bool nontemporal,
                     std::vector<double> per_call_seconds);

// Bandwidth (in opt.unit) of `elements` per array moved in `seconds`, as
// TheBandwidthBenchmark counts the kernel's traffic.
double best_rate(const MemOptions& opt, Kernel k, std::uint64_t elements, double seconds);

}  // namespace movebench::mem
