// beff, coll and p2p: schedules, formulas and output formats.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "beff/beff_logic.hpp"
#include "coll/coll_logic.hpp"
#include "p2p/p2p_logic.hpp"

namespace movebench::net {
namespace {

// ---- coll ----

TEST(CollLogic, LineMatchesMpiBenchByteForByte) {
  // From a real mpiBench v1.5 run (shared/samples/mpibench-np2-default.txt).
  EXPECT_EQ(mpibench_line("Barrier", 0, 1000, 0.3483, 0.3480, 0.3485, "MPI_COMM_WORLD", 2),
            "Barrier             \tBytes:\t       0\tIters:\t   1000\tAvg:\t  0.3483\tMin:\t  0.3480\tMax:\t  0.3485"
            "\tComm: MPI_COMM_WORLD\tRanks: 2");
  EXPECT_EQ(mpibench_line("Allreduce", 65536, 1000, 17.3, 17.2999, 17.3, "MPI_COMM_WORLD", 2),
            "Allreduce           \tBytes:\t   65536\tIters:\t   1000\tAvg:\t 17.3000\tMin:\t 17.2999\tMax:\t 17.3000"
            "\tComm: MPI_COMM_WORLD\tRanks: 2");
}

namespace {
// A collective's row by name (every test name is one of coll_rows.hpp's).
const CollInfo& coll(std::string_view name) { return *coll_by_name(name); }
CollShape shape(std::string_view name, int rank, int nranks, std::uint64_t bytes) {
  return coll_shape(coll(name), rank, nranks, bytes);
}
}  // namespace

TEST(CollLogic, LineCutsLongTitlesAtTwentyAsPrintf) {
  const auto line = mpibench_line("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 1, 1, 1, 1, 1, "CartDim-1of2", 3);
  EXPECT_EQ(line.substr(0, 21), "ABCDEFGHIJKLMNOPQRST\t");
  EXPECT_NE(line.find("Comm: CartDim-1of2\tRanks: 3"), std::string::npos);
}

TEST(CollLogic, NamesAreCaseInsensitiveAndKnown) {
  ASSERT_TRUE(coll_by_name("allREDUCE"));
  EXPECT_EQ(coll_by_name("allREDUCE"), &coll_table()[9]);
  EXPECT_TRUE(coll_by_name("Reduce_scatter")->reduction);
  EXPECT_FALSE(coll_by_name("Bcast")->reduction);
  EXPECT_FALSE(coll_by_name("Allfoo"));
  EXPECT_EQ(coll_table().size(), 12u);
  EXPECT_EQ(coll_key(*coll_by_name("Reduce_scatter")), "reduce_scatter");
}

TEST(CollLogic, SizesDoubleFromZeroAsMpiBench) {
  EXPECT_EQ(coll_sizes(0, 8), (std::vector<std::uint64_t>{0, 1, 2, 4, 8}));
  EXPECT_EQ(coll_sizes(3, 20), (std::vector<std::uint64_t>{3, 6, 12}));
  EXPECT_TRUE(coll_sizes(16, 8).empty());
}

TEST(CollLogic, MemoryLimitHalvesTheLargestSize) {
  EXPECT_EQ(fit_stop_to_memory(256 << 10, 2, 1ull << 30), 256u << 10);
  EXPECT_EQ(fit_stop_to_memory(1 << 20, 4, 4 << 20), 512u << 10);  // 512K*4*2 = 4M
  EXPECT_EQ(fit_stop_to_memory(1024, 2, 1), 0u);
}

TEST(CollLogic, IterationsFitTheTimeLimitLikeMpiBench) {
  EXPECT_EQ(fit_iterations(1e-6, 0, 1000, 5), 1000);     // no limit
  EXPECT_EQ(fit_iterations(1e-6, 0.05, 1000, 5), 1000);  // the limit allows more
  EXPECT_EQ(fit_iterations(1e-3, 0.05, 1000, 5), 50);
  EXPECT_EQ(fit_iterations(0.02, 0.05, 1000, 5), 5);    // not more than the estimate: keep it
  EXPECT_EQ(fit_iterations(0.0, 0.05, 1000, 5), 1000);  // clock too coarse
}

TEST(CollLogic, VCountsFollowMpiBench) {
  // count 8 on 2 ranks: chunk 4; ((i + shift) * 4) % 9
  EXPECT_EQ(v_counts(0, 8, 2), (std::vector<int>{0, 4}));
  EXPECT_EQ(v_counts(1, 8, 2), (std::vector<int>{4, 8}));
  EXPECT_EQ(displacements({3, 0, 5}), (std::vector<int>{0, 3, 3}));
  // count 0: chunk 1, everything % 1 = 0
  EXPECT_EQ(v_counts(2, 0, 3), (std::vector<int>{0, 0, 0}));
}

TEST(CollLogic, BusBandwidthFactorsAreNcclTests) {
  EXPECT_DOUBLE_EQ(coll("Allreduce").bus_factor(4), 1.5);
  EXPECT_DOUBLE_EQ(coll("Allgather").bus_factor(4), 0.75);
  EXPECT_DOUBLE_EQ(coll("Reduce_scatter").bus_factor(2), 0.5);
  EXPECT_DOUBLE_EQ(coll("Alltoall").bus_factor(8), 7.0 / 8);
  EXPECT_DOUBLE_EQ(coll("Bcast").bus_factor(8), 1.0);
  EXPECT_DOUBLE_EQ(coll("Reduce").bus_factor(8), 1.0);
  EXPECT_DOUBLE_EQ(coll("Allreduce").moved_bytes(1024, 4), 1024);
  EXPECT_DOUBLE_EQ(coll("Alltoall").moved_bytes(1024, 4), 4096);
  EXPECT_DOUBLE_EQ(coll("Allgather").moved_bytes(1024, 4), 4096);
  EXPECT_DOUBLE_EQ(coll("Barrier").moved_bytes(0, 4), 0);
}

TEST(CollLogic, VariantVolumesCountWhatRanksReceive) {
  // count 8 on 2 ranks: rank 0 receives v(0,0)+v(1,0) = 0+4, rank 1 v(0,1)+v(1,1) = 4+8.
  EXPECT_DOUBLE_EQ(v_mean_received_bytes(VReceivers::kAlltoall, 8, 2, 1), 8.0);
  // Allgatherv: both receive 0+4; Gatherv: only the root, 4.
  EXPECT_DOUBLE_EQ(v_mean_received_bytes(VReceivers::kEveryRank, 8, 2, 1), 4.0);
  EXPECT_DOUBLE_EQ(v_mean_received_bytes(VReceivers::kRoot, 8, 2, 1), 4.0);
}

TEST(CollTable, RowIIsIndexIAndMpiBenchsDefaultSetIsElevenRows) {
  const auto& table = coll_table();
  std::size_t defaults = 0;
  for (std::size_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(table[i].index, i) << table[i].name;
    EXPECT_EQ(coll_by_name(table[i].name), &table[i]);
    EXPECT_TRUE(table[i].moved_bytes && table[i].bus_factor && table[i].set_counts && table[i].expected)
        << table[i].name;
    EXPECT_EQ(table[i].sized, table[i].name != "Barrier") << table[i].name;
    defaults += table[i].by_default ? 1 : 0;
  }
  EXPECT_EQ(defaults, 11u);
  EXPECT_FALSE(coll("Reduce_scatter").by_default);
  EXPECT_EQ(coll_names(),
            "Barrier, Bcast, Alltoall, Alltoallv, Allgather, Allgatherv, Gather, Gatherv, Scatter, "
            "Allreduce, Reduce, Reduce_scatter");
}

TEST(CollTable, ShapesCountElementsAndTheVariantsCounts) {
  const CollShape allreduce = shape("Allreduce", 1, 2, 64);
  EXPECT_EQ(allreduce.elem, sizeof(double));
  EXPECT_EQ(allreduce.count, 8);
  const CollShape gatherv = shape("Gatherv", 1, 2, 8);
  EXPECT_EQ(gatherv.my_count, v_count(1, 0, 8, 2));
  EXPECT_EQ(gatherv.rcounts, v_counts(0, 8, 2));
  const CollShape alltoallv = shape("Alltoallv", 0, 2, 8);
  EXPECT_EQ(alltoallv.scounts, v_counts(0, 8, 2));
  EXPECT_EQ(alltoallv.rdispls, displacements(alltoallv.scounts));
}

TEST(CollTable, ChecksSayWhoHoldsWhat) {
  // Bcast: the root holds nothing new; the others the root's block.
  EXPECT_TRUE(coll("Bcast").expected(shape("Bcast", 0, 3, 16)).empty());
  const auto bcast = coll("Bcast").expected(shape("Bcast", 2, 3, 16));
  ASSERT_EQ(bcast.size(), 1u);
  EXPECT_EQ(bcast[0].source, 0);
  EXPECT_EQ(bcast[0].length, 16u);
  // Alltoall: block j from rank j, taken at my offset in its buffer.
  const auto alltoall = coll("Alltoall").expected(shape("Alltoall", 1, 3, 4));
  ASSERT_EQ(alltoall.size(), 3u);
  EXPECT_EQ(alltoall[2].recv_offset, 8u);
  EXPECT_EQ(alltoall[2].source, 2);
  EXPECT_EQ(alltoall[2].source_offset, 4u);
  // Reduce_scatter: my block of the sum.
  const auto rs = coll("Reduce_scatter").expected(shape("Reduce_scatter", 1, 2, 16));
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0].source, kSumOfRanks);
  EXPECT_EQ(rs[0].source_offset, 2u);
  // Reduce: only the root checks.
  EXPECT_TRUE(coll("Reduce").expected(shape("Reduce", 1, 2, 16)).empty());
}

// ---- beff, HPCC FPGA's definition ----

TEST(BeffFpga, DefaultScheduleIsHpccFpgas) {
  const auto s = fpga_schedule(0, 20, 65536, 256, 11, 7);
  ASSERT_EQ(s.size(), 21u);
  EXPECT_EQ(s[0].loop_length, 65536u);
  EXPECT_EQ(s[11].loop_length, 65536u);
  EXPECT_EQ(s[12].loop_length, 65536u - 9325u);  // (65536-256)/7 per step
  EXPECT_EQ(s[18].loop_length, 261u);
  EXPECT_EQ(s[19].loop_length, 256u);
  EXPECT_EQ(s[20].loop_length, 256u);
  EXPECT_EQ(s[20].exponent, 20u);
}

TEST(BeffFpga, BandwidthCountsBothChannelsOfEveryRank) {
  EXPECT_DOUBLE_EQ(fpga_bandwidth(2, 1024, 10, 1.0), 2 * 2 * 1024 * 10);
  EXPECT_DOUBLE_EQ(fpga_bandwidth(3, 64, 5, 0.5), 3 * 2 * 64 * 5 / 0.5);
}

// ---- beff, Rabenseifner's definition ----

TEST(BeffHpcc, SizesAreTwentyOneUpToLmax) {
  const auto s = hpcc_sizes(1 << 20);
  ASSERT_EQ(s.size(), 21u);
  EXPECT_EQ(s.front(), 1u);
  EXPECT_EQ(s[12], 4096u);
  EXPECT_EQ(s[13], 8192u);  // (2^20 / 4096)^(1/8) = 2
  EXPECT_EQ(s.back(), 1u << 20);
  EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
  EXPECT_EQ(hpcc_sizes(100).back(), 64u);
  EXPECT_EQ(hpcc_sizes(4096).size(), 13u);
}

TEST(BeffHpcc, DefaultLmaxIsMemoryOver128CappedAt128MiB) {
  EXPECT_EQ(hpcc_default_lmax(64ull << 30), 128ull << 20);
  EXPECT_EQ(hpcc_default_lmax(1ull << 30), 8ull << 20);
  EXPECT_EQ(hpcc_default_lmax(0), 1u);
}

TEST(BeffHpcc, RingsNeverHoldASingleRank) {
  const auto p = ring_pattern(5, 2);  // {0,1} {2,3,4}
  EXPECT_EQ(p[0].left, 1);
  EXPECT_EQ(p[0].right, 1);
  EXPECT_EQ(p[4].right, 2);
  EXPECT_EQ(p[4].left, 3);
  EXPECT_EQ(p[2].left, 4);
  const auto full = ring_pattern(3, 3);
  EXPECT_EQ(full[0].left, 2);
  EXPECT_EQ(full[0].right, 1);
}

TEST(BeffHpcc, EveryMessageHasAReceiver) {
  for (int n : {2, 3, 4, 7}) {
    for (int size : ring_sizes(n)) {
      const auto p = ring_pattern(n, size);
      for (int r = 0; r < n; ++r) {
        EXPECT_EQ(p[static_cast<std::size_t>(p[static_cast<std::size_t>(r)].right)].left, r) << n << " " << size;
      }
    }
    const auto rnd = ring_from_order(random_order(n, 7));
    for (int r = 0; r < n; ++r)
      EXPECT_EQ(rnd[static_cast<std::size_t>(rnd[static_cast<std::size_t>(r)].left)].right, r);
  }
}

TEST(BeffHpcc, RandomOrderIsADeterministicPermutation) {
  auto a = random_order(10, 42);
  EXPECT_EQ(a, random_order(10, 42));
  EXPECT_NE(a, random_order(10, 43));
  std::sort(a.begin(), a.end());
  std::vector<int> id(10);
  std::iota(id.begin(), id.end(), 0);
  EXPECT_EQ(a, id);
}

TEST(BeffHpcc, RingSizesKeepTheLargestSix) {
  EXPECT_EQ(ring_sizes(2), (std::vector<int>{2}));
  EXPECT_EQ(ring_sizes(3), (std::vector<int>{2, 3}));
  EXPECT_EQ(ring_sizes(1024), (std::vector<int>{32, 64, 128, 256, 512, 1024}));
}

TEST(BeffHpcc, Formulas) {
  EXPECT_DOUBLE_EQ(pattern_bandwidth(1000, 4, 10, 2.0), 20000);
  EXPECT_DOUBLE_EQ(geometric_mean(std::vector<double>{1, 100}), 10);
  EXPECT_DOUBLE_EQ(arithmetic_mean(std::vector<double>{1, 2, 6}), 3);
  EXPECT_EQ(next_loop_length(1e-3, 5e-3, 300), 5u);
  EXPECT_EQ(next_loop_length(0, 5e-3, 300), 300u);
  EXPECT_EQ(next_loop_length(1.0, 5e-3, 300), 1u);
  EXPECT_EQ(next_loop_length(1e-9, 5e-3, 300), 300u);
}

// ---- p2p ----

TEST(P2pLogic, RowsAndHeadersAreOsus) {
  // From osu_bw 7.4 and osu_latency 7.4 (shared/samples).
  EXPECT_EQ(osu_row(1, 13.11), "1                      13.11");
  EXPECT_EQ(osu_row(1048576, 23002.45), "1048576             23002.45");
  EXPECT_EQ(osu_header("latency"), "# Size       Avg Latency(us)");
  EXPECT_EQ(osu_header("bw"), "# Size      Bandwidth (MB/s)");
}

TEST(P2pLogic, FormulasAndDefaults) {
  EXPECT_DOUBLE_EQ(pingpong_latency_us(1.0, 500000), 1.0);
  EXPECT_DOUBLE_EQ(window_bandwidth_mbs(1000000, 10, 64, 1, 1.0), 640);
  EXPECT_DOUBLE_EQ(window_bandwidth_mbs(1000000, 10, 64, 2, 1.0), 1280);
  EXPECT_EQ(osu_iterations("latency", 8192), 10000);
  EXPECT_EQ(osu_iterations("latency", 8193), 1000);
  EXPECT_EQ(osu_iterations("bw", 8192), 100);
  EXPECT_EQ(osu_iterations("bw", 1 << 20), 20);
  EXPECT_EQ(osu_warmup("latency", 1), 100);
  EXPECT_EQ(osu_warmup("bw", 1 << 20), 2);
}

}  // namespace
}  // namespace movebench::net
