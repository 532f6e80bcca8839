// The facts layer's PCIe, NIC and memory-tier parts (src/facts): the link
// table, the `lspci -vv` parser on real outputs (tests/data/lspci, README
// there) and on hostile ones, and the sysfs readers on a made-up tree.
// Every expected peak is computed here by hand, never by the code under test.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/errors.hpp"
#include "facts/facts.hpp"
#include "facts/lspci.hpp"
#include "facts/nic.hpp"
#include "facts/pcie_device.hpp"
#include "facts/pcie_link.hpp"

using namespace movebench;
using namespace movebench::facts;
namespace fs = std::filesystem;

namespace {

std::string data_file(const std::string& name) {
  std::ifstream in(std::string(MOVEBENCH_TEST_DATA) + "/lspci/" + name, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

const nlohmann::json* find_device(const nlohmann::json& devices, const std::string& bus_id) {
  for (const auto& d : devices) {
    if (d["bus_id"] == bus_id) return &d;
  }
  return nullptr;
}

}  // namespace

// Per-lane bytes per second, hand computed: rate x encoding / 8 bits.
TEST(FactsPcieTable, GenerationsEncodingsAndPeaks) {
  EXPECT_EQ(pcie_generation(2.5), 1);
  EXPECT_EQ(pcie_generation(5), 2);
  EXPECT_EQ(pcie_generation(8), 3);
  EXPECT_EQ(pcie_generation(16), 4);
  EXPECT_EQ(pcie_generation(32), 5);
  EXPECT_EQ(pcie_generation(64), 6);
  EXPECT_EQ(pcie_generation(128), 0);
  EXPECT_STREQ(pcie_encoding(1)->name, "8b/10b");
  EXPECT_STREQ(pcie_encoding(2)->name, "8b/10b");
  EXPECT_STREQ(pcie_encoding(3)->name, "128b/130b");
  EXPECT_STREQ(pcie_encoding(5)->name, "128b/130b");
  EXPECT_STREQ(pcie_encoding(6)->name, "flit");
  EXPECT_FALSE(pcie_encoding(0));
  EXPECT_DOUBLE_EQ(pcie_peak_bytes_per_second(2.5, 1), 250e6);      // 2.5e9 x 8/10 / 8
  EXPECT_DOUBLE_EQ(pcie_peak_bytes_per_second(5, 1), 500e6);        // 5e9 x 8/10 / 8
  EXPECT_NEAR(pcie_peak_bytes_per_second(8, 1), 984.615e6, 1e3);    // 8e9 x 128/130 / 8
  EXPECT_NEAR(pcie_peak_bytes_per_second(16, 16), 31.5077e9, 1e5);  // 16e9 x 128/130 x 16 / 8
  EXPECT_NEAR(pcie_peak_bytes_per_second(32, 16), 63.0154e9, 1e5);  // 32e9 x 128/130 x 16 / 8
  EXPECT_DOUBLE_EQ(pcie_peak_bytes_per_second(64, 16), 121e9);      // 64e9 x 242/256 x 16 / 8
  EXPECT_EQ(pcie_peak_bytes_per_second(3, 16), 0);                  // not a PCIe rate
  EXPECT_EQ(pcie_peak_bytes_per_second(16, 0), 0);                  // width unknown
  EXPECT_DOUBLE_EQ(parse_link_speed("16.0 GT/s PCIe"), 16.0);
  EXPECT_DOUBLE_EQ(parse_link_speed("8GT/s"), 8.0);
  EXPECT_EQ(parse_link_speed("Unknown"), 0);
  EXPECT_EQ(normalize_bus_id("17:00.0"), "0000:17:00.0");
  EXPECT_EQ(normalize_bus_id("00000000:1A:00.0"), "0000:1a:00.0");
}

TEST(FactsPcieKinds, ClassesListed) {
  EXPECT_EQ(pcie_kind(0x0302), "gpu");
  EXPECT_EQ(pcie_kind(0x0300), "gpu");
  EXPECT_EQ(pcie_kind(0x1200), "accelerator");
  EXPECT_EQ(pcie_kind(0x0200), "nic");
  EXPECT_EQ(pcie_kind(0x0207), "infiniband");
  EXPECT_EQ(pcie_kind(0x0c06), "infiniband");
  EXPECT_EQ(pcie_kind(0x0108), "nvme");
  EXPECT_EQ(pcie_kind(0x0604), "");
  EXPECT_EQ(pcie_kind(0x0c03), "");
  EXPECT_EQ(pcie_class_from_name("3D controller"), 0x0302);
}

// ASRock Rack ROMED8-2T (EPYC, Debian 12): the Gen4 x4 NVMe behind root port
// 40:01.1, the Intel X550 (Gen3 x4) behind 40:01.3, whose own LnkSta shows
// 8 GT/s of its 16: not degraded, the NIC's maximum is 8 GT/s.
TEST(FactsLspci, RomeServerNvmeAndX550) {
  const auto devices = parse_lspci(data_file("asrockrack-romed8-2t-excerpt.txt"), "romed8");
  ASSERT_EQ(devices.size(), 2u);  // the bridges give the topology, they are not listed
  const auto* nvme = find_device(devices, "0000:41:00.0");
  ASSERT_TRUE(nvme);
  EXPECT_EQ((*nvme)["kind"], "nvme");
  EXPECT_EQ((*nvme)["vendor_id"], "1987");
  EXPECT_EQ((*nvme)["device_id"], "5016");
  EXPECT_EQ((*nvme)["name"], "Phison Electronics Corporation E16 PCIe4 NVMe Controller");
  EXPECT_EQ((*nvme)["gen"], 4);
  EXPECT_EQ((*nvme)["width"], 4);
  EXPECT_EQ((*nvme)["encoding"], "128b/130b");
  EXPECT_NEAR((*nvme)["peak_bytes_per_second"].get<double>(), 7.8769e9, 1e5);  // 16e9 x 128/130 x 4 / 8
  EXPECT_EQ((*nvme)["upstream"]["bus_id"], "0000:40:01.1");
  EXPECT_EQ((*nvme)["upstream"]["max_width"], 4);
  EXPECT_FALSE((*nvme)["degraded"].get<bool>());
  EXPECT_EQ((*nvme)["source"], "lspci -vv romed8");
  const auto* nic = find_device(devices, "0000:42:00.1");
  ASSERT_TRUE(nic);
  EXPECT_EQ((*nic)["kind"], "nic");
  EXPECT_EQ((*nic)["gen"], 3);
  EXPECT_NEAR((*nic)["peak_bytes_per_second"].get<double>(), 3.9385e9, 1e5);  // 8e9 x 128/130 x 4 / 8
  EXPECT_EQ((*nic)["upstream"]["bus_id"], "0000:40:01.3");
  EXPECT_DOUBLE_EQ((*nic)["upstream"]["max_speed_gts"].get<double>(), 16.0);
  EXPECT_NEAR((*nic)["attainable_peak_bytes_per_second"].get<double>(), 3.9385e9, 1e5);  // min(8, 16) GT/s x4
  EXPECT_FALSE((*nic)["degraded"].get<bool>());
  EXPECT_FALSE((*nic)["lspci_downgraded"].get<bool>());
}

// Dell PowerEdge C4140: a Tesla V100 SXM2 at Gen3 x16 "(ok)", NUMA node 1;
// the excerpt holds no bridge, so the upstream port is unknown.
TEST(FactsLspci, DellV100Gen3x16) {
  const auto devices = parse_lspci(data_file("dell-c4140-v100-excerpt.txt"), "c4140");
  ASSERT_EQ(devices.size(), 1u);
  const auto& gpu = devices[0];
  EXPECT_EQ(gpu["bus_id"], "0000:af:00.0");
  EXPECT_EQ(gpu["kind"], "gpu");
  EXPECT_EQ(gpu["class"], "0x0302");
  EXPECT_EQ(gpu["name"], "NVIDIA Corporation GV100GL [Tesla V100 SXM2 16GB]");
  EXPECT_EQ(gpu["numa_node"], 1);
  EXPECT_NEAR(gpu["peak_bytes_per_second"].get<double>(), 15.7538e9, 1e5);  // 8e9 x 128/130 x 16 / 8
  EXPECT_TRUE(gpu["upstream"].is_null());
  EXPECT_FALSE(gpu["degraded"].get<bool>());
}

// Dell Precision 3640 (GeForce GT 710, Debian 12): the whole file of an
// `lspci -vv` run without root: every capability reads <access denied>, so no
// link is known, and the one line says to run it as root.
TEST(FactsLspci, NonRootOutputSaysRunAsRoot) {
  const std::string text = data_file("dell-precision-3640-nonroot.txt");
  ASSERT_EQ(text.size(), 12489u);  // the file as the repository holds it
  try {
    parse_lspci(text, "p3640");
    FAIL() << "a non-root output was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("run `lspci -vv` as root"), std::string::npos) << e.what();
  }
}

// Supermicro AS-4124GS-TNR (EPYC Rome, Ubuntu 20.04): a real degraded link. The
// ConnectX-5 MCX556A (a Gen3 x16 card: LnkCap 8 GT/s x16, its VPD says
// "PCIeGen3 x16") trained at x8 behind root port 00:01.1 (Gen4 x16): half its
// lanes are missing, whatever the load. The RTX A6000 (10de:2230, Gen4 x16) at
// 2.5 GT/s x16 behind 20:03.1 (Gen4 x16) is the idle-GPU case: speed only, the
// reason says to read it under load.
TEST(FactsLspci, RealDegradedConnectX5AndIdleGpu) {
  const auto devices = parse_lspci(data_file("supermicro-as4124gs-tnr-excerpt.txt"), "as4124");
  ASSERT_EQ(devices.size(), 2u);  // the two root ports are not listed
  const auto* nic = find_device(devices, "0000:01:00.0");
  ASSERT_TRUE(nic);
  EXPECT_EQ((*nic)["kind"], "nic");
  EXPECT_EQ((*nic)["vendor_id"], "15b3");
  EXPECT_EQ((*nic)["device_id"], "1017");
  EXPECT_EQ((*nic)["name"], "Mellanox Technologies MT27800 Family [ConnectX-5]");
  EXPECT_EQ((*nic)["numa_node"], 0);
  EXPECT_EQ((*nic)["gen"], 3);
  EXPECT_EQ((*nic)["width"], 8);
  EXPECT_EQ((*nic)["max_width"], 16);
  EXPECT_NEAR((*nic)["peak_bytes_per_second"].get<double>(), 7.8769e9, 1e5);       // 8e9 x 128/130 x 8 / 8
  EXPECT_NEAR((*nic)["max_peak_bytes_per_second"].get<double>(), 15.7538e9, 1e5);  // 8e9 x 128/130 x 16 / 8
  EXPECT_EQ((*nic)["upstream"]["bus_id"], "0000:00:01.1");
  EXPECT_DOUBLE_EQ((*nic)["upstream"]["max_speed_gts"].get<double>(), 16.0);
  EXPECT_EQ((*nic)["upstream"]["max_width"], 16);
  // Both ends: min(8, 16) GT/s and min(x16, x16): Gen3 x16.
  EXPECT_NEAR((*nic)["attainable_peak_bytes_per_second"].get<double>(), 15.7538e9, 1e5);
  EXPECT_TRUE((*nic)["degraded"].get<bool>());
  EXPECT_TRUE((*nic)["lspci_downgraded"].get<bool>());
  EXPECT_EQ((*nic)["why"],
            "trained at 8 GT/s (Gen3) x8, below the 8 GT/s (Gen3) x16 both ends support (device max 8 GT/s (Gen3) "
            "x16, upstream port 0000:00:01.1 max 16 GT/s (Gen4) x16)");

  const auto* gpu = find_device(devices, "0000:22:00.0");
  ASSERT_TRUE(gpu);
  EXPECT_EQ((*gpu)["kind"], "gpu");
  EXPECT_EQ((*gpu)["class"], "0x0300");
  EXPECT_EQ((*gpu)["device_id"], "2230");
  EXPECT_EQ((*gpu)["max_gen"], 4);
  EXPECT_EQ((*gpu)["gen"], 1);
  EXPECT_EQ((*gpu)["encoding"], "8b/10b");
  EXPECT_DOUBLE_EQ((*gpu)["peak_bytes_per_second"].get<double>(), 4e9);            // 2.5e9 x 8/10 x 16 / 8
  EXPECT_NEAR((*gpu)["max_peak_bytes_per_second"].get<double>(), 31.5077e9, 1e5);  // 16e9 x 128/130 x 16 / 8
  EXPECT_EQ((*gpu)["upstream"]["bus_id"], "0000:20:03.1");
  EXPECT_NEAR((*gpu)["attainable_peak_bytes_per_second"].get<double>(), 31.5077e9, 1e5);
  EXPECT_TRUE((*gpu)["degraded"].get<bool>());
  const std::string why = (*gpu)["why"];
  EXPECT_NE(why.find("trained at 2.5 GT/s (Gen1) x16, below the 16 GT/s (Gen4) x16 both ends support"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("an idle GPU lowers its speed: read it under load"), std::string::npos) << why;
}

// The same model, another machine (Ubuntu 20.04, kernel 5.4): a Quadro RTX 5000
// (Gen3 x16) at Gen3 x16 "(ok)" behind root port 00:01.1, whose own LnkSta says
// "8GT/s (downgraded)" of its 16. Not degraded: the card's maximum is 8 GT/s,
// and the port's marker is not the device's.
TEST(FactsLspci, RealQuadroBehindGen4PortIsNotDegraded) {
  const auto devices = parse_lspci(data_file("supermicro-as4124gs-tnr-quadro-excerpt.txt"), "as4124-quadro");
  ASSERT_EQ(devices.size(), 1u);
  const auto& gpu = devices[0];
  EXPECT_EQ(gpu["bus_id"], "0000:01:00.0");
  EXPECT_EQ(gpu["kind"], "gpu");
  EXPECT_EQ(gpu["name"], "NVIDIA Corporation TU104GL [Quadro RTX 5000]");
  EXPECT_EQ(gpu["device_id"], "1eb0");
  EXPECT_NEAR(gpu["peak_bytes_per_second"].get<double>(), 15.7538e9, 1e5);  // 8e9 x 128/130 x 16 / 8
  EXPECT_EQ(gpu["upstream"]["bus_id"], "0000:00:01.1");
  EXPECT_EQ(gpu["upstream"]["max_gen"], 4);
  // min(8, 16) GT/s x min(16, 16): the card's own Gen3 x16.
  EXPECT_NEAR(gpu["attainable_peak_bytes_per_second"].get<double>(), 15.7538e9, 1e5);
  EXPECT_FALSE(gpu["degraded"].get<bool>());
  EXPECT_TRUE(gpu.find("why") == gpu.end());
  EXPECT_FALSE(gpu["lspci_downgraded"].get<bool>());
}

// Supermicro X11DPG-OT (8-GPU Skylake-SP board, Ubuntu 18.04): a GPU
// (10de:1e07, named "GV102" by that machine's pci.ids) behind a PLX PEX 8747
// switch port. An older lspci: no "(ok)"/"(downgraded)" markers, and LnkSta
// on one line with the flags. The upstream port is the switch's downstream
// port 19:08.0 (Gen3 x16); the GPU idles at 2.5 GT/s x16.
TEST(FactsLspci, RealGpuBehindPlxSwitchOldLspci) {
  const auto devices = parse_lspci(data_file("supermicro-x11dpg-ot-plx-excerpt.txt"), "x11dpg");
  ASSERT_EQ(devices.size(), 1u);
  const auto& gpu = devices[0];
  EXPECT_EQ(gpu["bus_id"], "0000:1a:00.0");
  EXPECT_EQ(gpu["kind"], "gpu");
  EXPECT_EQ(gpu["name"], "NVIDIA Corporation GV102");
  EXPECT_EQ(gpu["numa_node"], 0);
  EXPECT_DOUBLE_EQ(gpu["speed_gts"].get<double>(), 2.5);
  EXPECT_EQ(gpu["width"], 16);
  EXPECT_DOUBLE_EQ(gpu["peak_bytes_per_second"].get<double>(), 4e9);  // 2.5e9 x 8/10 x 16 / 8
  EXPECT_EQ(gpu["upstream"]["bus_id"], "0000:19:08.0");
  EXPECT_DOUBLE_EQ(gpu["upstream"]["max_speed_gts"].get<double>(), 8.0);
  EXPECT_EQ(gpu["upstream"]["max_width"], 16);
  EXPECT_NEAR(gpu["attainable_peak_bytes_per_second"].get<double>(), 15.7538e9, 1e5);  // 8e9 x 128/130 x 16 / 8
  EXPECT_TRUE(gpu["degraded"].get<bool>());
  EXPECT_FALSE(gpu["lspci_downgraded"].get<bool>());  // this lspci prints no markers
  EXPECT_NE(gpu["why"].get<std::string>().find("an idle GPU lowers its speed"), std::string::npos);
}

// HPE Cray XD665 (EPYC Genoa, Ubuntu 23.10, a newer lspci that prints no
// marker at all): the Broadcom BCM57416 OCP3 NIC (Gen3 x8) at Gen3 x8 behind
// root port 20:01.1, a Gen5 x16 port trained at 8 GT/s x8. Not degraded: the
// NIC is the narrower, slower end.
TEST(FactsLspci, RealBroadcomNicBehindGen5Port) {
  const auto devices = parse_lspci(data_file("hpe-cray-xd665-bcm57416-excerpt.txt"), "xd665");
  ASSERT_EQ(devices.size(), 1u);
  const auto& nic = devices[0];
  EXPECT_EQ(nic["bus_id"], "0000:21:00.0");
  EXPECT_EQ(nic["kind"], "nic");
  EXPECT_EQ(nic["vendor_id"], "14e4");
  EXPECT_EQ(nic["device_id"], "16d8");
  EXPECT_EQ(nic["gen"], 3);
  EXPECT_EQ(nic["width"], 8);
  EXPECT_NEAR(nic["peak_bytes_per_second"].get<double>(), 7.8769e9, 1e5);  // 8e9 x 128/130 x 8 / 8
  EXPECT_EQ(nic["upstream"]["bus_id"], "0000:20:01.1");
  EXPECT_EQ(nic["upstream"]["max_gen"], 5);
  EXPECT_DOUBLE_EQ(nic["upstream"]["max_speed_gts"].get<double>(), 32.0);
  EXPECT_EQ(nic["upstream"]["max_width"], 16);
  // min(8, 32) GT/s x min(8, 16) lanes: the NIC's own Gen3 x8.
  EXPECT_NEAR(nic["attainable_peak_bytes_per_second"].get<double>(), 7.8769e9, 1e5);
  EXPECT_FALSE(nic["degraded"].get<bool>());
  EXPECT_FALSE(nic["lspci_downgraded"].get<bool>());
}

// Dell PowerEdge R740 (Skylake-SP, Ubuntu 22.04): a Tesla M40 (Gen3 x16) idle
// at 2.5 GT/s x16. The excerpt holds no bridge: compared with the device alone,
// and the reason says both that and the idle-GPU note.
TEST(FactsLspci, RealTeslaM40IdleWithoutItsPort) {
  const auto devices = parse_lspci(data_file("dell-r740-tesla-m40-excerpt.txt"), "r740");
  ASSERT_EQ(devices.size(), 1u);
  const auto& gpu = devices[0];
  EXPECT_EQ(gpu["bus_id"], "0000:3b:00.0");
  EXPECT_EQ(gpu["kind"], "gpu");
  EXPECT_EQ(gpu["name"], "NVIDIA Corporation GM200GL [Tesla M40]");
  EXPECT_EQ(gpu["device_id"], "17fd");
  EXPECT_DOUBLE_EQ(gpu["peak_bytes_per_second"].get<double>(), 4e9);            // 2.5e9 x 8/10 x 16 / 8
  EXPECT_NEAR(gpu["max_peak_bytes_per_second"].get<double>(), 15.7538e9, 1e5);  // 8e9 x 128/130 x 16 / 8
  EXPECT_TRUE(gpu["upstream"].is_null());
  EXPECT_TRUE(gpu["degraded"].get<bool>());
  EXPECT_TRUE(gpu["lspci_downgraded"].get<bool>());
  const std::string why = gpu["why"];
  EXPECT_NE(why.find("not known: compared with the device alone"), std::string::npos) << why;
  EXPECT_NE(why.find("an idle GPU lowers its speed"), std::string::npos) << why;
}

// Supermicro C9X299-PG300F (Xeon W / Core-X, X299 PCH, Ubuntu 20.04): the
// Aquantia AQC107 10GbE (a x4 device) at x2 "(downgraded)" behind PCH root port
// 00:1c.4, whose own LnkCap is x2: the board wires two lanes, so the link is at
// the best both ends support and is NOT degraded, whatever lspci's marker says.
// The Intel I210 (Gen1 x1) behind 00:1c.7 (Gen3 x1, at 2.5 GT/s "(downgraded)")
// is at its own maximum: not degraded either.
TEST(FactsLspci, RealNicNarrowerThanItsCardButNotItsPort) {
  const auto devices = parse_lspci(data_file("supermicro-c9x299-pg300f-excerpt.txt"), "c9x299");
  ASSERT_EQ(devices.size(), 2u);
  const auto* aq = find_device(devices, "0000:02:00.0");
  ASSERT_TRUE(aq);
  EXPECT_EQ((*aq)["kind"], "nic");
  EXPECT_EQ((*aq)["vendor_id"], "1d6a");
  EXPECT_EQ((*aq)["width"], 2);
  EXPECT_EQ((*aq)["max_width"], 4);
  EXPECT_NEAR((*aq)["peak_bytes_per_second"].get<double>(), 1.9692e9, 1e5);      // 8e9 x 128/130 x 2 / 8
  EXPECT_NEAR((*aq)["max_peak_bytes_per_second"].get<double>(), 3.9385e9, 1e5);  // 8e9 x 128/130 x 4 / 8
  EXPECT_EQ((*aq)["upstream"]["bus_id"], "0000:00:1c.4");
  EXPECT_EQ((*aq)["upstream"]["max_width"], 2);
  // min(x4, x2) lanes at min(8, 8) GT/s: the two lanes it has.
  EXPECT_NEAR((*aq)["attainable_peak_bytes_per_second"].get<double>(), 1.9692e9, 1e5);
  EXPECT_TRUE((*aq)["lspci_downgraded"].get<bool>());
  EXPECT_FALSE((*aq)["degraded"].get<bool>());
  const auto* i210 = find_device(devices, "0000:05:00.0");
  ASSERT_TRUE(i210);
  EXPECT_EQ((*i210)["kind"], "nic");
  EXPECT_EQ((*i210)["name"], "Intel Corporation I210 Gigabit Network Connection");
  EXPECT_EQ((*i210)["gen"], 1);
  EXPECT_DOUBLE_EQ((*i210)["peak_bytes_per_second"].get<double>(), 250e6);  // 2.5e9 x 8/10 x 1 / 8
  EXPECT_EQ((*i210)["upstream"]["bus_id"], "0000:00:1c.7");
  EXPECT_DOUBLE_EQ((*i210)["upstream"]["max_speed_gts"].get<double>(), 8.0);
  EXPECT_DOUBLE_EQ((*i210)["attainable_peak_bytes_per_second"].get<double>(), 250e6);  // min(2.5, 8) GT/s x1
  EXPECT_FALSE((*i210)["degraded"].get<bool>());
  EXPECT_FALSE((*i210)["lspci_downgraded"].get<bool>());
}

// Made-up text (not a real dump): lspci's markers and the both-ends rule.
TEST(FactsLspci, DegradedAgainstBothEnds) {
  const std::string text =
      "00:01.1 PCI bridge [0604]: Some Root Port\n"
      "\tBus: primary=00, secondary=01, subordinate=01, sec-latency=0\n"
      "\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x16, ASPM L1\n"
      "\t\tLnkSta:\tSpeed 16GT/s, Width x8\n"
      "01:00.0 3D controller [0302]: Some GPU [10de:20b0]\n"
      "\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x16, ASPM not supported\n"
      "\t\tLnkSta:\tSpeed 16GT/s (ok), Width x8 (downgraded)\n"
      "02:00.0 Ethernet controller: Some NIC\n"
      "\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x16\n"
      "\t\tLnkSta:\tSpeed 8GT/s (downgraded), Width x16 (ok)\n";
  const auto devices = parse_lspci(text, "made-up");
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_TRUE(devices[0]["degraded"].get<bool>());
  EXPECT_TRUE(devices[0]["lspci_downgraded"].get<bool>());
  EXPECT_NE(devices[0]["why"].get<std::string>().find("x8, below the 16 GT/s (Gen4) x16 both ends support"),
            std::string::npos);
  EXPECT_NE(devices[0]["why"].get<std::string>().find("upstream port 0000:00:01.1"), std::string::npos);
  EXPECT_NEAR(devices[0]["attainable_peak_bytes_per_second"].get<double>(), 31.5077e9, 1e5);
  // No bridge for bus 02: the device's own maximum, and the text says so.
  EXPECT_TRUE(devices[1]["degraded"].get<bool>());
  EXPECT_NE(devices[1]["why"].get<std::string>().find("not known: compared with the device alone"), std::string::npos);
}

TEST(FactsLspci, BadInputIsOneUsageError) {
  auto bad = [](const std::string& text) { EXPECT_THROW(parse_lspci(text, "x"), UsageError) << text.substr(0, 60); };
  const std::string header = "01:00.0 3D controller [0302]: GPU\n";
  bad("");
  bad(std::string("01:00.0 3D\0controller", 21));
  bad("01:00.0 3D controller: \xff\xfe GPU\n\t\tLnkCap:\tSpeed 8GT/s, Width x16\n");
  bad("01:00.0 3D controller: \x1b]0;pwned\x07 GPU\n\t\tLnkCap:\tSpeed 8GT/s, Width x16\n");
  bad(header + "\t\tLnkCap:\tPort #0, Speed 99999999GT/s, Width x16\n");
  bad(header + "\t\tLnkCap:\tPort #0, Speed 1e308GT/s, Width x16\n");
  bad(header + "\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x999\n");
  bad(header + "\t\tLnkSta:\tSpe");  // truncated
  bad("hello world\n");
  bad("01:00.0 3D controller [0302]: GPU\n02:00.0 Ethernet controller [0200]: NIC\n");  // `lspci`, not -vv
  bad(header + "\tCapabilities: <access denied>\n");
  bad(header + "\t" + std::string(kMaxLspciLineBytes + 1, 'a') + "\n");
  std::string many;
  for (std::size_t i = 0; i <= kMaxLspciEntries; ++i) many += "00:00.0 Host bridge: x\n\tControl: I/O-\n";
  bad(many);
  bad(std::string(kMaxLspciBytes + 1, '\n'));
  try {
    parse_lspci(header + "\t\tLnkCap:\tPort #0, Speed 99GT/s, Width x16\n", "f.txt");
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos);
    EXPECT_NE(what.find("--lspci f.txt: line 2"), std::string::npos) << what;
  }
  EXPECT_THROW(read_lspci_file("/nonexistent/lspci.txt"), UsageError);
}

TEST(FactsLspci, UnknownSpeedAndNoLinkEntries) {
  const auto devices = parse_lspci(
      "00:02.0 VGA compatible controller [0300]: Integrated GPU\n\tControl: I/O+\n"
      "03:00.0 Network controller [0280]: Wireless\n\t\tLnkCap:\tPort #0, Speed unknown, Width x1\n"
      "\t\tLnkSta:\tSpeed unknown, Width x0\n",
      "x");
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_FALSE(devices[0]["has_link"].get<bool>());  // root complex integrated: no link facts
  EXPECT_FALSE(devices[0].contains("peak_bytes_per_second"));
  EXPECT_TRUE(devices[1]["peak_bytes_per_second"].is_null());
  EXPECT_FALSE(devices[1]["degraded"].get<bool>());
}

namespace {

struct FakeSysfs {
  fs::path root = fs::temp_directory_path() / ("movebench_facts_sysfs_" + std::to_string(::getpid()));
  FakeSysfs() { fs::remove_all(root); }
  ~FakeSysfs() { fs::remove_all(root); }
  void put(const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text << "\n";
  }
  // A PCI function in the device tree, linked from bus/pci/devices as the kernel does.
  fs::path pci(const fs::path& tree_path, const std::string& class_code, const std::string& speed,
               const std::string& width, const std::string& max_speed, const std::string& max_width) {
    const fs::path dir = root / "devices" / tree_path;
    put(dir / "class", class_code);
    put(dir / "vendor", "0x10de");
    put(dir / "device", "0x2330");
    put(dir / "numa_node", "1");
    if (!speed.empty()) {
      put(dir / "current_link_speed", speed);
      put(dir / "current_link_width", width);
      put(dir / "max_link_speed", max_speed);
      put(dir / "max_link_width", max_width);
    }
    fs::create_directories(root / "bus/pci/devices");
    fs::create_directory_symlink(dir, root / "bus/pci/devices" / tree_path.filename());
    return dir;
  }
};

}  // namespace

TEST(FactsSysfs, PcieDevicesWithTheirUpstreamPort) {
  FakeSysfs sys;
  sys.pci("pci0000:00/0000:00:01.0", "0x060400", "16.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
  sys.pci("pci0000:00/0000:00:01.0/0000:01:00.0", "0x030200", "16.0 GT/s PCIe", "8", "32.0 GT/s PCIe", "16");
  sys.pci("pci0000:00/0000:00:14.0", "0x0c0330", "", "", "", "");  // USB: not listed
  sys.pci("pci0000:00/0000:00:1f.6", "0x020000", "", "", "", "");  // integrated NIC: no link
  const auto devices = read_sysfs_pcie(sys.root.string());
  ASSERT_EQ(devices.size(), 2u);
  ASSERT_TRUE(find_device(devices, "0000:01:00.0"));
  const auto& gpu = *find_device(devices, "0000:01:00.0");
  EXPECT_EQ(gpu["kind"], "gpu");
  EXPECT_EQ(gpu["name"], "3D controller");
  EXPECT_EQ(gpu["vendor_id"], "10de");
  EXPECT_EQ(gpu["numa_node"], 1);
  EXPECT_EQ(gpu["upstream"]["bus_id"], "0000:00:01.0");
  EXPECT_EQ(gpu["max_gen"], 5);
  EXPECT_NEAR(gpu["peak_bytes_per_second"].get<double>(), 15.7538e9, 1e5);      // 16e9 x 128/130 x 8 / 8
  EXPECT_NEAR(gpu["max_peak_bytes_per_second"].get<double>(), 63.0154e9, 1e5);  // 32e9 x 128/130 x 16 / 8
  EXPECT_TRUE(gpu["degraded"].get<bool>());
  EXPECT_NE(gpu["why"].get<std::string>().find("trained at 16 GT/s (Gen4) x8"), std::string::npos);
  EXPECT_EQ(gpu["source"], "sysfs");
  const auto* nic = find_device(devices, "0000:00:1f.6");
  ASSERT_TRUE(nic);
  EXPECT_EQ((*nic)["kind"], "nic");
  EXPECT_FALSE((*nic)["has_link"].get<bool>());
  Sources sources;
  sources.sysfs_root = sys.root.string();
  EXPECT_EQ(pcie_facts(sources), devices);
}

TEST(FactsNic, EthernetAndInfinibandFromSysfs) {
  FakeSysfs sys;
  const fs::path nic =
      sys.pci("pci0000:00/0000:00:02.0/0000:02:00.0", "0x020000", "8.0 GT/s PCIe", "8", "8.0 GT/s PCIe", "8");
  const fs::path hca =
      sys.pci("pci0000:00/0000:00:03.0/0000:03:00.0", "0x020700", "16.0 GT/s PCIe", "16", "16.0 GT/s PCIe", "16");
  const fs::path net = sys.root / "class/net";
  sys.put(net / "lo/speed", "");
  sys.put(net / "docker0/speed", "10000");  // virtual: no device
  sys.put(net / "eth0/speed", "25000");
  sys.put(net / "eth0/type", "1");
  sys.put(net / "eth0/operstate", "up");
  fs::create_directory_symlink(nic, net / "eth0/device");
  sys.put(net / "eth1/speed", "-1");
  fs::create_directory_symlink(nic, net / "eth1/device");
  const fs::path ib = sys.root / "class/infiniband/mlx5_0";
  sys.put(ib / "ports/1/rate", "100 Gb/sec (4X EDR)");
  sys.put(ib / "ports/1/link_layer", "InfiniBand");
  sys.put(ib / "ports/1/state", "4: ACTIVE");
  sys.put(ib / "ports/2/rate", "40 Gb/sec (4X QDR)");
  fs::create_directory_symlink(hca, ib / "device");
  Sources sources;
  sources.sysfs_root = sys.root.string();
  const auto nics = nic_facts(sources);
  ASSERT_EQ(nics.size(), 4u);
  EXPECT_EQ(nics[0]["name"], "eth0");
  EXPECT_EQ(nics[0]["bus_id"], "0000:02:00.0");
  EXPECT_DOUBLE_EQ(nics[0]["peak_bytes_per_second"].get<double>(), 3.125e9);  // 25000 Mb/s / 8
  EXPECT_EQ(nics[1]["name"], "eth1");
  EXPECT_EQ(nics[1]["status"], "unknown");
  EXPECT_TRUE(nics[1]["peak_bytes_per_second"].is_null());
  EXPECT_EQ(nics[2]["kind"], "infiniband");
  EXPECT_EQ(nics[2]["port"], 1);
  EXPECT_EQ(nics[2]["bus_id"], "0000:03:00.0");
  EXPECT_EQ(nics[2]["state"], "4: ACTIVE");
  EXPECT_DOUBLE_EQ(nics[2]["peak_bytes_per_second"].get<double>(), 12.5e9);  // EDR: 100 Gb/s is data rate
  EXPECT_DOUBLE_EQ(nics[3]["peak_bytes_per_second"].get<double>(), 4e9);     // QDR: 40 x 8/10 = 32 Gb/s
}

TEST(FactsNic, InfinibandRates) {
  EXPECT_DOUBLE_EQ(parse_ib_rate("10 Gb/sec (4X SDR)")->data_bits_per_second, 8e9);       // 10 x 8/10
  EXPECT_DOUBLE_EQ(parse_ib_rate("20 Gb/sec (4X DDR)")->data_bits_per_second, 16e9);      // 20 x 8/10
  EXPECT_NEAR(parse_ib_rate("56 Gb/sec (4X FDR)")->data_bits_per_second, 54.303e9, 1e6);  // 56 x 64/66
  EXPECT_DOUBLE_EQ(parse_ib_rate("40 Gb/sec (4X FDR10)")->data_bits_per_second, 40e9);
  EXPECT_DOUBLE_EQ(parse_ib_rate("200 Gb/sec (4X HDR)")->data_bits_per_second, 200e9);
  EXPECT_DOUBLE_EQ(parse_ib_rate("400 Gb/sec (4X NDR)")->signal_bits_per_second, 400e9);
  EXPECT_FALSE(parse_ib_rate("fast"));
  EXPECT_FALSE(parse_ib_rate("nan Gb/sec"));
}

// This machine: either HMAT rows or "unknown" with its reason, never a guess.
TEST(FactsMemoryTiers, RowsOrUnknownWithWhy) {
  const auto tiers = memory_tier_facts(Sources{});
  if (tiers.is_object()) {
    EXPECT_EQ(tiers["status"], "unknown");
    EXPECT_FALSE(tiers["why"].get<std::string>().empty());
    ASSERT_FALSE(tiers["nodes"].empty());
    EXPECT_TRUE(tiers["nodes"][0].contains("kind"));
  } else {
    for (const auto& row : tiers) EXPECT_TRUE(row.contains("target") && row.contains("initiator"));
  }
}
