// The writers of beff, coll and p2p: their text from hand-made results,
// caught by a CapturedOutput. Where an upstream tool's own output is at
// hand (tests/data/peers) the text is compared with it; elsewhere with what
// the earlier printf calls printed (their formats, through snprintf).
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/output.hpp"
#include "beff/beff_output.hpp"
#include "coll/coll_output.hpp"
#include "p2p/p2p_output.hpp"

namespace movebench::net {
namespace {

// What printf would have printed.
std::string c_printf(const char* format, ...) {
  va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  std::string out(static_cast<std::size_t>(std::vsnprintf(nullptr, 0, format, args)), '\0');
  std::vsnprintf(out.data(), out.size() + 1, format, again);
  va_end(again);
  va_end(args);
  return out;
}

std::vector<std::string> peer_lines(const std::string& name) {
  std::ifstream in(std::string(MOVEBENCH_TEST_DATA) + "/peers/" + name);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line + "\n");
  return lines;
}

// ---- p2p ----

TEST(P2pOutput, TableIsOsusWithOurTitle) {
  CapturedOutput out;
  P2pWriter w(out);
  w.heading("Latency Test", 0, 3, true);
  w.row(1, 0.28);
  w.row(4194304, 312.456);
  EXPECT_EQ(out.out,
            "\n# movebench p2p: OSU MPI Latency Test style, ranks 0 and 3\n# Datatype: MPI_CHAR.\n"
            "# Size       Avg Latency(us)\n"
            "1                       0.28\n"
            "4194304               312.46\n");
  EXPECT_EQ(out.err, "");
  // Below our title, as osu_latency 7.4 prints it (tests/data/peers/osu_latency.txt):
  // the datatype, the header and its first row.
  const auto osu = peer_lines("osu_latency.txt");
  ASSERT_GE(osu.size(), 5u);
  ASSERT_EQ(osu[1], "# OSU MPI Latency Test v7.4\n");
  EXPECT_NE(out.out.find(osu[2] + osu[3] + osu[4]), std::string::npos) << out.out;
}

TEST(P2pOutput, TailColumnsAreOsuZsThenOurs) {
  // osu_latency -z 7.4 (tests/data/peers/osu_latency_z.txt): its header, then P99.9 and the max.
  const auto osu = peer_lines("osu_latency_z.txt");
  ASSERT_GE(osu.size(), 4u);
  const std::string header = osu_header("latency", true);
  EXPECT_EQ(header.substr(0, osu[3].size() - 1), osu[3].substr(0, osu[3].size() - 1));
  EXPECT_EQ(header.substr(osu[3].size() - 1), "  P99.9 Tail Lat(us)       Max Lat(us)");
  EXPECT_EQ(osu_tail_cells({{true, 0.339}, {true, 0.44}, {true, 0.53}, {false, 0}, {true, 12.5}}),
            "              0.34              0.44              0.53                 n/a             12.50");
}

TEST(P2pOutput, BandwidthHeadingNamesBandwidth) {
  EXPECT_EQ(osu_heading("Bi-Directional Bandwidth Test", 1, 0, false),
            "\n# movebench p2p: OSU MPI Bi-Directional Bandwidth Test style, ranks 1 and 0\n# Datatype: MPI_CHAR.\n"
            "# Size      Bandwidth (MB/s)\n");
}

// ---- coll ----

TEST(CollOutput, StartStepAndEndAreMpiBenchs) {
  // tests/data/peers/mpibench-np2-default.txt: its first four lines and last two.
  const auto sample = peer_lines("mpibench-np2-default.txt");
  ASSERT_GE(sample.size(), 6u);
  CapturedOutput out;
  CollWriter w(out);
  w.start({"vm", "vm"});
  Summary t;
  t.min = 0.3480e-6;
  t.mean = 0.3483e-6;
  t.max = 0.3485e-6;
  w.step({"Barrier", 0, 1000, t, "MPI_COMM_WORLD", 2});
  // -e 256K on 2 ranks: send and receive of 256 KiB times 2 ranks each.
  w.end(2 * 65536 * 2);
  EXPECT_EQ(out.out, sample[0] + sample[1] + sample[2] + sample[3] + sample[sample.size() - 2] + sample.back());
  EXPECT_EQ(out.err, "");
}

TEST(CollOutput, TailsAreTheMeanTheSlowestAndEachRank) {
  // Rank 1 is slower in iteration 2 only: the slowest rank's per iteration
  // is the max, OSU -z's the mean.
  const std::vector<std::vector<double>> ranks{{1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6},
                                               {1e-6, 9e-6, 1e-6, 1e-6, 1e-6, 1e-6}};
  const CollTails t = coll_tails(ranks);
  EXPECT_EQ(t.mean.count(), 6u);
  EXPECT_NEAR(t.mean.max_seconds(), 5e-6, 5e-9);
  EXPECT_NEAR(t.slowest.max_seconds(), 9e-6, 9e-9);
  ASSERT_EQ(t.ranks.size(), 2u);
  EXPECT_EQ(t.ranks[1].event(), "iteration on rank 1");
  const auto json = coll_tails_json(t);
  EXPECT_EQ(json["per_rank"].size(), 2u);
  EXPECT_EQ(json["count"], 6);
  const std::string line = mpibench_tails(t);
  EXPECT_EQ(line.rfind("# percentiles (us): ranks' mean P50 ", 0), 0u) << line;
  EXPECT_NE(line.find("; slowest rank P50 "), std::string::npos) << line;
  EXPECT_NE(line.find(" Max 9"), std::string::npos) << line;
}

TEST(CollOutput, BuffersAreWholeKibibytes) {
  EXPECT_EQ(mpibench_end(1023), "Message buffers (KB):\t0\nEND mpiBench\n");
  EXPECT_EQ(mpibench_end(3 * 1024 + 1), "Message buffers (KB):\t3\nEND mpiBench\n");
}

// ---- beff ----

TEST(BeffOutput, FpgaTableAsPrintfPrintedIt) {
  CapturedOutput out;
  BeffWriter w(out);
  w.fpga_begin(4);
  w.fpga_size({1, 65536, 1.234567e-2, 4.2472e7});
  w.fpga_size({1048576, 256, 3.5e-1, 6.1e9});
  w.fpga_end(3.0716e9);
  const std::string expected =
      c_printf("\n# b_eff, HPCC FPGA definition, %d ranks in a ring\n%20s   %20s   %20s   %20s\n", 4, "MSize",
               "looplength", "transfer", "B/s") +
      c_printf("%20llu   %20u   %20.5e   %20.5e\n", 1ull, 65536u, 1.234567e-2, 4.2472e7) +
      c_printf("%20llu   %20u   %20.5e   %20.5e\n", 1048576ull, 256u, 3.5e-1, 6.1e9) +
      c_printf("\nb_eff = %.5e B/s\n", 3.0716e9);
  EXPECT_EQ(out.out, expected);
  EXPECT_NE(out.out.find("                   1                  65536            1.23457e-02            4.24720e+07\n"),
            std::string::npos);
}

TEST(BeffOutput, HpccHeadingTableAndSummary) {
  CapturedOutput out;
  BeffWriter w(out);
  w.hpcc_begin({4, 8192, 3, {"ring-2", "ring-4", "random-1"}, 3});
  HpccFigures f{4, {1, 4096, 8192}, {1e6, 2e8, 3e8}, {5e5, 1e8, 1.5e8}, 1.2e8, 9e7, 4e7, 2.5e-6};
  w.hpcc_end(f);
  w.pingpong(1.234, 8192, 5.5e8);
  const std::string expected =
      "\n# b_eff, HPCC definition (Rabenseifner), 4 ranks, L_max 8192 B, 3 sizes\n# patterns: ring-2 ring-4 random-1\n"
      "# methods: Sendrecv, Alltoallv, Isend/Irecv; best of 3 repetitions\n" +
      c_printf("%12s   %16s   %16s\n", "L", "ring B/s", "random B/s") +
      c_printf("%12llu   %16.5e   %16.5e\n", 1ull, 1e6, 5e5) +
      c_printf("%12llu   %16.5e   %16.5e\n", 4096ull, 2e8, 1e8) +
      c_printf("%12llu   %16.5e   %16.5e\n", 8192ull, 3e8, 1.5e8) +
      "\nb_eff (HPCC) = 1.20000e+08 B/s = 3.00000e+07 B/s per process (4 ranks)\n"
      "ring average = 9.00000e+07 B/s, random ring average = 4.00000e+07 B/s\n"
      "latency (full ring, 1 B, best method) = 2.500 us per iteration\n"
      "ping-pong ranks 0-1: latency (1 B) = 1.234 us, bandwidth (8192 B) = 5.50000e+08 B/s\n";
  EXPECT_EQ(out.out, expected);
}

TEST(BeffOutput, ConfigurationListsScheduleAndSizes) {
  BeffConfiguration c{2, "both", 0, {{0, 65536}, {11, 65536}, {12, 9399}}, {}};
  EXPECT_EQ(beff_configuration(c),
            "# movebench beff --test: 2 ranks, definition both\n# fpga schedule (MSize looplength):\n" +
                c_printf("%20llu   %20u\n", 1ull, 65536u) + c_printf("%20llu   %20u\n", 2048ull, 65536u) +
                c_printf("%20llu   %20u\n", 4096ull, 9399u) +
                "# hpcc sizes: 1 B .. L_max (memory per process / 128)\n");
  c.time_budget = 0.005;
  c.fpga_schedule.clear();
  c.hpcc_sizes = {1, 2, 4};
  EXPECT_EQ(beff_configuration(c),
            "# movebench beff --test: 2 ranks, definition both\n# fpga schedule (MSize looplength; the most: each is "
            "cut to what fills --time-budget 0.005 s, measured at the run):\n# hpcc sizes: 1 2 4\n");
}

TEST(BeffOutput, ProblemsGoToTheProblemChannel) {
  CapturedOutput out;
  BeffWriter w(out);
  w.kernel_ignored("k.xclbin");
  w.copy_failed("/nope/x.json", "No such file or directory");
  w.hpcc_skip();
  EXPECT_EQ(out.err,
            "movebench beff: note: -f k.xclbin ignored: no FPGA kernel runs, the ranks exchange through MPI on the "
            "CPUs (HPCC FPGA's cpu_only communication)\n"
            "movebench beff: error: cannot write the result copy '/nope/x.json': No such file or directory\n");
  EXPECT_EQ(out.out, "\n# b_eff, HPCC definition: needs 2 or more ranks; skipped\n");
}

}  // namespace
}  // namespace movebench::net
