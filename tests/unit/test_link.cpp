// link/stream and device-layer logic that needs no device: sweeps, per-size
// statistics, the pattern check, the 90%-chunk rule, PCIe facts from a fake
// sysfs tree, the backend registry, and the host backend end to end.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "core/errors.hpp"
#include "device/pattern.hpp"
#include "device/pcie.hpp"
#include "device/registry.hpp"
#include "link/figures.hpp"
#include "link/link_bench.hpp"
#include "link/link_cases.hpp"
#include "link/link_command.hpp"
#include "stream/curve.hpp"
#include "stream/designs.hpp"

using namespace movebench::device;
using namespace movebench::link;
using namespace movebench::stream;

TEST(LinkSlots, OnePerTransferUntilTheyFillAGibibyteThenAtLeastTwo) {
  EXPECT_EQ(slots_for(4096, 8), 8u);
  EXPECT_EQ(slots_for(16u << 20, 17), 17u);            // 272 MiB: every transfer its own slot
  EXPECT_EQ(slots_for(128u << 20, 17), 8u);            // 8 x 128 MiB = kSlotBytes
  EXPECT_EQ(slots_for(512u << 20, 17), 2u);            // nvbandwidth's 512 MiB: two slots, not 17
  EXPECT_EQ(slots_for(std::size_t{2} << 30, 17), 2u);  // beyond the cap: still two
  EXPECT_EQ(slots_for(512u << 20, 1), 1u);             // a batch of one: one slot
}

TEST(LinkSweep, PowersOfTwoAndFinerSteps) {
  EXPECT_EQ(sweep_sizes(4, 64, 1), (std::vector<std::uint64_t>{4, 8, 16, 32, 64}));
  const auto fine = sweep_sizes(1024, 4096, 2);
  EXPECT_EQ(fine, (std::vector<std::uint64_t>{1024, 1448, 2048, 2896, 4096}));
  for (auto v : fine) EXPECT_EQ(v % 4, 0u);
  EXPECT_TRUE(sweep_sizes(64, 4, 1).empty());
}

TEST(LinkStats, EngineAverageIsAllBytesOverAllTime) {
  // Two tests of 1e6 bytes: 1 ms (1000 MB/s) and 4 ms (250 MB/s).
  const std::vector<double> t{1e-3, 4e-3};
  const RateStats s = rate_stats(1e6, t);
  EXPECT_EQ(s.count, 2u);
  EXPECT_DOUBLE_EQ(s.average, 2e6 / 5e-3 / 1e6);  // 400, not the mean rate 625
  EXPECT_DOUBLE_EQ(s.min, 250);
  EXPECT_DOUBLE_EQ(s.max, 1000);
  EXPECT_DOUBLE_EQ(s.median, 625);
  EXPECT_DOUBLE_EQ(s.variance, 375.0 * 375.0);  // population variance of the rates
  const std::string text = engine_lines("Read", s);
  EXPECT_NE(text.find("Read average bandwidth: 2000000 bytes in 5000 usec ( 400.000 MB/s )"), std::string::npos);
  EXPECT_NE(text.find("( 250.000 MB/s, 1000.000 MB/s, 140625.000 )"), std::string::npos);
}

TEST(LinkUnitSpread, MedianMeanAndWhichUnitsOverThoseResolved) {
  // Units 7, 3, 9, 1 resolved at 110, 100, 130, 120 ns; unit 5 below the
  // clock's resolution: left out of every figure, not counted as 0 ns.
  const std::vector<UnitLatency> units{{7, 110}, {3, 100}, {5, 0}, {9, 130}, {1, 120}};
  const UnitSpread s = unit_spread(units);
  EXPECT_EQ(s.count, 4u);
  EXPECT_DOUBLE_EQ(s.median, 115);
  EXPECT_DOUBLE_EQ(s.mean, 115);
  EXPECT_EQ(s.fastest.unit, 3u);
  EXPECT_DOUBLE_EQ(s.fastest.ns, 100);
  EXPECT_EQ(s.slowest.unit, 9u);
  EXPECT_DOUBLE_EQ(s.slowest.ns, 130);
  // Odd count: the middle one; a tie: the first unit in order.
  const UnitSpread odd = unit_spread(std::vector<UnitLatency>{{0, 5}, {1, 9}, {2, 5}});
  EXPECT_DOUBLE_EQ(odd.median, 5);
  EXPECT_EQ(odd.fastest.unit, 0u);
  EXPECT_EQ(unit_spread(std::vector<UnitLatency>{{0, -1}, {1, 0}}).count, 0u);
  EXPECT_EQ(unit_spread({}).count, 0u);
}

TEST(LinkPattern, CatchesOneFlippedBitAndStaleData) {
  std::vector<std::uint32_t> w(1000);
  fill_pattern(w.data(), w.size(), 5);
  EXPECT_FALSE(first_mismatch(w.data(), w.size(), 5));
  EXPECT_EQ(first_mismatch(w.data(), w.size(), 6), std::optional<std::size_t>(0));  // stale: last test's data
  w[777] ^= 1u << 20;
  EXPECT_EQ(first_mismatch(w.data(), w.size(), 5), std::optional<std::size_t>(777));
  std::vector<std::uint32_t> out(10);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = pattern_word(9, i) * 3 + 1;
  EXPECT_FALSE(first_stream_mismatch(out.data(), out.size(), 9));
  out[3] = 0;
  EXPECT_EQ(first_stream_mismatch(out.data(), out.size(), 9), std::optional<std::size_t>(3));
}

TEST(LinkChunkRule, SmallestChunkKeepingNinetyPercent) {
  const std::vector<CurvePoint> curve{
      {1024, 1e-6, 1e9}, {4096, 2e-6, 9.1e9}, {16384, 5e-6, 10e9}, {65536, 2e-5, 9.5e9}};
  auto pick = smallest_chunk_keeping(curve, 0.9);
  ASSERT_TRUE(pick);
  EXPECT_EQ(pick->chunk_bytes, 4096u);
  EXPECT_EQ(smallest_chunk_keeping(curve, 1.0)->chunk_bytes, 16384u);
  EXPECT_FALSE(smallest_chunk_keeping({}, 0.9));
}

TEST(LinkPcie, ParsesAFakeSysfsTree) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("movebench_sysfs_" + std::to_string(::getpid()));
  const fs::path dev = root / "bus/pci/devices/0000:17:00.0";
  fs::create_directories(dev);
  auto put = [&](const char* name, const char* text) { std::ofstream(dev / name) << text << "\n"; };
  put("current_link_speed", "16.0 GT/s PCIe");
  put("max_link_speed", "32.0 GT/s PCIe");
  put("current_link_width", "16");
  put("max_link_width", "16");
  put("numa_node", "1");
  auto link = read_pcie_link("00000000:17:00.0", root.string());  // CUDA's 8-digit domain
  fs::remove_all(root);
  ASSERT_TRUE(link);
  EXPECT_EQ(link->gen, 4);
  EXPECT_EQ(link->max_gen, 5);
  EXPECT_EQ(link->width, 16);
  EXPECT_EQ(link->numa_node, 1);
  EXPECT_TRUE(link->below_max());
  EXPECT_NEAR(link->bytes_per_second(), 31.5e9, 0.1e9);  // Gen4 x16: 31.5 GB/s per direction
  EXPECT_NE(below_max_warning(*link).find("Gen4 x16 below its maximum Gen5 x16"), std::string::npos);
  EXPECT_FALSE(read_pcie_link("0000:99:00.0", root.string()));
}

TEST(LinkPcie, GenerationsAndBusIds) {
  EXPECT_EQ(pcie_generation(2.5), 1);
  EXPECT_EQ(pcie_generation(8), 3);
  EXPECT_EQ(pcie_generation(64), 6);
  EXPECT_EQ(pcie_generation(3), 0);
  EXPECT_DOUBLE_EQ(parse_link_speed("8.0 GT/s PCIe"), 8.0);
  EXPECT_EQ(normalize_bus_id("00000000:1A:00.0"), "0000:1a:00.0");
}

TEST(LinkDevice, PicksByIndexNameAndRank) {
  const std::vector<std::string> names{"NVIDIA H100", "NVIDIA H200"};
  EXPECT_EQ(pick_index("1", names, "device"), 1);
  EXPECT_EQ(pick_index("H200", names, "device"), 1);
  EXPECT_THROW(pick_index("7", names, "device"), movebench::UsageError);
  EXPECT_THROW(pick_index("A100", names, "device"), movebench::UsageError);
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "3", 1);
  EXPECT_EQ(pick_index("", names, "device"), 1);  // rank 3 mod 2 devices
  unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");
  EXPECT_EQ(pick_index("", names, "device"), 0);
}

TEST(LinkKinds, EveryHostKindParsesFromItsName) {
  for (auto k : all_host_kinds()) EXPECT_EQ(parse_host_kind(kind_name(k)), k);
  EXPECT_EQ(parse_host_kind("registered"), MemKind::kRegistered);
  EXPECT_EQ(kind_names(all_host_kinds()), "pageable, pinned, mapped, registered, write_combined");
  EXPECT_THROW(parse_host_kind("device"), movebench::UsageError);  // a kind, but not one of host memory
  try {
    parse_host_kind("cached");
    ADD_FAILURE() << "an unknown kind was accepted";
  } catch (const movebench::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("registered, write_combined"), std::string::npos) << e.what();
  }
}

// The registry: host always, first in the table and last in preference;
// every built backend is known; an unknown or unbuilt name is a usage error.
TEST(DeviceRegistry, HostIsBuiltAndTheFallback) {
  const auto built = built_backends();
  ASSERT_FALSE(built.empty());
  EXPECT_EQ(built.back(), "host");
  EXPECT_EQ(std::string(backends().front().name), "host");
  const auto& known = known_backends();
  for (const auto& b : built) EXPECT_NE(std::find(known.begin(), known.end(), b), known.end()) << b;
  EXPECT_EQ(open_device({"host", "", ""})->backend(), "host");
  EXPECT_THROW(open_device({"nosuch", "", ""}), movebench::UsageError);
  EXPECT_EQ(or_list({"host", "opencl", "cuda"}), "host, opencl or cuda");
}

// Every design on the host backend gives the right output.
TEST(LinkHostBackend, EveryDesignIsCorrect) {
  auto device = open_device({"host", "", ""});
  const auto designs = available_designs(*device);
  EXPECT_EQ(designs.size(), 4u);  // offload, chunked, pipeline, persistent: no CUDA-only design
  for (const Design* design : designs) {
    auto in = device->alloc(MemKind::kPageable, 8 * 256 * 4), out = device->alloc(MemKind::kPageable, 8 * 256 * 4);
    fill_pattern(in->as<std::uint32_t>(), 8 * 256, 11);
    StreamJob job{in.get(), out.get(), 256, 8, 3, 10};
    auto state = design->prepare(*device, job);
    const ChunkTimes t = design->run(*device, job, state);
    EXPECT_FALSE(first_stream_mismatch(out->as<std::uint32_t>(), 8 * 256, 11)) << design->name;
    EXPECT_GT(pass_throughput(t, 8 * 256 * 4), 0) << design->name;
    EXPECT_GE(pass_latency(t), 0) << design->name;
  }
}

// ---- the table of link cases: --list, record names and parsing follow it ----

TEST(LinkCases, ListIsTheTable) {
  const auto listed = movebench::make_link_command()->cases();
  std::vector<std::string> table;
  for (const auto& c : link_cases()) table.push_back(list_name(c));
  EXPECT_EQ(listed, table);
  EXPECT_EQ(table.front(), "link.copy.read");
  EXPECT_EQ(table.back(), "link.roundtrip");
}

TEST(LinkCases, EveryDirectionAndPathHasOneBandwidthRow) {
  std::size_t bandwidth_rows = 0;
  for (const auto& c : link_cases()) bandwidth_rows += c.routine == Routine::kBandwidth ? 1 : 0;
  EXPECT_EQ(bandwidth_rows, all_directions().size() * all_paths().size());
  for (auto d : all_directions()) {
    for (auto p : all_paths()) {
      // The record operation is "<path>.<direction>", as the result keys say.
      EXPECT_EQ(std::string(bandwidth_case(d, p).name), path_name(p) + "." + direction_name(d));
    }
  }
  EXPECT_EQ(cases_of(Routine::kChase).size(), 2u);
  EXPECT_EQ(cases_of(Routine::kUnitChase).size(), 1u);
  EXPECT_EQ(cases_of(Routine::kWrite).size(), 2u);
  EXPECT_EQ(cases_of(Routine::kRoundtrip).size(), 1u);
}

TEST(LinkCases, RoutinesFindTheirRowsByNameOnly) {
  // The names link_latency.cpp binds its figures to, each a row of its routine.
  EXPECT_EQ(link_case("latency.chase", Routine::kChase).name, "latency.chase");
  EXPECT_EQ(link_case("latency.write_burst", Routine::kWrite).name, "latency.write_burst");
  EXPECT_EQ(link_case("latency.chase_per_unit", Routine::kUnitChase).name, "latency.chase_per_unit");
  EXPECT_THROW(link_case("latency.chase", Routine::kWrite), std::logic_error);
  EXPECT_THROW(link_case("latency.nothing", Routine::kChase), std::logic_error);
  EXPECT_EQ(direction_label(Direction::kRead), "Read (Host->Device)");
  EXPECT_EQ(direction_label(Direction::kWrite), "Write (Device->Host)");
  EXPECT_EQ(direction_label(Direction::kDuplex), "Duplex");
}

TEST(LinkCases, NamesParseBackAndUnknownOnesAreRefused) {
  for (auto d : all_directions()) EXPECT_EQ(parse_direction(direction_name(d)), d);
  for (auto p : all_paths()) EXPECT_EQ(parse_path(path_name(p)), p);
  EXPECT_THROW(parse_direction("sideways"), movebench::UsageError);
  EXPECT_THROW(parse_path("dma"), movebench::UsageError);
}

TEST(LinkCases, EveryRowSaysWhatItIsAndWhereItsResultGoes) {
  for (const auto& c : link_cases()) {
    EXPECT_FALSE(c.description.empty()) << c.name;
    EXPECT_FALSE(c.memory.empty()) << c.name;
    EXPECT_TRUE(std::string(c.result).starts_with(list_name(c))) << c.name;
  }
}
