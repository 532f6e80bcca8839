// link's writer (link_output.hpp) on results made by hand, through a
// CapturedOutput: the text is a function of the results alone, byte for
// byte what link printed before (hdl_single_engine's lines included), the
// failed checks on stderr.
#include <gtest/gtest.h>

#include "core/output.hpp"
#include "link/link_output.hpp"

using namespace movebench;
using namespace movebench::link;

namespace {

// 4096 B in 1 us and in 2 us: 4096 and 2048 MB/s per test; all bytes over
// all time 8192 B / 3 us = 2730.7 MB/s; population variance 1024^2.
Series two_tests(std::string operation) { return Series{std::move(operation), 4096, {1e-6, 2e-6}, {}}; }

}  // namespace

TEST(LinkOutput, HeadingNamesTheCombinationAndItsColumns) {
  CapturedOutput out;
  LinkOptions o;
  o.repetitions = 3;
  o.batch = 8;
  write_combo_heading(out, {Direction::kRead, Path::kCopy, MemKind::kPinned}, o);
  EXPECT_EQ(out.out,
            "\n== link copy read, pinned host memory, 3 tests of 8 transfers per size (the first untimed), as many as "
            "fit 0.1 s ==\n"
            "       bytes  tests     avg MB/s     min MB/s     max MB/s       variance  median MB/s  series\n");
  out.out.clear();
  o.batch = 1;  // no untimed first transfer to mention; duplex says what its total is
  write_combo_heading(out, {Direction::kDuplex, Path::kKernel, MemKind::kMapped}, o);
  EXPECT_TRUE(
      out.out.starts_with("\n== link kernel duplex, mapped host memory, 3 tests of 1 transfers per size, as "
                          "many as fit 0.1 s ==\n"))
      << out.out;
  EXPECT_TRUE(out.out.ends_with("(total: both directions over the span from the first start to the last end)\n"));
  EXPECT_TRUE(out.err.empty());
}

TEST(LinkOutput, RowIsTheSeriesStatisticsAndNothingWithoutTests) {
  CapturedOutput out;
  write_size_row(out, 4096, two_tests("copy.read"));
  EXPECT_EQ(out.out,
            "        4096      2       2730.7       2048.0       4096.0    1048576.000       3072.0  copy.read\n");
  out.out.clear();
  Series total{"copy.duplex.total", 8192, {2e-6, 2e-6}, {0.25, 0.5, 0.75}, 2};
  write_size_row(out, 4096, total);
  EXPECT_EQ(out.out,
            "        4096      2       4096.0       4096.0       4096.0          0.000       4096.0  "
            "copy.duplex.total (overlap 0.50)\n");
  out.out.clear();
  write_size_row(out, 4096, Series{"copy.read", 4096, {}, {}});
  EXPECT_EQ(out.out, "");
}

TEST(LinkOutput, EngineLinesAreHdlSingleEnginesOfTheLastSize) {
  CapturedOutput out;
  write_engine_lines(out, {Direction::kRead, Path::kCopy, MemKind::kPinned}, {two_tests("copy.read")});
  EXPECT_EQ(out.out,
            "Read (Host->Device) average bandwidth: 8192 bytes in 3 usec ( 2730.667 MB/s )\n"
            "Read (Host->Device) bandwidth min, max and variance: 8192 bytes in 3 usec ( 2048.000 MB/s, 4096.000 "
            "MB/s, 1048576.000 )\n"
            "Read (Host->Device) bandwidth median: 3072.000 MB/s over 2 tests\n");
  out.out.clear();
  // Duplex: one block per series with tests, labelled with its operation.
  write_engine_lines(out, {Direction::kDuplex, Path::kCopy, MemKind::kPinned},
                     {two_tests("copy.duplex.read"), Series{"copy.duplex.write", 4096, {}, {}}});
  EXPECT_TRUE(out.out.starts_with("Duplex copy.duplex.read average bandwidth: 8192 bytes")) << out.out;
  EXPECT_EQ(out.out.find("copy.duplex.write"), std::string::npos);
}

TEST(LinkOutput, FailedChecksGoToTheProblemStream) {
  CapturedOutput out;
  write_bandwidth_failed(out, two_tests("copy.read"), 4096, MemKind::kPinned, "slot 0 differs");
  write_write_failed(out);
  write_roundtrip_failed(out, 64, 3, 7);
  EXPECT_EQ(out.out, "");
  EXPECT_EQ(out.err,
            "movebench link: validation FAILED: copy.read 4096 B (pinned): slot 0 differs\n"
            "movebench link: validation FAILED: a word the device wrote into host memory is wrong\n"
            "movebench link: validation FAILED: round trip 64 B, round 3: word 7 is wrong\n");
}

TEST(LinkOutput, SkippedPathsSayWhy) {
  CapturedOutput out;
  write_kernel_skipped(out, MemKind::kPinned, "opencl");
  write_chase_skipped(out, "opencl");
  EXPECT_EQ(out.out,
            "\n(link kernel path skipped for pinned memory: opencl kernels are not given it)\n"
            "\n(link latency chase skipped: opencl kernels reach none of the host memory kinds asked for)\n");
}

TEST(LinkOutput, ChaseLinesAndWhatIsBelowTheClocksResolution) {
  CapturedOutput out;
  write_chase(out, {MemKind::kPinned, "device clock", 10, 812.25, 640.5, 256});
  EXPECT_EQ(out.out,
            "\n== link latency from the device through pinned host memory (device clock, T(n) - T(0)) ==\n"
            "first word:                 812.2 ns (median of 10)\n"
            "256 dependent words:    163968.0 ns in all, 640.5 ns per word\n");
  out.out.clear();
  // At or below zero: no figure, the clock named instead.
  write_chase(out, {MemKind::kMapped, "host clock", 5, 0, -1, 16});
  EXPECT_EQ(out.out,
            "\n== link latency from the device through mapped host memory (host clock, T(n) - T(0)) ==\n"
            "first word:            below the resolution of the host clock (T(1) - T(0) <= 0 over 5 samples)\n"
            "16 dependent words:  below the resolution of the host clock (T(n) - T(0) <= 0 over 5 samples)\n");
}

TEST(LinkOutput, WriteLatencyLinesAndRoundTrips) {
  CapturedOutput out;
  write_write_latency(out, {MemKind::kPinned, "device clock", 10, 950, 0, 4096});
  EXPECT_EQ(out.out,
            "\n== link write latency from the device into pinned host memory (device clock, T(n) - T(0)) ==\n"
            "first word written:         950.0 ns (median of 10)\n"
            "4096 B written:        below the resolution of the device clock\n");
  out.out.clear();
  write_roundtrip_heading(out, MemKind::kPinned);
  Summary s;
  s.median = 12.5e-6;
  s.min = 10e-6;
  s.count = 100;
  write_roundtrip_row(out, 64, s);
  write_validation_line(out, false);
  write_validation_line(out, true);
  EXPECT_EQ(out.out,
            "\n== link small-copy round trip (pinned host memory, host clock) ==\n"
            "        64 B: median      12.50 us, min      10.00 us over 100 round trips\n"
            "\nvalidation: PASSED\n"
            "\nvalidation: FAILED\n");
}

TEST(LinkOutput, ChasePerUnitIsOneLineOfItsSpread) {
  CapturedOutput out;
  UnitChaseResult r{MemKind::kMapped, "gpu clock", "SM", 256, 132, {}, {}};
  r.spread = {132, 1103.1, 1110.04, {12, 1080.2}, {97, 1190.5}};
  write_unit_chase(out, r);
  EXPECT_EQ(out.out,
            "\n== link latency chase from each SM in turn through mapped host memory (gpu clock, T(n) - T(0)) ==\n"
            "256 dependent words from 132 SMs: median 1103.1 ns per word, fastest 1080.2 (SM 12), slowest 1190.5 (SM "
            "97), mean 1110.0 (each one in the JSON)\n");
  out.out.clear();
  // Some below the clock's resolution, some never reached: counted, not hidden.
  r = {MemKind::kMapped, "opencl event profiling", "work-group", 16, 3, {4}, {}};
  r.spread = {2, 50, 50, {0, 40}, {2, 60}};
  write_unit_chase(out, r);
  EXPECT_TRUE(
      out.out.ends_with("16 dependent words from 3 work-groups: median 50.0 ns per word, fastest 40.0 "
                        "(work-group 0), slowest 60.0 (work-group 2), mean 50.0; 1 below the clock's "
                        "resolution; 1 not reached by any launch (each one in the JSON)\n"))
      << out.out;
  out.out.clear();
  r.spread = {};
  write_unit_chase(out, r);
  EXPECT_TRUE(
      out.out.ends_with("16 dependent words from 3 work-groups: below the resolution of the opencl event "
                        "profiling on every one; 1 not reached by any launch (each one in the JSON)\n"))
      << out.out;
  out.out.clear();
  write_unit_chase_skipped(out, "the host backend has no units to place it on");
  EXPECT_EQ(out.out, "\n(link latency chase per unit skipped: the host backend has no units to place it on)\n");
}
