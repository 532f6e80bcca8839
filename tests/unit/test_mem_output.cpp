// mem's writer (mem_output.hpp) on results made by hand, through a
// CapturedOutput: TheBandwidthBenchmark's table and data-file lines, the
// sweeps', latency's and loaded latency's tables, byte for byte what mem
// printed before. The table rows are of records made by kernel_record, so
// the row and the record it comes from cannot drift apart.
#include <gtest/gtest.h>

#include "core/output.hpp"
#include "mem/measure.hpp"
#include "mem/mem_output.hpp"

using namespace movebench;
using namespace movebench::mem;

TEST(MemOutput, TableHeaderAndRowsOfKernelRecords) {
  CapturedOutput out;
  MemOptions opt;  // MB/s, double
  write_table_header(out, opt);
  // Triad moves 3 words of 8 bytes per element: 24000 B of 1000 elements in
  // the best 1 us = 24000 MB/s; 2 flops per element: 2000 MFlop/s.
  const Record triad = kernel_record(opt, Kernel::kTriad, 1000, {}, false, {2e-6, 1e-6, 3e-6});
  write_table_row(out, opt, Kernel::kTriad, 1000, triad);
  // Copy has no flops: "-".
  const Record copy = kernel_record(opt, Kernel::kCopy, 1000, {}, false, {1e-6});
  write_table_row(out, opt, Kernel::kCopy, 1000, copy);
  EXPECT_EQ(out.out,
            "Function      Rate(MB/s)  Rate(MFlop/s)  Avg time     Min time     Max time     Med time   \n"
            "Triad:          24000.00  2000.00        0.000002     0.000001     0.000003     0.000002   \n"
            "Copy:           16000.00  -              0.000001     0.000001     0.000001     0.000001   \n");
}

TEST(MemOutput, WriteAllocateColumnOnlyWhereTheKernelHasIt) {
  CapturedOutput out;
  MemOptions opt;
  opt.write_allocate = true;
  opt.unit = RateUnit::kGigabytes;
  write_table_header(out, opt);
  EXPECT_TRUE(out.out.ends_with("Med time     Rate+WA\n")) << out.out;
  EXPECT_NE(out.out.find("Rate(GB/s)  Rate(GFlop/s)"), std::string::npos) << out.out;
  out.out.clear();
  // Triad with write-allocate: 4 words per element, 32 GB/s at 1 ns each.
  write_table_row(out, opt, Kernel::kTriad, 1000, kernel_record(opt, Kernel::kTriad, 1000, {}, false, {1e-6}));
  EXPECT_TRUE(out.out.ends_with("  32.00\n")) << out.out;
  out.out.clear();
  // Streaming stores read no line first: no write-allocate figure, "-".
  write_table_row(out, opt, Kernel::kTriad, 1000, kernel_record(opt, Kernel::kTriad, 1000, {}, true, {1e-6}));
  EXPECT_TRUE(out.out.ends_with("  -\n")) << out.out;
}

TEST(MemOutput, SetupLinesOfTheHostAndOfADevice) {
  CapturedOutput out;
  HostTableSetup host;
  host.threads = 2;
  host.placement = "close";
  host.elements = 262144;
  host.type = "double";
  host.calibration_s = 0.314;
  host.shapes = "init page, triad nt";
  host.placement_of_threads = {{0, 0, "0"}, {1, 1, "1"}};
  write_setup(out, host);
  EXPECT_EQ(out.out,
            "2 threads, placement close, 2.00 MiB per array (262144 elements of double)\n"
            "Shapes (calibrated in 0.31 s): init page, triad nt\n"
            "Total allocated datasize: 8.39 MB\n"
            "thread 0 running on CPU 0, affinity mask 0\n"
            "thread 1 running on CPU 1, affinity mask 1\n");
  out.out.clear();
  host.calibration_s.reset();  // --shape forced them
  host.forced_shape = "nt";
  host.placement_of_threads.clear();
  write_setup(out, host);
  EXPECT_NE(out.out.find("\nShapes (--shape nt): init page, triad nt\n"), std::string::npos) << out.out;
  EXPECT_EQ(out.out.find("running on CPU"), std::string::npos);
  out.out.clear();
  write_setup(out, DeviceTableSetup{"NVIDIA H100", "cuda", 33554432, 8, "double", "one partial per block"});
  EXPECT_EQ(out.out,
            "Device memory of NVIDIA H100 [cuda backend], 256.00 MiB per array (33554432 elements of double)\n"
            "Timed on the device clock (events), rounds queued back to back; sum: one partial per block\n"
            "Total allocated datasize: 1073.74 MB\n");
}

TEST(MemOutput, RuleValidationAndScalingTable) {
  CapturedOutput out;
  write_rule(out);
  EXPECT_EQ(out.out, std::string(92, '-') + "\n");
  out.out.clear();
  write_validation(out, true, "ignored when it passed");
  write_validation(out, false, "copy at N=1024: element 7 is 3, not 5");
  EXPECT_EQ(out.out, "Solution Validates\nSolution does not validate: copy at N=1024: element 7 is 3, not 5\n");
  out.out.clear();
  const Kernel kernels[] = {Kernel::kInit, Kernel::kTriad};
  write_scaling_table(out, kernels, {1, 2}, {{22.3, 13.6}, {61, 83}});
  EXPECT_EQ(out.out,
            "\n#nt     Init      Triad     \n"
            "1       22        14        \n"
            "2       61        83        \n");
}

TEST(MemOutput, SweepTableAndDataFileLines) {
  CapturedOutput out;
  MemOptions opt;
  write_sweep_heading(out, "sequential, 1 thread", 9, "dat");
  write_sweep_kernel(out, info(Kernel::kCopy), opt.unit_name());
  // Copy of 1024 elements: 2 arrays of 8 KiB; 16384 B in 1 us.
  const Record r = kernel_record(opt, Kernel::kCopy, 1024, {}, false, {1e-6});
  write_sweep_row(out, 1024, r, true);
  write_sweep_row(out, 1024, r, false);
  EXPECT_EQ(out.out,
            "Running memory hierarchy sweeps: sequential, 1 thread, 9 sizes, data files in dat/\n"
            "Running kernel Copy\n"
            "             N        Dataset         MB/s         Median\n"
            "          1024      16.00 KiB     16384.00     16384.00\n"
            "          1024      16.00 KiB     16384.00     16384.00  VALIDATION FAILED\n");
  EXPECT_EQ(data_file_header(info(Kernel::kCopy)),
            "# Copy: 2 words, no flops\n# N  Bytes(MB)  Rate(GB/s)  Avg time(s)  Min time(s)  Max time(s)  "
            "Median time(s)  Dataset(MB)\n");
  EXPECT_TRUE(data_file_header(info(Kernel::kTriad)).starts_with("# Triad: 3 words, 2 flops\n"));
  Summary s;
  s.min = 1e-5;
  s.mean = 2e-5;
  s.median = 2e-5;
  s.max = 3e-5;
  // 10 calls a sample: 163840 B in the best 10 us = 16.38 GB/s.
  EXPECT_EQ(data_file_line(info(Kernel::kCopy), 1024, 1024, 8, 10, s),
            "1024     0.01638       16.38    0.000020     0.000010     0.000030     0.000020      0.01638\n");
}

TEST(MemOutput, LatencyTable) {
  CapturedOutput out;
  write_latency_heading(out, 64, 0, latency_chaser(3));
  Summary per_load;
  per_load.min = 1.5e-9;
  per_load.median = 2.25e-9;
  write_latency_row(out, 65536, per_load, true);
  write_latency_row(out, 65536, per_load, false);
  EXPECT_EQ(out.out,
            "Memory latency: pointer chase through a random cyclic permutation, 64 B per node, TLB window none (the "
            "whole working set), 1 thread on CPU 3\n"
            "   Working set    ns/load (min) ns/load (median)\n"
            "     64.00 KiB             1.50             2.25\n"
            "     64.00 KiB             1.50             2.25  NOT A SINGLE CYCLE\n");
  out.out.clear();
  write_latency_heading(out, 128, 256 * 1024, latency_chaser(-1));  // unpinned, a TLB window
  EXPECT_TRUE(
      out.out.starts_with("Memory latency: pointer chase through a random cyclic permutation, 128 B per node, "
                          "TLB window 256.00 KiB, 1 thread\n"))
      << out.out;
}

TEST(MemOutput, LoadedLatencyTableAndKnee) {
  CapturedOutput out;
  LoadedLatencySetup s;
  s.chase_bytes = 1 << 20;
  s.chaser_cpu = 0;
  s.loader_cpus = {1, -1};  // one pinned, one not: the CPU list names the pinned
  s.elements = 65536;
  s.chunk_bytes = 16384;
  write_loaded_heading(out, s);
  write_loaded_row(out, {kIdleLoad, 0.5e6, 80e-9}, 90e-9);
  write_loaded_row(out, {500, 4000e6, 120e-9}, 130e-9);
  EXPECT_EQ(out.out,
            "Loaded latency: pointer chase over 1.00 MiB (64 B per node, TLB window none (the whole working set)) on "
            "CPU 0\n"
            "Load: triad (a = b + c * s) on 2 threads (CPU 1), 65536 elements of double per array per thread, "
            "16.00 KiB chunks, shape plain; delay: spin iterations after each chunk\n"
            "     Delay    Load (MB/s)    ns/load (min) ns/load (median)\n"
            "      idle            0.5            80.00            90.00\n"
            "       500         4000.0           120.00           130.00\n");
  out.out.clear();
  s.chaser_cpu = -1;
  s.loader_cpus = {-1};
  write_loaded_heading(out, s);
  EXPECT_NE(out.out.find(") on an unpinned thread\nLoad: triad (a = b + c * s) on 1 thread, 65536"), std::string::npos)
      << out.out;
  out.out.clear();
  const LoadedPoint least{kIdleLoad, 1e6, 80e-9}, most{0, 9000e6, 200e-9};
  write_knee(out, least, most, LoadedPoint{1000, 5000e6, 90e-9});
  write_knee(out, least, most, std::nullopt);
  EXPECT_EQ(out.out,
            "Knee: 5000.0 MB/s of load at 90.00 ns (delay 1000); beyond it the latency (min) is more than 20 % above "
            "the least-loaded 80.00 ns\n"
            "Knee: not reached; the latency (min) stays within 20 % of the least-loaded 80.00 ns up to 9000.0 MB/s "
            "of load\n");
}
