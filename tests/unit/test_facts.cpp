// The facts layer: the SMBIOS parsers (dmidecode text and the binary table),
// the slot-name patterns, the CPU table, the DRAM peak and its limiting
// fault on real dumps (tests/data/dmi, README there), and the settings on a
// made-up sysfs tree.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "core/errors.hpp"
#include "facts/cpu_table.hpp"
#include "facts/facts.hpp"
#include "facts/input_file.hpp"
#include "facts/locator.hpp"
#include "facts/smbios.hpp"

namespace fs = std::filesystem;
using namespace movebench;
using namespace movebench::facts;

namespace {

const fs::path kDumps = fs::path(MOVEBENCH_SOURCE_DIR) / "tests" / "data" / "dmi";

// The hand computation of each committed dump: the channels in use, their
// configured MT/s, 8 bytes a transfer, and the fault that costs the most.
struct Expected {
  const char* dump;
  int channels;
  int mts;
  const char* peak_kind;
  const char* limit;
  double bytes_per_transfer = 8;  // a 64-bit channel; soldered LPDDR: the entry's data width / 8
};

// Reasoning per dump (locators and speeds read from the file by hand):
const Expected kExpected[] = {
    // DDR4_A1, B1, E1, F1 (one letter a channel) at 3200; Altra has 8 channels: 4 empty.
    {"altra_altrad8ud_4of8", 4, 3200, "exact", "empty_channels"},
    // One DDR5 DIMM, Controller0-ChannelA, 4400 configured (4800 rated); Raptor Lake has 2 channels: 1 empty.
    {"core13900k_z690d4u_ddr5", 1, 4400, "exact", "empty_channels"},
    // P0 CHANNEL A and B, 5200 (the EPYC 4004's maximum; 5600 rated); 2 of 2 channels: nothing lost.
    {"epyc4244p_msis366_outofspec", 2, 5200, "exact", "none"},
    // P0 CHANNEL A, C, F, H at 3200: 4 of Rome's 8 channels.
    {"epyc7272_romed8_4of8", 4, 3200, "exact", "empty_channels"},
    // Dell "A1".."A8" name no channel: 8 DIMMs, at most 8 channels, 3200: an upper bound.
    {"epyc7313p_r6515_dell", 8, 3200, "upper_bound", "channel_map_unknown"},
    // CH_A1 .. CH_H1: 8 of 8 channels at 2400, below Naples' 2666 with one DIMM each.
    {"epyc7351p_s8026_8of16", 8, 2400, "exact", "clocked_down"},
    // P0 CHANNEL A..H at 3200: all 8 channels at Milan's maximum.
    {"epyc7373x_romed8_8of8", 8, 3200, "exact", "none"},
    // CH_A0/A1 .. CH_H0/H1: 8 channels, 2 DIMMs each, DIMMs rated 2667 (Rome takes 3200).
    {"epyc7402_b8036_2dpc", 8, 2667, "exact", "slow_dimms"},
    // "DIMM 10" / "CPU 1": sockets known, channels not: 16 DIMMs on 2 x 8 channels at most, 2933 (3200 rated).
    {"epyc7642_sr645_2s", 16, 2933, "upper_bound", "clocked_down"},
    // P0 CHANNEL A-E, G-I, K: 9 of Genoa's 12 channels at 4800.
    {"epyc9454p_genoad12_9of12", 9, 4800, "exact", "empty_channels"},
    // P0 CHANNEL A-L: 12 of 12 at 4800, type printed <OUT OF SPEC>.
    {"epyc9454p_genoad12_outofspec", 12, 4800, "exact", "none"},
    // Dell "A1".."B4": 8 DIMMs on 2 x 12 channels: at most 8 channels at 4800, at least 16 empty.
    {"epyc9534_r7625_2s_dell", 8, 4800, "upper_bound", "empty_channels"},
    // NVIDIA Grace: one LPDDR5 entry "LP5x_0" (no channel told), 480 data bits at 8532 MT/s (configured
    // unknown): 60 B a transfer, 511.9 GB/s, NVIDIA's 512 GB/s a Grace; Grace is not in the CPU table.
    {"grace_csit_c1_lpddr5", 1, 8532, "upper_bound", "unknown_cpu", 60},
    // P0 CHANNEL A and B, 2 DIMMs each, 3600 (4800 rated): 2 channels.
    {"ryzen7900x_b650d4u_outofspec", 2, 3600, "exact", "clocked_down"},
    {"ryzen7950x_b650d4u_2dpc", 2, 3600, "exact", "clocked_down"},
    // CPU0_DIMM_A0, C0, E0, G0 and CPU1_DIMM_I0, K0, M0, O0 at 2933: 8 of 2 x 8 Ice Lake channels.
    {"xeon5317_altairz_2s", 8, 2933, "exact", "empty_channels"},
    // P0 and P1 _MCm_DIM_CH_A0..E0: 10 of 2 x 6 Skylake channels at 2666.
    {"xeon6140_b7109_2s", 10, 2666, "exact", "empty_channels"},
    // CPU1_DIMM_A1/A2..F1/F2 (6 channels) and CPU2 A, C-F (5), 2 DIMMs each, 2666 (Cascade Lake Gold 6: 2933).
    {"xeon6263cy_hr630x_2s_2dpc", 11, 2666, "exact", "clocked_down"},
    // ChannelA..O-DIMM0, 12 distinct letters (socket not told) at 3200: 12 of 2 x 8 Ice Lake channels.
    {"xeon6346_r1g3d32_2s", 12, 3200, "exact", "empty_channels"},
    // P1-DIMMA1, C1, D1, E1, F1, G1: 6 of Sapphire Rapids' 8 channels at 4800 (one socket populated).
    {"xeon6426y_flagman_outofspec", 6, 4800, "exact", "empty_channels"},
    // CPU1_DIMM_A1 alone: 1 of 6 channels at 2666.
    {"xeon8124m_epc621d8a_1dimm", 1, 2666, "exact", "empty_channels"},
    // CPU1 and CPU2 _DIMM_A1..F1: 12 of 12 channels at 2666, Skylake's maximum.
    {"xeon8171m_ep2c622d16_2s", 12, 2666, "exact", "none"},
    // ChannelA/B-DIMM0/1: 2 channels, 2 DIMMs each, 2933 (3200 rated and the E-2300's maximum).
    {"xeone2388g_e3c256d4u_2dpc", 2, 2933, "exact", "clocked_down"},
    // DIMM_P0_A0/A1..D0/D1, DIMM_P1_E0/E1..H0/H1: 8 channels at 2133 (Broadwell takes 2400); 72-bit width = ECC.
    {"xeone52680v4_r280_2s_2dpc", 8, 2133, "exact", "slow_dimms"},
};

nlohmann::json dram_of(const std::string& dump) {
  Sources sources;
  sources.dmidecode_file = (kDumps / (dump + ".txt")).string();
  return dram_facts(sources, cpu_facts(sources));
}

}  // namespace

TEST(FactsDumps, EveryCommittedDumpHasItsHandComputedPeakAndLimit) {
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(kDumps)) files += entry.path().extension() == ".txt";
  ASSERT_EQ(files, std::size(kExpected)) << "every dump in tests/data/dmi needs its hand computation here";
  for (const auto& e : kExpected) {
    SCOPED_TRACE(e.dump);
    const auto dram = dram_of(e.dump);
    ASSERT_EQ(dram["status"], "known") << dram.dump();
    const double hand = static_cast<double>(e.channels) * e.mts * 1e6 * e.bytes_per_transfer;
    EXPECT_NEAR(dram["peak_bytes_per_second"].get<double>(), hand, 0.01 * hand);
    EXPECT_EQ(dram["peak_kind"], e.peak_kind);
    EXPECT_EQ(dram["limit"]["kind"], e.limit) << dram["faults"].dump(1);
  }
}

TEST(FactsDumps, CausesAndTypesAreNamed) {
  auto has_fault = [](const nlohmann::json& dram, const std::string& kind, const std::string& words) {
    for (const auto& f : dram["faults"]) {
      if (f["kind"] == kind && f["text"].get<std::string>().find(words) != std::string::npos) return true;
    }
    return false;
  };
  EXPECT_TRUE(has_fault(dram_of("ryzen7950x_b650d4u_2dpc"), "clocked_down", "2 DIMMs per channel"));
  EXPECT_TRUE(has_fault(dram_of("epyc4244p_msis366_outofspec"), "clocked_down", "the CPU's maximum"));
  EXPECT_TRUE(has_fault(dram_of("xeon6263cy_hr630x_2s_2dpc"), "mixed_speeds", "2933, 3200"));
  EXPECT_TRUE(has_fault(dram_of("epyc7402_b8036_2dpc"), "dimms_per_channel", "8 channel(s) with 2 DIMMs"));
  for (const char* dump :
       {"epyc9454p_genoad12_outofspec", "epyc4244p_msis366_outofspec", "ryzen7900x_b650d4u_outofspec"}) {
    const auto dram = dram_of(dump);
    EXPECT_EQ(dram["dimms"][0]["type"], "DDR5") << dump;
    EXPECT_NE(dram["dimms"][0]["type_note"].get<std::string>().find("OUT OF SPEC"), std::string::npos);
  }
  const auto two = dram_of("xeon8171m_ep2c622d16_2s");
  ASSERT_EQ(two["sockets"].size(), 2u);
  EXPECT_EQ(two["sockets"][1]["channels_populated"], 6);
  EXPECT_NEAR(two["sockets"][1]["peak_bytes_per_second"].get<double>(), 6 * 2666e6 * 8, 1);
}

TEST(FactsLocator, ReadsTheNamingSchemesAndGuessesNone) {
  struct Case {
    const char *locator, *bank;
    std::optional<int> socket;
    const char* channel;
    std::optional<int> slot;
  };
  const Case cases[] = {
      {"DIMM 0", "P0 CHANNEL A", 0, "A", 0},
      {"CPU0_DIMM_A1", "NODE 0", 0, "A", 1},
      {"DIMM_P0_A0", "P0_Node0_Channel0_Dimm0", 0, "A", 0},
      {"CPU1_DIMM_C2", "NODE 1", 1, "C", 2},
      {"P1-DIMMA1", "P0_Node0_Channel0_Dimm0", 1, "A", 1},
      {"Node0_Dimm1", "", std::nullopt, "", std::nullopt},
      {"ChannelA-DIMM0", "BANK 0", std::nullopt, "A", 0},
      {"A1", "Not Specified", std::nullopt, "", std::nullopt},
      {"DIMM 10", "CPU 1", 1, "", std::nullopt},
      {"Controller1-ChannelA-DIMM1", "BANK 0", std::nullopt, "Controller1-ChannelA", 1},
      {"P0_D1_UMC0_CH_A1", "P0 CHANNEL A", 0, "A", 1},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.locator) + " / " + c.bank);
    const auto place = place_of(c.locator, c.bank);
    EXPECT_EQ(place.socket, c.socket);
    EXPECT_EQ(place.channel, c.channel);
    EXPECT_EQ(place.slot, c.slot);
  }
}

TEST(FactsCpuTable, EveryRowParsesAndTheFamiliesMap) {
  const auto& rows = cpu_table();
  ASSERT_GT(rows.size(), 40u);
  for (const auto& r : rows) {
    EXPECT_NO_THROW(std::regex(r.pattern, std::regex::icase)) << r.pattern;
    EXPECT_TRUE(r.source.starts_with("https://")) << r.pattern;
  }
  const std::pair<const char*, int> models[] = {
      {"AMD EPYC 9454P 48-Core Processor", 12},
      {"AMD EPYC 9755 128-Core Processor", 12},
      {"AMD EPYC 8534P 64-Core Processor", 6},
      {"AMD EPYC 7763 64-Core Processor", 8},
      {"AMD EPYC 7H12 64-Core Processor", 8},
      {"Intel(R) Xeon(R) Gold 6346 CPU @ 3.10GHz", 8},
      {"Intel(R) Xeon(R) Gold 6140 CPU @ 2.30GHz", 6},
      {"Intel(R) Xeon(R) Platinum 8280 CPU @ 2.70GHz", 6},
      {"Intel(R) Xeon(R) Platinum 8480+", 8},
      {"INTEL(R) XEON(R) PLATINUM 8592+", 8},
      {"Intel(R) Xeon(R) 6980P", 12},
      {"Intel(R) Xeon(R) 6740E", 8},
      {"Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", 4},
      {"Intel(R) Xeon(R) CPU E5-2620 0 @ 2.00GHz", 4},
      {"Intel(R) Xeon(R) CPU E3-1240 v6 @ 3.70GHz", 2},
      {"Intel(R) Xeon(R) E-2388G CPU @ 3.20GHz", 2},
      {"AMD Ryzen 9 7950X 16-Core Processor", 2},
      {"AMD Ryzen Threadripper PRO 5995WX 64-Cores", 8},
      {"Ampere(R) Altra(R) Processor", 8},
      {"13th Gen Intel(R) Core(TM) i9-13900K", 2},
  };
  for (const auto& [model, channels] : models) {
    const auto row = find_cpu_row(rows, model);
    ASSERT_TRUE(row) << model;
    EXPECT_EQ(row->channels_per_socket, channels) << model;
  }
  EXPECT_FALSE(find_cpu_row(rows, "Intel(R) Xeon(R) Processor"));  // the development VM's: no family told
  EXPECT_THROW(parse_cpu_table("pattern,family,channels_per_socket,memory_type,max_mts,source\nx,y,z\n"),
               std::runtime_error);
}

namespace {

// A `dmidecode -t 17` of an old dmidecode (2.12: "Configured Clock Speed",
// MHz) with a kB size, an unknown speed and an empty slot, on 3 slots of one
// channel: what no committed dump has.
constexpr const char* kOldDmidecode =
    "# dmidecode 2.12\nSMBIOS 2.7 present.\n\n"
    "Handle 0x0011, DMI type 17, 34 bytes\nMemory Device\n\tData Width: 64 bits\n\tSize: 8192 MB\n"
    "\tForm Factor: DIMM\n\tLocator: CPU0_DIMM_A1\n\tBank Locator: NODE 0\n\tType: DDR3\n\tSpeed: 1600 MHz\n"
    "\tConfigured Clock Speed: 1333 MHz\n\n"
    "Handle 0x0012, DMI type 17, 34 bytes\nMemory Device\n\tSize: 524288 kB\n\tLocator: CPU0_DIMM_A2\n"
    "\tType: DDR3\n\tSpeed: 1600 MHz\n\tConfigured Clock Speed: 1333 MHz\n\n"
    "Handle 0x0013, DMI type 17, 34 bytes\nMemory Device\n\tSize: 8 GB\n\tLocator: CPU0_DIMM_A3\n"
    "\tType: DDR3\n\tSpeed: Unknown\n\tConfigured Clock Speed: 1333 MHz\n\n"
    "Handle 0x0014, DMI type 17, 34 bytes\nMemory Device\n\tSize: No Module Installed\n\tLocator: CPU0_DIMM_B1\n"
    "\tType: Unknown\n\tSpeed: Unknown\n\n";

fs::path write_temp(const std::string& name, const std::string& text) {
  const fs::path path = fs::temp_directory_path() / ("movebench_facts_" + std::to_string(getpid()) + "_" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace

TEST(FactsDmidecodeText, OldNamesUnitsAndEmptySlots) {
  const auto memory = parse_dmidecode_text(kOldDmidecode);
  ASSERT_EQ(memory.devices.size(), 4u);
  EXPECT_EQ(memory.devices[0].configured_mts, 1333u);
  EXPECT_EQ(memory.devices[0].rated_mts, 1600u);
  EXPECT_EQ(memory.devices[1].size_bytes, 512ull << 20);
  EXPECT_EQ(memory.devices[2].size_bytes, 8ull << 30);
  EXPECT_FALSE(memory.devices[2].rated_mts);
  EXPECT_FALSE(memory.devices[3].installed);
  EXPECT_THROW(parse_dmidecode_text("lspci output, not dmidecode\n"), UsageError);
}

TEST(FactsDmidecodeText, ThreeDimmsPerChannelAndAnUnknownCpu) {
  const auto path = write_temp("3dpc.txt", kOldDmidecode);
  Sources sources;
  sources.dmidecode_file = path.string();
  const auto dram = dram_facts(sources, {{"model", "Some Future CPU"}, {"sockets", 1}});
  fs::remove(path);
  EXPECT_EQ(dram["sockets"][0]["dimms_per_channel"], 3);
  EXPECT_NEAR(dram["peak_bytes_per_second"].get<double>(), 1333e6 * 8, 1);  // one channel at 1333
  EXPECT_EQ(dram["limit"]["kind"], "unknown_cpu");
  bool three = false;
  for (const auto& f : dram["faults"]) three |= f["text"].get<std::string>().find("with 3 DIMMs") != std::string::npos;
  EXPECT_TRUE(three) << dram["faults"].dump();
}

namespace {

// One SMBIOS structure: formatted area (header included) then its strings.
std::vector<std::uint8_t> structure(std::vector<std::uint8_t> formatted, std::vector<std::string> strings) {
  std::vector<std::uint8_t> out = std::move(formatted);
  for (const auto& s : strings) {
    out.insert(out.end(), s.begin(), s.end());
    out.push_back(0);
  }
  if (strings.empty()) out.push_back(0);
  out.push_back(0);
  return out;
}

std::vector<std::uint8_t> type17(std::uint16_t size_word, std::uint8_t type, std::uint16_t speed,
                                 std::uint16_t configured) {
  std::vector<std::uint8_t> f(0x28, 0);
  f[0] = 17;
  f[1] = 0x28;
  f[0x0A] = 64;  // data width
  f[0x0C] = size_word & 0xFF, f[0x0D] = size_word >> 8;
  f[0x0E] = 0x09;            // DIMM
  f[0x10] = 1, f[0x11] = 2;  // locator, bank locator strings
  f[0x12] = type;
  f[0x15] = speed & 0xFF, f[0x16] = speed >> 8;
  f[0x20] = configured & 0xFF, f[0x21] = configured >> 8;
  return structure(f, {"DIMM 0", "P0 CHANNEL A"});
}

}  // namespace

TEST(FactsSmbiosTable, ReadsType17AndType4AndStopsAtEveryTruncation) {
  std::vector<std::uint8_t> table = type17(0x4000, 0x22, 4800, 4400);  // 16 GiB DDR5
  std::vector<std::uint8_t> cpu(0x1A, 0);
  cpu[0] = 4, cpu[1] = 0x1A, cpu[0x04] = 1, cpu[0x10] = 2, cpu[0x18] = 0x41;
  const auto processor = structure(cpu, {"CPU0", "AMD EPYC 9454P 48-Core Processor"});
  table.insert(table.end(), processor.begin(), processor.end());
  const auto empty = type17(0, 0x02, 0, 0);
  table.insert(table.end(), empty.begin(), empty.end());
  const auto memory = parse_smbios_table(table);
  ASSERT_EQ(memory.devices.size(), 2u);
  EXPECT_EQ(memory.devices[0].type, "DDR5");
  EXPECT_EQ(memory.devices[0].size_bytes, 16ull << 30);
  EXPECT_EQ(memory.devices[0].configured_mts, 4400u);
  EXPECT_EQ(memory.devices[0].bank_locator, "P0 CHANNEL A");
  EXPECT_FALSE(memory.devices[1].installed);
  ASSERT_EQ(memory.processors.size(), 1u);
  EXPECT_TRUE(memory.processors[0].populated);
  EXPECT_EQ(memory.processors[0].version, "AMD EPYC 9454P 48-Core Processor");
  for (std::size_t cut = 0; cut < table.size(); ++cut) {
    EXPECT_LE(parse_smbios_table(std::span(table.data(), cut)).devices.size(), 2u);
  }
}

TEST(FactsInput, BadFilesAreUsageErrors) {
  const auto empty = write_temp("empty.txt", "");
  const auto binary = write_temp("binary.txt", std::string("Handle 0x0001\0x", 15));
  const auto escape = write_temp("escape.txt", "Handle 0x0001, DMI type 17\n\x1b[31m\n");
  const auto latin1 = write_temp("latin1.txt", "Handle \xe9\n");
  const auto fifo = fs::temp_directory_path() / ("movebench_facts_fifo_" + std::to_string(getpid()));
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const auto& path : {empty, binary, escape, latin1, fifo, fs::temp_directory_path(), fs::path("/dev/zero"),
                           fs::path("/nonexistent/x")}) {
    EXPECT_THROW(read_text_input(path.string(), "--dmidecode"), UsageError) << path;
  }
  for (const auto& path : {empty, binary, escape, latin1, fifo}) fs::remove(path);
}

TEST(FactsSettings, MadeUpTreeGivesValuesAndWarnings) {
  const fs::path root = fs::temp_directory_path() / ("movebench_facts_tree_" + std::to_string(getpid()));
  auto put = [&](const std::string& rel, const std::string& text) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text << "\n";
  };
  put("sys/kernel/mm/transparent_hugepage/enabled", "always madvise [never]");
  put("sys/devices/system/cpu/cpufreq/policy0/scaling_governor", "powersave");
  put("sys/devices/system/cpu/intel_pstate/no_turbo", "1");
  put("sys/devices/system/cpu/smt/active", "1");
  put("proc/sys/kernel/numa_balancing", "1");
  put("proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu sse2 hypervisor");
  put("proc/self/cgroup", "0::/job");
  put("sys/fs/cgroup/job/cpu.max", "150000 100000");
  put("sys/fs/cgroup/job/memory.max", "4294967296");
  put("proc/cmdline", "quiet intel_iommu=on");
  put("sys/class/iommu/dmar0/x", "");
  put("run/.containerenv", "");
  Sources s;
  s.sysfs_root = (root / "sys").string();
  s.proc_root = (root / "proc").string();
  s.root_dir = root.string();
  const auto settings = setting_facts(s);
  fs::remove_all(root);
  EXPECT_EQ(settings["thp"]["value"], "never");
  EXPECT_EQ(settings["governor"]["value"], "powersave");
  EXPECT_EQ(settings["boost"]["value"], "off");
  EXPECT_EQ(settings["smt"]["value"], "on");
  EXPECT_EQ(settings["numa_balancing"]["value"], "on");
  EXPECT_DOUBLE_EQ(settings["cgroup_cpu"]["value"].get<double>(), 1.5);
  EXPECT_EQ(settings["cgroup_memory"]["value"], 4294967296ull);
  EXPECT_NE(settings["virtualization"]["value"].get<std::string>().find("hypervisor"), std::string::npos);
  EXPECT_NE(settings["container"]["value"].get<std::string>().find(".containerenv"), std::string::npos);
  EXPECT_NE(settings["iommu"]["value"].get<std::string>().find("dmar0"), std::string::npos);
  for (const char* harmful : {"thp", "governor", "boost", "numa_balancing", "virtualization", "iommu"}) {
    EXPECT_TRUE(settings[harmful].contains("warning")) << harmful;
  }
  EXPECT_FALSE(settings["smt"].contains("warning"));
}

TEST(FactsDumps, PeakPerNumaNodeWhereASocketIsOneNode) {
  Sources sources;
  sources.dmidecode_file = (kDumps / "xeon8171m_ep2c622d16_2s.txt").string();
  auto cpu = cpu_facts(sources);
  cpu["package_numa_nodes"] = {{0}, {1}};  // as hwloc gives them on such a machine
  const auto dram = dram_facts(sources, cpu);
  EXPECT_EQ(dram["sockets"][1]["numa_nodes"], nlohmann::json({1}));
  EXPECT_NEAR(dram["sockets"][1]["numa_node_peaks"][0]["peak_bytes_per_second"].get<double>(), 6 * 2666e6 * 8, 1);
  cpu["package_numa_nodes"] = {{0, 1}, {2, 3}};  // sub-NUMA clustering: the split is not told
  EXPECT_EQ(dram_facts(sources, cpu)["sockets"][0]["numa_node_peaks"]["status"], "unknown");
}
