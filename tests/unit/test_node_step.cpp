// node's bounded step and --hwloc-xml: the numa part's headlines on a
// made-up grid, what a step hands fleet, and the hwloc XML read back through
// hwloc itself (its memory attributes, and the best target they pick).
#include <gtest/gtest.h>
#include <hwloc.h>

#include <filesystem>
#include <string>
#include <vector>

#include "node/core_pairs.hpp"
#include "node/node_hwloc.hpp"
#include "node/node_numa.hpp"
#include "node/node_step.hpp"

namespace movebench::node {
namespace {

// Two initiators, a memory-only third node: local cells fast, remote slow.
NumaGrid two_nodes_and_memory() {
  NumaGrid g;
  g.initiators = {0, 1};
  g.targets = {0, 1, 2};
  g.cells = {{{10000, 8000, 80}, {6000, 5000, 140}, {3000, 2000, 300}},
             {{6200, 5200, 150}, {12000, 9000, 90}, {2800, 1900, 310}}};
  g.distance = {{10, 20, 30}, {20, 10, 30}};
  return g;
}

double result(const std::vector<Figure>& figures, const std::string& name) {
  for (const auto& f : figures) {
    if (f.name() == name) return f.value();
  }
  ADD_FAILURE() << name << " missing";
  return 0;
}

TEST(NodeStep, HeadlinesAreMediansOfLocalAndOfRemoteCells) {
  const auto figures = numa_headlines(two_nodes_and_memory());
  EXPECT_EQ(figures.size(), 6u);
  EXPECT_DOUBLE_EQ(result(figures, "node.numa.local.sum"), 11000);  // median of 10000, 12000
  EXPECT_DOUBLE_EQ(result(figures, "node.numa.local.chase"), 85);
  EXPECT_DOUBLE_EQ(result(figures, "node.numa.remote.sum"), 4500);  // of 6000, 3000, 6200, 2800
  EXPECT_DOUBLE_EQ(result(figures, "node.numa.remote.triad"), 3500);
  EXPECT_DOUBLE_EQ(result(figures, "node.numa.remote.chase"), 225);
}

TEST(NodeStep, OneNodeHasNoRemoteHeadlines) {
  NumaGrid g;
  g.initiators = {0};
  g.targets = {0};
  g.cells = {{{10000, 8000, 80}}};
  const auto figures = numa_headlines(g);
  ASSERT_EQ(figures.size(), 3u);
  for (const auto& f : figures) EXPECT_TRUE(f.name().starts_with("node.numa.local.")) << f.name();
}

TEST(NodeStep, EveryStepFigureIsAHeadlineNodeWrites) {
  // numa's from numa_headlines, cores' node.cores.<relation> (node_cores.cpp).
  std::vector<std::string> written;
  for (const auto& f : numa_headlines(two_nodes_and_memory())) written.push_back(f.name());
  for (std::size_t r = 0; r < kRelations; ++r)
    written.push_back("node.cores." + std::string(relation_name(static_cast<Relation>(r))));
  ASSERT_EQ(written.size(), kStepFigures.size());
  for (std::size_t i = 0; i < written.size(); ++i) EXPECT_EQ(kStepFigures[i].name, written[i]);
}

TEST(NodeStep, SummaryKeepsTheHeadlinesInTheirUnitsAndTheFindings) {
  const nlohmann::json doc = {{"results",
                               {{"node.numa.local.sum", {{"value", 9000.0}, {"unit", "MB/s"}}},
                                {"node.cores.same_l3", {{"value", 41.5}, {"unit", "ns"}}},
                                {"node.numa.local.chase", {{"value", 0.08}, {"unit", "us"}}},  // another unit: left out
                                {"mem.triad", {{"value", 1.0}, {"unit", "MB/s"}}}}},
                              {"findings", {{{"text", "node 1 slow"}}}},
                              {"errors", {{"validation", "failed"}}}};
  const auto s = step_summary(doc);
  EXPECT_EQ(s["figures"], (nlohmann::json{{"node.numa.local.sum", 9000.0}, {"node.cores.same_l3", 41.5}}));
  EXPECT_EQ(s["findings"].size(), 1u);
  EXPECT_EQ(s["errors"]["validation"], "failed");
}

TEST(NodeHwloc, PathsAreReadFromTheNumaRecords) {
  const auto record = [](int i, int t, const char* kernel, const char* figure, double v) {
    return nlohmann::json{{"benchmark", "node"},
                          {"operation", "numa"},
                          {"params", {{"initiator", i}, {"target", t}, {"kernel", kernel}}},
                          {"figures", {{figure, {{"value", v}}}}}};
  };
  const nlohmann::json doc = {{"timings",
                               {record(0, 1, "sum", "bandwidth", 6000),
                                record(0, 1, "triad", "bandwidth", 5000),
                                record(0, 1, "chase", "latency", 140),
                                record(0, 0, "sum", "bandwidth", 10000),
                                {{"benchmark", "mem"}, {"operation", "triad"}}}}};
  const auto paths = measured_paths(doc);
  ASSERT_EQ(paths.size(), 2u);
  EXPECT_EQ(paths[1].initiator, 0);
  EXPECT_EQ(paths[1].target, 1);
  EXPECT_DOUBLE_EQ(paths[1].sum_mbs, 6000);
  EXPECT_DOUBLE_EQ(paths[1].triad_mbs, 5000);
  EXPECT_DOUBLE_EQ(paths[1].latency_ns, 140);
  EXPECT_DOUBLE_EQ(paths[0].triad_mbs, 0);  // not measured
}

struct Loaded {
  hwloc_topology_t t = nullptr;
  explicit Loaded(const std::string& xml) {
    hwloc_topology_init(&t);
    EXPECT_EQ(hwloc_topology_set_xml(t, xml.c_str()), 0);
    EXPECT_EQ(hwloc_topology_load(t), 0);
  }
  ~Loaded() { hwloc_topology_destroy(t); }
  hwloc_uint64_t value(hwloc_memattr_id_t id, int initiator, int target) const {
    hwloc_location where{};
    where.type = HWLOC_LOCATION_TYPE_CPUSET;
    where.location.cpuset = hwloc_get_numanode_obj_by_os_index(t, static_cast<unsigned>(initiator))->cpuset;
    hwloc_uint64_t v = 0;
    EXPECT_EQ(hwloc_memattr_get_value(t, id, hwloc_get_numanode_obj_by_os_index(t, static_cast<unsigned>(target)),
                                      &where, 0, &v),
              0);
    return v;
  }
  unsigned best_target(hwloc_memattr_id_t id, int initiator) const {
    hwloc_location where{};
    where.type = HWLOC_LOCATION_TYPE_CPUSET;
    where.location.cpuset = hwloc_get_numanode_obj_by_os_index(t, static_cast<unsigned>(initiator))->cpuset;
    hwloc_obj_t best = nullptr;
    EXPECT_EQ(hwloc_memattr_get_best_target(t, id, &where, 0, &best, nullptr), 0);
    return best == nullptr ? ~0u : best->os_index;
  }
};

TEST(NodeHwloc, TheXmlCarriesTheFiguresInHwlocsUnitsAndPicksTheBestTarget) {
  const std::string path = (std::filesystem::temp_directory_path() / "movebench_test_hwloc.xml").string();
  // Node 1's memory is faster from both nodes (a made-up machine): hwloc
  // must pick by the figures, not by where the initiator is.
  const std::vector<MeasuredPath> paths = {
      {0, 0, 10000, 8000, 80}, {0, 1, 11000, 9000, 70}, {1, 0, 6000, 5000, 150}, {1, 1, 12000, 9500, 60}};
  ASSERT_EQ(write_hwloc_xml(path, paths, "pack:2 [numa] core:2 pu:1"), "");
  const Loaded xml(path);
  EXPECT_EQ(xml.value(HWLOC_MEMATTR_ID_BANDWIDTH, 1, 0), mib_per_s(5000));  // triad, MiB/s
  EXPECT_EQ(mib_per_s(5000), 4768u);                                        // 5e9 / 2^20
  EXPECT_EQ(xml.value(HWLOC_MEMATTR_ID_LATENCY, 1, 0), 150u);
#if HWLOC_API_VERSION >= 0x00020800
  EXPECT_EQ(xml.value(HWLOC_MEMATTR_ID_READ_BANDWIDTH, 0, 1), mib_per_s(11000));
#endif
  EXPECT_EQ(xml.best_target(HWLOC_MEMATTR_ID_BANDWIDTH, 0), 1u);
  EXPECT_EQ(xml.best_target(HWLOC_MEMATTR_ID_LATENCY, 0), 1u);
  std::filesystem::remove(path);
}

TEST(NodeHwloc, AWriteFailureAndANodeHwlocLacksAreSaid) {
  const std::string bad = "/nonexistent-movebench-dir/topology.xml";
  EXPECT_NE(write_hwloc_xml(bad, {}, "pack:1 [numa] core:1 pu:1"), "");
  EXPECT_TRUE(hwloc_xml_unwritable(bad).has_value());
  EXPECT_TRUE(hwloc_xml_unwritable(std::filesystem::temp_directory_path().string()).has_value());  // a folder
  const std::string path = (std::filesystem::temp_directory_path() / "movebench_test_hwloc_7.xml").string();
  EXPECT_FALSE(hwloc_xml_unwritable(path).has_value());
  EXPECT_FALSE(std::filesystem::exists(path));  // the check leaves no file
  EXPECT_NE(write_hwloc_xml(path, {{0, 7, 1000, 1000, 100}}, "pack:1 [numa] core:1 pu:1").find("no NUMA node 7"),
            std::string::npos);
}

}  // namespace
}  // namespace movebench::node
