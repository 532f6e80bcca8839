// The CPU model and where it came from (facts/cpu_model.hpp): /proc/cpuinfo's
// model name, else SMBIOS type 4, else the MIDR's core, on real arm64
// /proc/cpuinfo texts (tests/data/cpuinfo) and real dmidecode outputs
// (tests/data/dmi), and which CPU table row and band of normal the model
// then takes. Origins: tests/data/README.md.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/host_info.hpp"
#include "facts/cpu_model.hpp"
#include "facts/cpu_table.hpp"
#include "facts/facts.hpp"
#include "facts/smbios.hpp"
#include "judge/bands.hpp"

namespace fs = std::filesystem;
using namespace movebench::facts;

namespace {

const fs::path kData = fs::path(MOVEBENCH_SOURCE_DIR) / "tests" / "data";

std::string file_text(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

CpuinfoFields real_cpuinfo(const std::string& name) {
  CpuinfoFields f = parse_cpuinfo(file_text(kData / "cpuinfo" / name));
  f.path = "/proc/cpuinfo";
  return f;
}

std::string dram_band_family(const std::string& model) {
  return judge::band_for(judge::load_bands(""), "dram", model).value("cpu_family", "the general row");
}

}  // namespace

TEST(FactsCpuModel, TheMidrNamesTheCoreOfRealArm64Cpuinfo) {
  const std::pair<const char*, const char*> machines[] = {
      {"grace_jureca_rocky95.txt", "ARM Neoverse-V2"},
      {"graviton3_aws.txt", "ARM Neoverse-V1"},
      {"a64fx_deucalion_rocky85.txt", "FUJITSU A64FX"},
  };
  for (const auto& [file, core] : machines) {
    SCOPED_TRACE(file);
    const auto cpuinfo = real_cpuinfo(file);
    EXPECT_TRUE(cpuinfo.model_name.empty());  // arm64: no "model name"
    const auto model = choose_cpu_model(cpuinfo, std::nullopt, "no SMBIOS table (a VM)");
    EXPECT_EQ(model.model, core);
    EXPECT_EQ(model.source, "midr");
    EXPECT_NE(model.from.find("CPU implementer " + cpuinfo.implementer), std::string::npos) << model.from;
    EXPECT_NE(model.from.find("no SMBIOS table (a VM)"), std::string::npos) << model.from;
    // The core is no chip: Neoverse-V2 is also Graviton4's, so it takes no family's row.
    EXPECT_FALSE(find_cpu_row(cpu_table(), model.model)) << model.model;
    EXPECT_EQ(dram_band_family(model.model), "the general row");
  }
}

TEST(FactsCpuModel, SmbiosType4NamesGraceWhereCpuinfoHasNoModel) {
  const auto smbios = parse_dmidecode_text(file_text(kData / "dmi" / "grace_csit_c1_lpddr5.txt"));
  const auto model = choose_cpu_model(real_cpuinfo("grace_jureca_rocky95.txt"), smbios, "");
  EXPECT_EQ(model.model, "Grace A02");
  EXPECT_EQ(model.source, "smbios");
  EXPECT_EQ(model.from.rfind("SMBIOS type 4 Version", 0), 0u) << model.from;
  EXPECT_EQ(dram_band_family(model.model), "NVIDIA Grace (Grace Hopper, Grace CPU Superchip; LPDDR5X)");
  EXPECT_DOUBLE_EQ(judge::band_for(judge::load_bands(""), "dram", model.model)["normal_from"].get<double>(), 0.75);
}

TEST(FactsCpuModel, DmidecodeOfGraceAndAltraTakeTheirRows) {
  Sources grace;
  grace.dmidecode_file = (kData / "dmi" / "grace_csit_c1_lpddr5.txt").string();
  const auto grace_cpu = cpu_facts(grace);
  EXPECT_EQ(grace_cpu["model"], "Grace A02");
  EXPECT_EQ(grace_cpu["model_source"], "smbios");
  EXPECT_EQ(grace_cpu["vendor"], "NVIDIA");  // type 4 Manufacturer: the model names no vendor
  EXPECT_EQ(dram_band_family(grace_cpu["model"].get<std::string>()),
            "NVIDIA Grace (Grace Hopper, Grace CPU Superchip; LPDDR5X)");
  Sources altra;
  altra.dmidecode_file = (kData / "dmi" / "altra_altrad8ud_4of8.txt").string();
  const auto altra_cpu = cpu_facts(altra);
  EXPECT_EQ(altra_cpu["model"], "Ampere(R) Altra(R) Processor");
  EXPECT_EQ(altra_cpu["model_source"], "smbios");
  const auto dram = dram_facts(altra, altra_cpu);
  EXPECT_EQ(dram["channels_source"]["family"], "Ampere Altra / Altra Max");
  EXPECT_EQ(dram["channels_per_socket"], 8);
}

TEST(FactsCpuModel, ModelNameKeepsX86AsBefore) {
  // Made up: two x86 processors with a model name, an SMBIOS type 4 that names another.
  const auto cpuinfo = parse_cpuinfo(
      "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 106\n"
      "model name\t: Intel(R) Xeon(R) Gold 6346 CPU @ 3.10GHz\n\n"
      "processor\t: 1\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Gold 6346 CPU @ 3.10GHz\n");
  EXPECT_EQ(cpuinfo.vendor_id, "GenuineIntel");
  EXPECT_EQ(cpuinfo.family, "6");
  EXPECT_EQ(cpuinfo.model_number, "106");
  SmbiosMemory smbios;
  smbios.processors.push_back({"CPU0", "Some Other Name", "Intel(R) Corporation", "Xeon", true});
  const auto model = choose_cpu_model(cpuinfo, smbios, "");
  EXPECT_EQ(model.model, "Intel(R) Xeon(R) Gold 6346 CPU @ 3.10GHz");
  EXPECT_EQ(model.source, "cpuinfo");
  EXPECT_EQ(find_cpu_row(cpu_table(), model.model)->channels_per_socket, 8);
}

TEST(FactsCpuModel, ThisMachinesModelIsHostInfosWhereCpuinfoNamesOne) {
  // Every result's "host" names the CPU as core/host_info does: the facts must not differ.
  if (parse_cpuinfo(file_text("/proc/cpuinfo")).model_name.empty()) GTEST_SKIP() << "no model name (arm64)";
  const auto cpu = cpu_facts(Sources{});
  EXPECT_EQ(cpu["model"], movebench::cpu_model_name());
  EXPECT_EQ(cpu["model_source"], "cpuinfo");
}

TEST(FactsCpuModel, ManufacturerAndFamilyWhereNoVersionAndUnknownOtherwise) {
  SmbiosMemory smbios;
  smbios.source = "SMBIOS table";
  smbios.processors.push_back({"CPU0", "Not Specified", "Ampere(R)", "ARMv8", true});
  std::string field;
  EXPECT_EQ(smbios_cpu_model(smbios, field), "Ampere(R) ARMv8");
  EXPECT_EQ(field, "Manufacturer and Family");
  smbios.processors[0] = {"CPU0", "To Be Filled By O.E.M.", "", "", true};
  EXPECT_FALSE(smbios_cpu_model(smbios, field));
  // No name anywhere: "unknown CPU", with every source's reason.
  auto cpuinfo = parse_cpuinfo("processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0xfff\n");
  cpuinfo.path = "/proc/cpuinfo";
  const auto model = choose_cpu_model(cpuinfo, smbios, "");
  EXPECT_EQ(model.model, "unknown CPU");
  EXPECT_EQ(model.source, "none");
  EXPECT_NE(model.from.find("names no populated processor"), std::string::npos) << model.from;
  EXPECT_NE(model.from.find("part 0xfff is not in"), std::string::npos) << model.from;
}

TEST(FactsCpuModel, EveryRowOfTheMidrTableNamesItsCore) {
  std::istringstream csv{std::string(builtin_arm_cpu_parts_csv())};
  std::string line;
  int rows = 0;
  bool header = true;
  while (std::getline(csv, line)) {
    if (line.empty() || line[0] == '#' || std::exchange(header, false)) continue;
    std::vector<std::string> cells;
    std::istringstream cell_stream(line);
    for (std::string cell; std::getline(cell_stream, cell, ',');) cells.push_back(cell);
    ASSERT_EQ(cells.size(), 4u) << line;
    EXPECT_EQ(midr_cpu_model(cells[0], cells[2]), cells[1] + " " + cells[3]) << line;
    ++rows;
  }
  EXPECT_GT(rows, 20);
  EXPECT_EQ(midr_cpu_model("0x41", "0xD4F"), "ARM Neoverse-V2");  // either case
  EXPECT_EQ(midr_cpu_model("0xc0", "0xac4"), "Ampere Ampere-1a");
  EXPECT_FALSE(midr_cpu_model("0x41", "d4f"));
  EXPECT_FALSE(midr_cpu_model("", ""));
}

namespace {

// A binary SMBIOS type 4 (SMBIOS 3.x) with no Version string: socket and
// manufacturer strings, family byte 0xFE with the family-2 word, populated.
std::vector<std::uint8_t> type4_structure(std::uint16_t family2, std::vector<std::string> strings) {
  std::vector<std::uint8_t> out(0x2A, 0);
  out[0] = 4, out[1] = 0x2A, out[0x04] = 1, out[0x06] = 0xFE, out[0x07] = 2, out[0x18] = 0x41;
  out[0x28] = family2 & 0xFF, out[0x29] = family2 >> 8;
  for (const auto& s : strings) {
    out.insert(out.end(), s.begin(), s.end());
    out.push_back(0);
  }
  out.push_back(0);
  return out;
}

}  // namespace

TEST(FactsCpuModel, TheLiveFallbackReadsTheSysfsTableThenTheMidr) {
  const fs::path root = fs::temp_directory_path() / ("movebench_cpu_model_" + std::to_string(getpid()));
  fs::create_directories(root / "proc");
  fs::create_directories(root / "sys/firmware/dmi/tables");
  fs::copy_file(kData / "cpuinfo" / "grace_jureca_rocky95.txt", root / "proc/cpuinfo");
  Sources sources;
  sources.proc_root = (root / "proc").string();
  sources.sysfs_root = (root / "sys").string();
  const auto midr = cpu_facts(sources);                             // no DMI file: the MIDR
  const auto table = type4_structure(0x102, {"G1:0.0", "NVIDIA"});  // 0x102: ARMv9
  std::ofstream(root / "sys/firmware/dmi/tables/DMI", std::ios::binary)
      .write(reinterpret_cast<const char*>(table.data()), static_cast<std::streamsize>(table.size()));
  const auto smbios = cpu_facts(sources);
  fs::remove_all(root);
  EXPECT_EQ(midr["model"], "ARM Neoverse-V2");
  EXPECT_EQ(midr["model_source"], "midr");
  EXPECT_NE(midr["model_from"].get<std::string>().find("DMI absent"), std::string::npos) << midr["model_from"];
  EXPECT_EQ(smbios["model"], "NVIDIA ARMv9");
  EXPECT_EQ(smbios["model_source"], "smbios");
  EXPECT_NE(smbios["model_from"].get<std::string>().find("Manufacturer and Family"), std::string::npos);
}
