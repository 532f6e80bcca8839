// The facts' accelerators section (src/facts/accelerators.cpp): an entry
// built from what a backend tells, its memory peak, and the table's join to
// the PCIe entry of the same bus, on the real H200 documents of
// tests/data/results (README there). The CUDA lister itself needs a GPU;
// the OpenCL one runs on PoCL in tests/integration/test_facts.py.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <fstream>
#include <stdexcept>
#include <string>

#include "core/figure.hpp"
#include "facts/accelerators.hpp"
#include "facts/facts_command.hpp"

using namespace movebench::facts;
using movebench::gb_per_second_text;

namespace {

nlohmann::json read_doc(const std::string& name) {
  std::ifstream in(std::string(MOVEBENCH_TEST_DATA) + "/results/" + name);
  return nlohmann::json::parse(in);
}

// The H200 as the CUDA lister describes it, from the real mem --backend
// cuda document's mem_device (the same attributes the lister reads).
AcceleratorInfo h200(const nlohmann::json& mem_doc, const std::string& bus_id) {
  const auto& dev = mem_doc["mem_device"];
  AcceleratorInfo info;
  info.backend = "cuda";
  info.name = mem_doc["device"].get<std::string>();
  info.type = "gpu";
  info.memory_clock_khz = dev["memory_clock_khz"].get<double>();
  info.memory_bus_bits = dev["memory_bus_bits"].get<int>();
  info.peak_source = "cuda attributes";
  info.bus_id = bus_id;
  return info;
}

nlohmann::json section_of(const nlohmann::json& entry) {
  return {{"status", "known"},
          {"devices", {entry}},
          {"cpu_devices", nlohmann::json::array()},
          {"backends", {{{"backend", "cuda"}, {"devices", 1}}}}};
}

}  // namespace

// 3201 MHz x 6016 bits x 2 / 8 = 4814.304 GB/s, by hand; and the same as
// the peak the real mem run recorded.
TEST(FactsAccelerators, H200MemoryPeakFromItsClockAndBusWidth) {
  const auto mem = read_doc("mem-cuda-h200.json");
  const auto entry = accelerator_entry(h200(mem, mem["mem_device"]["bus_id"].get<std::string>()));
  EXPECT_DOUBLE_EQ(entry["memory_peak"]["bytes_per_second"].get<double>(), 3201e6 * 2 * 6016 / 8);
  EXPECT_DOUBLE_EQ(entry["memory_peak"]["bytes_per_second"].get<double>(),
                   mem["mem_device"]["memory_peak_bytes_per_s"].get<double>());
  EXPECT_EQ(entry["memory_peak"]["formula"], "memory clock 3201 MHz x 6016 bits x 2 / 8");
  EXPECT_EQ(entry["bus_id"], "0000:00:06.0");
  EXPECT_TRUE(entry["memory_bytes"].is_null());  // not told: null, never 0
}

// The table puts the GPU beside its PCIe entry, and its PCIe link beside
// it; an 8-digit domain (NVML's spelling) joins all the same.
TEST(FactsAccelerators, H200JoinsItsPcieEntryInTheTable) {
  auto facts = read_doc("facts-h200-vm.json")["facts"];
  const auto mem = read_doc("mem-cuda-h200.json");
  for (const std::string bus : {"0000:00:06.0", "00000000:00:06.0"}) {
    facts["accelerators"] = section_of(accelerator_entry(h200(mem, bus)));
    const std::string table = facts_table(facts);
    double pcie_peak = 0;
    for (const auto& d : facts["pcie"]) {
      if (d["bus_id"] == "0000:00:06.0") pcie_peak = d["peak_bytes_per_second"].get<double>();
    }
    ASSERT_GT(pcie_peak, 0);
    EXPECT_NE(table.find(fmt::format("0000:00:06.0 gpu         3D controller = cuda NVIDIA H200: Gen5 x16 of Gen5 "
                                     "x16, peak {} per direction",
                                     gb_per_second_text(pcie_peak))),
              std::string::npos)
        << table;
    EXPECT_NE(table.find("Accelerators 1 device(s) (cuda 1 device(s))"), std::string::npos) << table;
    EXPECT_NE(table.find("0000:00:06.0 cuda   0 NVIDIA H200 (gpu): memory unknown, peak 4814 GB/s (memory clock "
                         "3201 MHz x 6016 bits x 2 / 8; cuda attributes)"),
              std::string::npos)
        << table;
    EXPECT_NE(table.find(fmt::format("PCIe Gen5 x16, peak {} per direction\n", gb_per_second_text(pcie_peak))),
              std::string::npos)
        << table;
    // The NIC on another bus gets no name beside it.
    EXPECT_NE(table.find("0000:00:03.0 nic         Ethernet controller: no link facts"), std::string::npos) << table;
  }
}

// What is not told is said, with why: no clock (OpenCL), no bus id, a bus
// id the PCIe list does not have.
TEST(FactsAccelerators, UnknownsSayWhy) {
  auto facts = read_doc("facts-h200-vm.json")["facts"];
  AcceleratorInfo cl;
  cl.backend = "opencl";
  cl.name = "some GPU";
  cl.type = "gpu";
  cl.memory_bytes = 16e9;
  cl.peak_why = "OpenCL does not report the memory's clock or bus width";
  cl.bus_why = "the platform has no cl_khr_pci_bus_info";
  AcceleratorInfo elsewhere = cl;
  elsewhere.bus_id = "0000:81:00.0";
  facts["accelerators"] = section_of(accelerator_entry(cl));
  facts["accelerators"]["devices"].push_back(accelerator_entry(elsewhere));
  const std::string table = facts_table(facts);
  EXPECT_NE(table.find("memory 16.0 GB, peak unknown: OpenCL does not report the memory's clock or bus width"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("bus id unknown: the platform has no cl_khr_pci_bus_info"), std::string::npos) << table;
  EXPECT_NE(table.find("0000:81:00.0 is not among the PCIe devices listed"), std::string::npos) << table;
  EXPECT_EQ(table.find(" = opencl"), std::string::npos) << table;  // neither is on a listed bus
}

// The section comes from the lister the program sets; none, or one that
// fails, is "unknown" with the reason, never an empty list.
TEST(FactsAccelerators, ListerUnsetOrFailingIsUnknown) {
  set_accelerator_lister(nullptr);
  EXPECT_EQ(accelerator_facts()["status"], "unknown");
  set_accelerator_lister([]() -> nlohmann::json { throw std::runtime_error("driver gone"); });
  EXPECT_EQ(accelerator_facts()["why"], "driver gone");
  set_accelerator_lister([] { return nlohmann::json{{"status", "known"}}; });
  EXPECT_EQ(accelerator_facts()["status"], "known");
  set_accelerator_lister(nullptr);
  EXPECT_EQ(accelerator_section(accelerator_facts(), nlohmann::json::array()),
            "Accelerators unknown: no device layer in this program to list them\n");
}

// The lister's C2C links get their peak in accelerator_facts(): links of
// different rates are summed; a GPU NVML does not name is matched to the
// published figure by the backend's name on its bus; the table names it.
TEST(FactsAccelerators, C2cPeakFromTheListersLinks) {
  nlohmann::json gpu = {{"bus_id", "0009:01:00.0"},
                        {"link_count", 3},
                        {"links_active", 3},
                        {"links",
                         {{{"link", 0}, {"active", true}, {"max_mb_per_second", 40000}},
                          {{"link", 1}, {"active", true}, {"max_mb_per_second", 45000}},
                          {{"link", 2}, {"active", true}}}}};
  AcceleratorInfo cuda;
  cuda.backend = "cuda";
  cuda.name = "NVIDIA GH200 480GB";
  cuda.type = "gpu";
  cuda.bus_id = "0009:01:00.0";
  const auto lister = [&] {
    auto out = section_of(accelerator_entry(cuda));
    out["c2c"] = {{"status", "known"}, {"source", "nvml"}, {"devices", {gpu}}};
    return out;
  };
  set_accelerator_lister(lister);
  auto acc = accelerator_facts();
  // Link 2 gives no rate: NVML's sum is incomplete, NVIDIA's figure for
  // the part the CUDA backend names on that bus is taken.
  EXPECT_DOUBLE_EQ(acc["c2c"]["devices"][0]["peak"]["bytes_per_second"].get<double>(), 450e9);
  gpu["links"][2]["max_mb_per_second"] = 50000;
  acc = accelerator_facts();
  const auto& peak = acc["c2c"]["devices"][0]["peak"];
  EXPECT_DOUBLE_EQ(peak["bytes_per_second"].get<double>(), 135000e6);
  EXPECT_EQ(peak["formula"], "sum over 3 active links of NVML_FI_DEV_C2C_LINK_GET_MAX_BW = 135000 MB/s");
  const std::string section = accelerator_section(acc, nlohmann::json::array());
  EXPECT_NE(section.find("  C2C: 0009:01:00.0 (cuda NVIDIA GH200 480GB): 3 of 3 links active, peak 135 GB/s per "
                         "direction"),
            std::string::npos)
      << section;
  EXPECT_NE(section.find("NVIDIA publishes 450 GB/s for the NVIDIA GH200 Grace Hopper Superchip"), std::string::npos)
      << section;
  set_accelerator_lister(nullptr);
}

// The unified data cache per SM the CUDA device names its L1 after (the
// CUDA C++ Programming Guide's sizes, cited beside the table): Hopper's 256
// KiB, Ampere's two sizes, and none for a compute capability it has no row for.
TEST(FactsAccelerators, CudaSmDataCacheByComputeCapability) {
  EXPECT_EQ(cuda_sm_data_cache_bytes(9, 0), 256u * 1024);
  EXPECT_EQ(cuda_sm_data_cache_bytes(8, 0), 192u * 1024);
  EXPECT_EQ(cuda_sm_data_cache_bytes(8, 6), 128u * 1024);
  EXPECT_EQ(cuda_sm_data_cache_bytes(7, 5), 96u * 1024);
  EXPECT_EQ(cuda_sm_data_cache_bytes(6, 0), 0u);
  EXPECT_EQ(cuda_sm_data_cache_bytes(12, 0), 0u);
  EXPECT_NE(std::string(kCudaSmDataCacheSource).find("Programming Guide"), std::string::npos);
}
