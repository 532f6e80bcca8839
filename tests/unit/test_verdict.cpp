// The peaks of headline figures and the verdict rules (src/judge/peaks.hpp,
// verdict.hpp, bands.hpp), on made-up facts (tests/data/facts/README.md) and
// small result documents built here.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "facts/c2c.hpp"
#include "facts/facts.hpp"
#include "facts/machine_facts.hpp"
#include "judge/bands.hpp"
#include "judge/peaks.hpp"
#include "judge/verdict.hpp"

using nlohmann::json;
using namespace movebench;

namespace {

json fixture(const std::string& name) {
  return facts::facts_from_file(std::string(MOVEBENCH_TEST_DATA) + "/facts/" + name);
}

json bandwidth(double value, const std::string& unit = "MB/s", int directions = 1) {
  return {
      {"value", value},     {"unit", unit},
      {"stat", "min"},      {"of", "time"},
      {"better", "higher"}, {"accounting", {{"bytes", "application"}, {"directions", directions}, {"factor", 1.0}}}};
}

json mem_record(const std::string& kernel, int threads, double bytes) {
  return {{"benchmark", "mem"}, {"operation", kernel}, {"bytes", bytes}, {"params", {{"threads", threads}}}};
}

// A one-socket, 16-CPU host with a 32 MiB last-level cache, and mem's triad
// with 1 and 16 threads on `bytes` of arrays.
json mem_doc(double triad_16t_mbs, double bytes = 3.0 * (512 << 20)) {
  json doc = {
      {"host",
       {{"cpu_model", "AMD EPYC 7313 16-Core Processor"},
        {"logical_cpus", 16},
        {"packages", 1},
        {"numa_nodes", 1},
        {"caches",
         {{{"level", 2}, {"bytes", 524288}, {"instances", 16}}, {{"level", 3}, {"bytes", 33554432}, {"instances", 1}}}},
        {"transparent_hugepages", "always [madvise] never"}}},
      {"results",
       {{"mem.triad.1t", bandwidth(20000)},
        {"mem.triad.16t", bandwidth(triad_16t_mbs)},
        {"mem.latency.67108864",
         {{"value", 90.0}, {"unit", "ns"}, {"stat", "min"}, {"of", "time"}, {"better", "lower"}}}}},
      {"timings", {mem_record("triad", 1, bytes), mem_record("triad", 16, bytes)}}};
  return doc;
}

json link_doc(double read_mbs, json pcie = nullptr) {
  json device = {{"backend", "cuda"}, {"bus_id", "00000000:17:00.0"}};
  if (!pcie.is_null()) device["pcie"] = pcie;
  return {{"host", {{"cpu_model", "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz"}, {"logical_cpus", 64}}},
          {"link_device", device},
          {"results",
           {{"link.copy.read.pinned", bandwidth(read_mbs)},
            {"link.copy.duplex.total.pinned", bandwidth(2 * read_mbs, "MB/s", 2)}}},
          {"timings", json::array()}};
}

json verdicts_of(const json& doc, const json& facts, const std::string& expect = "") {
  return judge::make_verdicts(doc, facts, judge::figure_peaks(doc, facts), judge::load_bands(expect));
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST(Peaks, AllThreadDramFigureGetsTheDramPeakInItsUnit) {
  const json peaks = judge::figure_peaks(mem_doc(163840), fixture("dram_ok_thp_never.json"));
  const auto& p = peaks["mem.triad.16t"];
  EXPECT_DOUBLE_EQ(p["value"].get<double>(), 204800);  // MB/s, as the figure
  EXPECT_EQ(p["unit"], "MB/s");
  EXPECT_NEAR(p["fraction"].get<double>(), 0.8, 1e-12);
  EXPECT_NE(p["source"].get<std::string>().find("8 channels x 3200 MT/s x 8 B, SMBIOS"), std::string::npos);
  // One thread of 16 is not held against the DRAM peak; a latency gets no entry.
  EXPECT_EQ(peaks["mem.triad.1t"]["status"], "none");
  EXPECT_FALSE(peaks.contains("mem.latency.67108864"));
}

TEST(Peaks, CacheResidentMemFigureGetsNoDramPeak) {
  const json peaks = judge::figure_peaks(mem_doc(900000, 3.0 * (4 << 20)), fixture("dram_ok_thp_never.json"));
  const auto& p = peaks["mem.triad.16t"];
  EXPECT_EQ(p["status"], "none");
  EXPECT_NE(p["why"].get<std::string>().find("cache-resident"), std::string::npos);
  EXPECT_NE(p["why"].get<std::string>().find("no peak is known for cache levels"), std::string::npos);
  EXPECT_TRUE(verdicts_of(mem_doc(900000, 3.0 * (4 << 20)), fixture("dram_ok_thp_never.json")).empty());
}

TEST(Verdicts, DramWithEmptyChannelsIsDegradedNamingThem) {
  const json v = verdicts_of(mem_doc(70000), fixture("dram_empty_channels.json"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0]["path"], "dram");
  EXPECT_EQ(v[0]["verdict"], "degraded");
  EXPECT_NE(v[0]["reasons"][0].get<std::string>().find("4 of 8 channels empty"), std::string::npos);
  EXPECT_NE(judge::verdict_line(v[0]).find("dram: degraded: triad 70000 MB/s = 68% of 102400 MB/s DRAM peak"),
            std::string::npos)
      << judge::verdict_line(v[0]);
}

TEST(Verdicts, FractionUnderTheBandIsLowWithTheSettingsThatCouldExplainIt) {
  const json v = verdicts_of(mem_doc(0.41 * 204800), fixture("dram_ok_thp_never.json"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0]["verdict"], "low");
  EXPECT_NEAR(v[0]["fraction"].get<double>(), 0.41, 1e-9);
  EXPECT_DOUBLE_EQ(v[0]["band"]["normal_from"].get<double>(), 0.75);  // the EPYC 7003 (Milan) row of data/bands.json
  const std::string line = judge::verdict_line(v[0]);
  EXPECT_NE(line.find("= 41% of 204800 MB/s DRAM peak (8 channels x 3200 MT/s x 8 B, SMBIOS)"), std::string::npos)
      << line;
  EXPECT_NE(line.find("normal from 75%"), std::string::npos) << line;
  EXPECT_NE(line.find("THP never"), std::string::npos) << line;
  EXPECT_NE(line.find("governor powersave"), std::string::npos) << line;
}

TEST(Verdicts, AtOrAboveTheBandIsNormal) {
  const json v = verdicts_of(mem_doc(0.8 * 204800), fixture("dram_ok_thp_never.json"));
  EXPECT_EQ(v[0]["verdict"], "normal");
  EXPECT_TRUE(v[0]["reasons"].empty());
}

TEST(Verdicts, NoPeakIsUnknownWithTheFactsWhy) {
  const json doc = mem_doc(50000);
  // Facts as collect() gives them where no SMBIOS table can be read (a VM).
  const json vm = {{"cpu", {{"model", "Intel(R) Xeon(R) Processor"}}},
                   {"dram", {{"status", "unknown"}, {"why", "no SMBIOS table (a VM)"}}},
                   {"pcie", json::array()},
                   {"nics", json::array()},
                   {"settings", json::object()}};
  const json v = verdicts_of(doc, vm);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0]["verdict"], "unknown");
  EXPECT_TRUE(v[0]["fraction"].is_null());
  const std::string line = judge::verdict_line(v[0]);
  EXPECT_EQ(line.rfind("dram: unknown: the DRAM peak is unknown (no SMBIOS table (a VM))", 0), 0u) << line;
  // The why of the facts themselves, when they give one.
  const json w = verdicts_of(doc, fixture("link_x8.json"));
  EXPECT_NE(judge::verdict_line(w[0]).find("SMBIOS table not readable"), std::string::npos);
}

TEST(Verdicts, LinkTrainedAtX8IsDegradedAgainstItsMaximumPeak) {
  const json v = verdicts_of(link_doc(12000), fixture("link_x8.json"));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0]["path"], "link 0000:17:00.0");
  EXPECT_EQ(v[0]["verdict"], "degraded");
  EXPECT_EQ(v[0]["reasons"][0], "link trained at Gen4 x8 below its maximum Gen4 x16");
  EXPECT_NEAR(v[0]["peak"].get<double>(), 31507.69, 0.01);  // Gen4 x16, MB/s
  EXPECT_EQ(v[0]["figure"], "link.copy.read.pinned");       // the highest fraction speaks for the link
}

TEST(Verdicts, LinkFromTheDocumentsOwnPcieFacts) {
  const json x8 = {{"generation", 4},
                   {"max_generation", 4},
                   {"width", 8},
                   {"max_width", 16},
                   {"speed_gts", 16.0},
                   {"max_speed_gts", 16.0},
                   {"theoretical_bytes_per_second_per_direction", 15753846153.8}};
  const json v = verdicts_of(link_doc(12000, x8), facts::machine_facts(link_doc(12000, x8)));
  EXPECT_EQ(v[0]["verdict"], "degraded");
  // A GPU read while idle at Gen1 that then moved 24 GB/s ran faster than
  // read: power saving, not a fault.
  json idle = x8;
  idle["generation"] = 1;
  idle["width"] = 16;
  idle["speed_gts"] = 2.5;
  idle["theoretical_bytes_per_second_per_direction"] = 4e9;
  const json w = verdicts_of(link_doc(24000, idle), facts::machine_facts(link_doc(24000, idle)));
  EXPECT_EQ(w[0]["verdict"], "normal") << judge::verdict_line(w[0]);
}

TEST(Peaks, DuplexTotalIsHeldAgainstBothDirections) {
  const json peaks = judge::figure_peaks(link_doc(12000), fixture("link_x8.json"));
  EXPECT_NEAR(peaks["link.copy.duplex.total.pinned"]["value"].get<double>(), 2 * 31507.69, 0.02);
}

TEST(Peaks, NetworkOnlyAcrossHostsAgainstTheFastestNic) {
  json doc = {{"host", {{"cpu_model", "x"}}},
              {"mpi", {{"hosts", {"a", "a"}}}},
              {"results",
               {{"p2p.bw", bandwidth(22000)},
                {"p2p.bibw", bandwidth(44000, "MB/s", 2)},
                {"beff.hpcc.b_eff", bandwidth(1e9, "B/s", 2)}}}};
  EXPECT_EQ(judge::figure_peaks(doc, fixture("two_nics.json"))["p2p.bw"]["why"],
            "same host: the ranks share memory, no NIC is on the path");
  doc["mpi"]["hosts"] = {"a", "b"};
  const json peaks = judge::figure_peaks(doc, fixture("two_nics.json"));
  EXPECT_DOUBLE_EQ(peaks["p2p.bw"]["value"].get<double>(), 25000);
  EXPECT_DOUBLE_EQ(peaks["p2p.bibw"]["value"].get<double>(), 50000);
  EXPECT_EQ(peaks["beff.hpcc.b_eff"]["status"], "none");
  const json v = judge::make_verdicts(doc, fixture("two_nics.json"), peaks, judge::load_bands(""));
  EXPECT_EQ(v[0]["verdict"], "normal");  // 88% of HDR, the band is 80%
}

// `run --facts FILE` with the facts of `movebench facts --lspci F`: the
// parts no file tells are unknown objects, not lists; every path over them
// is unknown with the origin's why, and nothing throws.
TEST(Verdicts, PartsNotInTheFileAreUnknownPathsNotErrors) {
  const json not_in_file = {{"status", "unknown"}, {"why", "not in the file (--lspci F): x"}};
  json facts = fixture("two_nics.json");
  facts["nics"] = not_in_file;
  facts["pcie"] = not_in_file;
  json doc = {
      {"host", {{"cpu_model", "x"}}}, {"mpi", {{"hosts", {"a", "b"}}}}, {"results", {{"p2p.bw", bandwidth(22000)}}}};
  const json v = verdicts_of(doc, facts);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0]["verdict"], "unknown");
  EXPECT_EQ(v[0]["reasons"][0], "no NIC rate is known");
  const json w = verdicts_of(link_doc(12000), facts);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0]["verdict"], "unknown") << judge::verdict_line(w[0]);
}

TEST(Peaks, DeviceMemoryFromCudaAttributes) {
  json doc = {{"host", {{"cpu_model", "x"}}},
              {"mem_device",
               {{"backend", "cuda"},
                {"memory_clock_khz", 2619000},
                {"memory_bus_bits", 5120},
                {"memory_peak_bytes_per_s", 2.0 * 2619000e3 * 5120 / 8}}},
              {"results", {{"mem.triad.cuda", bandwidth(3000, "GB/s")}, {"mem.triad.opencl", bandwidth(1, "GB/s")}}}};
  const json peaks = judge::figure_peaks(doc, json::object());
  EXPECT_NEAR(peaks["mem.triad.cuda"]["value"].get<double>(), 3352.32, 0.01);
  EXPECT_NE(peaks["mem.triad.cuda"]["source"].get<std::string>().find("2619 MHz x 5120 bits x 2 / 8"),
            std::string::npos);
  doc.erase("mem_device");
  EXPECT_EQ(judge::figure_peaks(doc, json::object())["mem.triad.opencl"]["status"], "unknown");
}

TEST(Bands, ExpectFileOverridesTheBuiltInBand) {
  const std::string path = write_temp("expect.json", R"({"bands": [{"kind": "dram", "normal_from": 0.9,
      "source": "site acceptance test, 2026"}]})");
  const json v = verdicts_of(mem_doc(0.8 * 204800), fixture("dram_ok_thp_never.json"), path);
  EXPECT_EQ(v[0]["verdict"], "low");
  EXPECT_EQ(v[0]["band"]["source"], "site acceptance test, 2026");
}

TEST(Bands, MalformedExpectIsAUsageError) {
  const char* bad[] = {"",
                       "{",
                       "[]",
                       R"({"bands": []})",
                       R"({"bands": [{"kind": "dram", "normal_from": 0.7}]})",
                       R"({"bands": [{"kind": "cache", "normal_from": 0.7, "source": "x"}]})",
                       R"({"bands": [{"kind": "dram", "normal_from": -1, "source": "x"}]})",
                       "\x01\x02\xff"};
  for (const char* text : bad) {
    EXPECT_THROW(judge::load_bands(write_temp("bad.json", text)), UsageError) << text;
  }
  EXPECT_THROW(judge::load_bands("/nonexistent/bands.json"), UsageError);
}

TEST(Bands, EveryBuiltInRowCitesItsSources) {
  const json rows = judge::parse_bands(judge::builtin_bands_text(), "built-in");
  for (const auto& kind : judge::kBandKinds) {
    EXPECT_FALSE(judge::band_for(rows, kind, "any CPU").is_null()) << kind;
  }
  for (const auto& row : rows) {
    EXPECT_FALSE(row["source"].get<std::string>().empty());
    ASSERT_TRUE(row.contains("citations")) << row.dump();
    ASSERT_FALSE(row["citations"].empty());
    for (const auto& c : row["citations"]) {
      EXPECT_EQ(c["url"].get<std::string>().rfind("http", 0), 0u);
      EXPECT_FALSE(c["says"].get<std::string>().empty());
    }
  }
}

TEST(Verdicts, FailOnLowOrDegraded) {
  const json v = json::array({{{"verdict", "normal"}}, {{"verdict", "low"}}, {{"verdict", "unknown"}}});
  EXPECT_TRUE(judge::any_at_or_worse(v, "low"));
  EXPECT_FALSE(judge::any_at_or_worse(v, "degraded"));
  EXPECT_FALSE(judge::any_at_or_worse(v, ""));
  EXPECT_TRUE(judge::any_at_or_worse(json::array({{{"verdict", "degraded"}}}), "low"));
}

// The DRAM band per CPU family (data/bands.json's cpu_model_matches rows),
// chosen for the CPU the real dmidecode dumps of tests/data/dmi name.
TEST(Bands, DramRowPerCpuFamilyOfTheRealDumps) {
  const json rows = judge::load_bands("");
  const std::pair<const char*, const char*> cases[] = {
      {"epyc9454p_genoad12_9of12.txt", "AMD EPYC 9004 (Genoa, Zen 4)"},
      {"epyc9534_r7625_2s_dell.txt", "AMD EPYC 9004 (Genoa, Zen 4)"},
      {"epyc7313p_r6515_dell.txt", "AMD EPYC 7003 (Milan, Zen 3)"},
      {"epyc7373x_romed8_8of8.txt", "AMD EPYC 7003 (Milan, Zen 3)"},
      {"epyc7642_sr645_2s.txt", "AMD EPYC 7002 (Rome, Zen 2)"},
      {"epyc7272_romed8_4of8.txt", "AMD EPYC 7002 (Rome, Zen 2)"},
      {"epyc7351p_s8026_8of16.txt", "AMD EPYC 7001 (Naples, Zen 1)"},
      {"xeon6140_b7109_2s.txt", "Intel Xeon Scalable 1st gen (Skylake-SP) Platinum/Gold 6"},
      {"xeon8124m_epc621d8a_1dimm.txt", "Intel Xeon Scalable 1st gen (Skylake-SP) Platinum/Gold 6"},
      {"xeon8171m_ep2c622d16_2s.txt", "Intel Xeon Scalable 1st gen (Skylake-SP) Platinum/Gold 6"},
      {"grace_csit_c1_lpddr5.txt", "NVIDIA Grace (Grace Hopper, Grace CPU Superchip; LPDDR5X)"},
      // No per-family row: the general DRAM row (no cpu_family).
      {"epyc4244p_msis366_outofspec.txt", ""},
      {"xeon6426y_flagman_outofspec.txt", ""},
      {"xeon6346_r1g3d32_2s.txt", ""},
      {"xeon6263cy_hr630x_2s_2dpc.txt", ""},  // Cascade Lake: no published figure found
      {"xeon5317_altairz_2s.txt", ""},
      {"xeone52680v4_r280_2s_2dpc.txt", ""},
      {"altra_altrad8ud_4of8.txt", ""}};
  for (const auto& [file, family] : cases) {
    facts::Sources sources;
    sources.dmidecode_file = std::string(MOVEBENCH_TEST_DATA) + "/dmi/" + file;
    const std::string model = facts::cpu_facts(sources)["model"].get<std::string>();
    const json row = judge::band_for(rows, "dram", model);
    ASSERT_FALSE(row.is_null()) << file;
    EXPECT_EQ(row.value("cpu_family", ""), family) << file << ": " << model;
    if (*family) {
      EXPECT_FALSE(row["citations"].empty()) << file;
    }
  }
}

TEST(Bands, BadCpuModelRegexIsOneLine) {
  EXPECT_THROW(judge::load_bands(write_temp("bad_regex.json", R"({"bands": [{"kind": "dram", "normal_from": 0.7,
      "source": "x", "cpu_model_matches": "EPYC ("}]})")),
               UsageError);
}

// Grace's SMBIOS type 4 Version as lscpu's "BIOS Model name" prints it on a
// GH200 (docs/facts.md#bands; the one Grace dump, tests/data/dmi, says
// "Grace A02"), against the other families' model strings, which must not
// take Grace's row.
TEST(Bands, DramRowOfGraceByItsModelString) {
  const json rows = judge::load_bands("");
  const auto family = [&](const std::string& model) {
    return judge::band_for(rows, "dram", model).value("cpu_family", "");
  };
  EXPECT_EQ(family("Grace A02P 900-2G548-0001-000 CPU @ 3.3GHz"),
            "NVIDIA Grace (Grace Hopper, Grace CPU Superchip; LPDDR5X)");
  EXPECT_EQ(judge::band_for(rows, "dram", "Grace A02P").value("normal_from", 0.0), 0.75);
  for (const char* other : {"Ampere(R) Altra(R) Processor", "Neoverse-V2", "AmpereOne A192-32X",
                            "Intel(R) Xeon(R) Gold 6426Y", "AMD EPYC 9454P 48-Core Processor", "Gracemont"}) {
    EXPECT_EQ(family(other).find("Grace"), std::string::npos) << other;
  }
}

namespace {

// A GPU NVML lists with C2C links (device/nvml_links.hpp), on the bus of
// link_doc's device; MB/s per link, 0 an inactive link, -1 none given.
json c2c_facts(const std::vector<double>& links, const std::string& name = "NVIDIA Stand-in GPU") {
  json gpu = {{"bus_id", "0000:17:00.0"},
              {"name", name},
              {"mode_enabled", true},
              {"link_count", links.size()},
              {"links", json::array()}};
  int active = 0;
  for (std::size_t i = 0; i < links.size(); ++i) {
    json l = {{"link", i}, {"active", links[i] != 0}};
    if (links[i] > 0) l["max_mb_per_second"] = links[i];
    active += links[i] != 0;
    gpu["links"].push_back(l);
  }
  gpu["links_active"] = active;
  json acc = {{"status", "known"},
              {"devices", json::array()},
              {"c2c", {{"status", "known"}, {"source", "nvml"}, {"devices", {gpu}}}}};
  facts::add_c2c_peaks(acc);
  return {{"accelerators", acc}};
}

}  // namespace

// A GPU on NVLink-C2C: link's figures are held against the C2C peak (the
// sum of NVML's per-link figures), not "unknown" for want of PCIe facts.
TEST(Verdicts, LinkOnC2cIsHeldAgainstTheSumOfNvmlsLinks) {
  const json facts = c2c_facts(std::vector<double>(10, 45000));
  const json peaks = judge::figure_peaks(link_doc(346000), facts);
  const json& read = peaks["link.copy.read.pinned"];
  EXPECT_EQ(read["kind"], "c2c");
  EXPECT_DOUBLE_EQ(read["value"].get<double>(), 450000);  // 10 x 45000 MB/s, in the figure's MB/s
  EXPECT_NE(read["source"].get<std::string>().find("10 active links x 45000 MB/s"), std::string::npos);
  EXPECT_DOUBLE_EQ(peaks["link.copy.duplex.total.pinned"]["value"].get<double>(), 900000);
  const json v = verdicts_of(link_doc(346000), facts);
  EXPECT_EQ(v[0]["verdict"], "normal") << judge::verdict_line(v[0]);     // 77%, the band is 60%
  EXPECT_EQ(verdicts_of(link_doc(200000), facts)[0]["verdict"], "low");  // 44%
}

// An inactive C2C link makes the path degraded (the peak counts the active
// ones only, so the fraction alone would not show it).
TEST(Verdicts, InactiveC2cLinkIsDegraded) {
  std::vector<double> links(10, 45000);
  links[3] = 0;
  const json v = verdicts_of(link_doc(346000), c2c_facts(links));
  EXPECT_EQ(v[0]["verdict"], "degraded");
  EXPECT_EQ(v[0]["reasons"][0], "1 of 10 NVLink-C2C links inactive (NVML)");
}

// Without NVML's per-link figure: NVIDIA's published figure for a GH200,
// and unknown, saying why, for a part no published row names.
TEST(Peaks, C2cWithoutPerLinkBandwidthTakesThePublishedFigureOrIsUnknown) {
  const json gh200 = c2c_facts(std::vector<double>(10, -1), "NVIDIA GH200 480GB");
  const json gpu = gh200["accelerators"]["c2c"]["devices"][0];
  EXPECT_DOUBLE_EQ(gpu["peak"]["bytes_per_second"].get<double>(), 450e9);
  EXPECT_NE(gpu["peak"]["source"].get<std::string>().find("450 GB/s per direction"), std::string::npos);
  EXPECT_EQ(gpu["published"]["part"], "NVIDIA GH200 Grace Hopper Superchip");
  const json held = judge::figure_peaks(link_doc(346000), gh200)["link.copy.read.pinned"];
  EXPECT_DOUBLE_EQ(held["value"].get<double>(), 450000);
  const json other = c2c_facts(std::vector<double>(4, -1), "NVIDIA Future Part");
  const json peak = judge::figure_peaks(link_doc(346000), other)["link.copy.read.pinned"];
  EXPECT_EQ(peak["status"], "unknown");
  EXPECT_NE(peak["why"].get<std::string>().find("no published figure (data/c2c.json) names 'NVIDIA Future Part'"),
            std::string::npos)
      << peak.dump();
}
