// judge/steps: the causes a document's facts give, which fits a step, and
// the steps of a document's sweeps, on made-up documents.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/output.hpp"
#include "facts/accelerators.hpp"
#include "judge/steps.hpp"

using namespace movebench;
using namespace movebench::judge;

namespace {

// A machine: L1 32 KiB, L2 1 MiB, L3 32 MiB; a 64-entry L1 and a 2048-entry
// L2 data TLB of 4 KiB pages (and 2 MiB ones); THP madvise; ulimit -l 8 MiB;
// an MPI whose shared-memory eager limit is 4 KiB.
nlohmann::json machine() {
  return {{"host",
           {{"caches",
             {{{"level", 1}, {"bytes", 32768}, {"instances", 2}},
              {{"level", 2}, {"bytes", 1048576}, {"instances", 2}},
              {{"level", 3}, {"bytes", 33554432}, {"instances", 1}}}}}},
          {"mpi", {{"eager_limits", {{{"name", "btl_sm_eager_limit"}, {"bytes", 4096}}}}}},
          {"facts",
           {{"cpu",
             {{"tlb",
               {{"levels",
                 {{{"level", 1}, {"page_bytes", 4096}, {"entries", 64}},
                  {{"level", 2}, {"page_bytes", 4096}, {"entries", 2048}},
                  {{"level", 2}, {"page_bytes", 2097152}, {"entries", 2048}}}}}}}},
            {"settings",
             {{"thp", {{"value", "madvise"}}},
              {"page_bytes", {{"value", 4096}, {"huge_bytes", 2097152}}},
              {"memlock_bytes", {{"value", 8388608}}}}}}}};
}

// The L3's share: one L3 serves the two cores' L2s.
const std::string kShare =
    "L3 cache's share (32.00 MiB shared by 2 L2s: other cores', or guests', lines hold part of it)";

std::vector<std::string> names(const std::vector<StepCause>& causes) {
  std::vector<std::string> out;
  for (const auto& c : causes) out.push_back(c.name);
  return out;
}

// One point of a chase: `ns` per load at `size`, three samples within 1%.
nlohmann::json chase_record(double size, double ns, bool huge_pages) {
  return {{"benchmark", "mem"},
          {"operation", "latency"},
          {"bytes", size},
          {"params", {{"huge_pages", huge_pages}}},
          {"samples", {ns * 1e-9, ns * 1.01e-9, ns * 0.99e-9}},
          {"figures", {{"latency", {{"value", ns}, {"unit", "ns"}}}}}};
}

// A chase's records over 4 KiB .. 256 MiB at powers of two: 1.5 ns in L1,
// 4 ns in L2, 15 ns in L3, 90 ns beyond.
nlohmann::json chase_document() {
  nlohmann::json doc = machine();
  doc["timings"] = nlohmann::json::array();
  for (double size = 4096; size <= 256.0 * 1048576; size *= 2) {
    const double ns = size <= 32768 ? 1.5 : size <= 1048576 ? 4 : size <= 33554432 ? 15 : 90;
    doc["timings"].push_back(chase_record(size, ns, false));
  }
  return doc;
}

}  // namespace

TEST(StepCauses, FromTheFacts) {
  const auto mem = names(step_causes(machine(), "mem"));
  EXPECT_EQ(mem, (std::vector<std::string>{"L1 cache (32.00 KiB)", "L2 cache (1.00 MiB)", "L3 cache (32.00 MiB)",
                                           kShare, "L1 TLB reach (64 x 4.00 KiB pages = 256.00 KiB)",
                                           "L2 TLB reach (2048 x 4.00 KiB pages = 8.00 MiB)", "page size (4.00 KiB)"}));
  // Where the sweep asked for huge pages: their TLB reach and size, not the base pages'.
  const auto huge = names(step_causes(machine(), "mem", true));
  EXPECT_EQ(huge, (std::vector<std::string>{"L1 cache (32.00 KiB)", "L2 cache (1.00 MiB)", "L3 cache (32.00 MiB)",
                                            kShare, "L2 TLB reach (2048 x 2.00 MiB pages = 4.00 GiB)",
                                            "huge page size (2.00 MiB, THP madvise)"}));
  // THP "always" gives large buffers huge pages unasked: both pages' causes.
  auto always = machine();
  always["facts"]["settings"]["thp"]["value"] = "always";
  EXPECT_EQ(names(step_causes(always, "mem")).size(), mem.size() + 2);
  // THP "never": the ask cannot be met, the base pages' causes.
  auto never = machine();
  never["facts"]["settings"]["thp"]["value"] = "never";
  EXPECT_EQ(names(step_causes(never, "mem", true)), mem);
  const auto p2p = names(step_causes(machine(), "p2p"));
  // An MPI command's eager limits first, the pinned-memory limit last.
  EXPECT_EQ(p2p.front(), "eager limit (btl_sm_eager_limit = 4.00 KiB)");
  EXPECT_EQ(p2p.back(), "pinned-memory limit (ulimit -l, 8.00 MiB)");
  EXPECT_EQ(p2p.size(), mem.size() + 2);
  EXPECT_TRUE(step_causes(nlohmann::json::object(), "mem").empty());
}

TEST(StepCauses, NearestWithinReach) {
  const auto causes = step_causes(machine(), "mem");
  // 32 KiB -> 64 KiB: the L1 (inside the span); the page size is too far.
  EXPECT_EQ(names(causes_of(32768, 65536, causes)), (std::vector<std::string>{"L1 cache (32.00 KiB)"}));
  // 8 MiB -> 16 MiB: the L2 TLB's reach; the L3 is out of reach (more than twice 16 MiB).
  EXPECT_EQ(names(causes_of(8 << 20, 16 << 20, causes)).front(), "L2 TLB reach (2048 x 4.00 KiB pages = 8.00 MiB)");
  // 24 MiB -> 48 MiB: the L3 inside the span first, the huge page beyond reach.
  EXPECT_EQ(names(causes_of(24 << 20, 48 << 20, causes)), (std::vector<std::string>{"L3 cache (32.00 MiB)"}));
  EXPECT_TRUE(causes_of(1 << 30, 2u << 30, causes).empty());
  // 2 KiB -> 4 KiB in p2p: the 4 KiB eager limit and the page size tie; the eager limit names it.
  EXPECT_EQ(names(causes_of(2048, 4096, step_causes(machine(), "p2p"))),
            (std::vector<std::string>{"eager limit (btl_sm_eager_limit = 4.00 KiB)", "page size (4.00 KiB)"}));
}

TEST(StepCauses, TheLastLevelsShareWhereItsSizeIsOutOfReach) {
  const auto causes = step_causes(machine(), "mem", true);
  // 4 MiB -> 8 MiB into memory: the L3's share ends there (the huge page is near, the L3 out of reach).
  EXPECT_EQ(names(causes_of(4 << 20, 8 << 20, causes, true)),
            (std::vector<std::string>{kShare, "huge page size (2.00 MiB, THP madvise)"}));
  // The same span, a step that does not go on to memory: no share.
  EXPECT_EQ(names(causes_of(4 << 20, 8 << 20, causes, false)),
            (std::vector<std::string>{"huge page size (2.00 MiB, THP madvise)"}));
  // 12 MiB -> 24 MiB: the L3's size is in reach and names it; no share.
  EXPECT_EQ(names(causes_of(12 << 20, 24 << 20, causes, true)), (std::vector<std::string>{"L3 cache (32.00 MiB)"}));
  // 1 MiB -> 2 MiB: the L2 inside the span comes first.
  EXPECT_EQ(names(causes_of(1 << 20, 2 << 20, causes, true)).front(), "L2 cache (1.00 MiB)");
  // As many L3s as L2s (a guest told each vCPU is a socket): a share that may be.
  auto own = machine();
  own["host"]["caches"][2]["instances"] = 2;
  EXPECT_EQ(names(step_causes(own, "mem"))[3],
            "L3 cache's share (32.00 MiB, the last level: other cores', or guests', lines may hold part of it)");
  // One level only: no share.
  own["host"]["caches"] = nlohmann::json::array({own["host"]["caches"][0]});
  EXPECT_EQ(names(step_causes(own, "mem", true)).front(), "L1 cache (32.00 KiB)");
}

TEST(SweepSteps, AGuestFallingIntoMemoryBeforeItsL3NamesTheL3sShare) {
  // The chase on huge pages from 1 MiB: 14 ns to 4 MiB, then 150 ns (a
  // guest whose neighbours hold most of the 32 MiB L3), then 180 ns from 45
  // MiB: the first step is the share's, the small one after it is not.
  nlohmann::json doc = machine();
  doc["timings"] = nlohmann::json::array();
  for (double size = 1 << 20; size <= 128.0 * 1048576; size *= std::sqrt(2.0)) {
    const double ns = size <= 4.1 * 1048576 ? 14 : size <= 33 * 1048576 ? 150 : 180;
    doc["timings"].push_back(chase_record(size, ns, true));
  }
  const auto steps = sweep_steps(doc);
  ASSERT_EQ(steps.size(), 1u);
  ASSERT_EQ(steps[0]["steps"].size(), 2u) << steps.dump();
  EXPECT_EQ(steps[0]["steps"][0]["cause"], kShare);
  EXPECT_EQ(steps[0]["steps"][1]["cause"], "L3 cache (32.00 MiB)");
}

TEST(SweepSteps, ChaseNamedAfterEveryCache) {
  const auto steps = sweep_steps(chase_document());
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0]["benchmark"], "mem");
  EXPECT_EQ(steps[0]["figure"], "latency");
  EXPECT_EQ(steps[0]["points"], 17);
  std::vector<std::string> causes;
  for (const auto& s : steps[0]["steps"]) causes.push_back(s["cause"]);
  EXPECT_EQ(causes, (std::vector<std::string>{"L1 cache (32.00 KiB)", "L2 cache (1.00 MiB)", "L3 cache (32.00 MiB)"}));
  EXPECT_DOUBLE_EQ(steps[0]["steps"][2]["size_before"].get<double>(), 33554432);
  EXPECT_NEAR(steps[0]["steps"][2]["ratio"].get<double>(), 6, 1e-9);
}

TEST(SweepSteps, OneSizeIsNoSweepAndUnexplainedIsSaid) {
  nlohmann::json doc = chase_document();
  doc["host"]["caches"] = nlohmann::json::array();
  doc["facts"] = nlohmann::json::object();
  const auto steps = sweep_steps(doc);
  for (const auto& s : steps[0]["steps"]) EXPECT_EQ(s["cause"], "unexplained");
  // mem's bandwidth mode: records of one size, no sweep.
  doc["timings"] = {doc["timings"][0], doc["timings"][0], doc["timings"][0], doc["timings"][0], doc["timings"][0]};
  EXPECT_TRUE(sweep_steps(doc).empty());
}

TEST(SweepSteps, SameCauseTwiceInARowIsOneStep) {
  // A transition cut in two (16 -> 32 KiB and 32 -> 64 KiB, both the L1's).
  StepSearch search;
  search.steps = {
      Step{.before = 1, .after = 2, .size_before = 16384, .size = 32768, .from = 1.5, .to = 2.5, .ratio = 2.5 / 1.5},
      Step{.before = 2, .after = 3, .size_before = 32768, .size = 65536, .from = 2.5, .to = 4, .ratio = 1.6}};
  const auto steps = named_steps(search, step_causes(machine(), "mem"));
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0]["cause"], "L1 cache (32.00 KiB)");
  EXPECT_DOUBLE_EQ(steps[0]["size_before"].get<double>(), 16384);
  EXPECT_DOUBLE_EQ(steps[0]["size"].get<double>(), 65536);
  EXPECT_NEAR(steps[0]["ratio"].get<double>(), 4 / 1.5, 1e-12);
}

TEST(SweepSteps, PrintedUnderTheTable) {
  CapturedOutput out;
  print_step_lines(out, sweep_steps(chase_document()), "# ");
  const std::string& text = out.out;
  EXPECT_NE(text.find("# steps of mem latency latency (noise floor x1.1):\n"), std::string::npos) << text;
  EXPECT_NE(text.find("#   32.00 KiB -> 64.00 KiB: 1.5 -> 4 ns (x2.667): L1 cache (32.00 KiB)\n"), std::string::npos)
      << text;
}

// Real p2p documents (tests/data/steps/run.sh: Open MPI 4.1.4, two ranks on
// the development VM), their eager limits as MPI_T read them at Open MPI's
// default and with OMPI_MCA_btl_vader_eager_limit=16384. No step was measured
// there (docs/beff.md); a step across either limit is named after it, and the
// binary finds the recorded sweep's steps as it did when it ran (none; its
// noise is now the points' scatter, x5 between sizes, not the default 0.05
// the single samples gave then).
nlohmann::json recorded(const std::string& name) {
  std::ifstream in(std::string(MOVEBENCH_TEST_DATA) + "/steps/" + name);
  EXPECT_TRUE(in) << "tests/data/steps/" << name;
  return nlohmann::json::parse(in);
}

TEST(SweepSteps, RecordedEagerLimitsNameTheirSteps) {
  const auto at_default = recorded("p2p-eager-default-1.json");
  const auto raised = recorded("p2p-eager-16k-1.json");
  EXPECT_EQ(names(causes_of(2048, 4096, step_causes(at_default, "p2p"))).front(),
            "eager limit (btl_vader_eager_limit = 4.00 KiB)");
  EXPECT_EQ(names(causes_of(8192, 16384, step_causes(raised, "p2p"))).front(),
            "eager limit (btl_vader_eager_limit = 16.00 KiB)");
  for (const auto& doc : {at_default, raised}) {
    const auto judged = sweep_steps(doc);
    ASSERT_EQ(judged.size(), doc["steps"].size());
    for (std::size_t i = 0; i < judged.size(); ++i) {
      EXPECT_EQ(judged[i]["steps"], doc["steps"][i]["steps"]);
      EXPECT_GE(judged[i]["noise"].get<double>(), doc["steps"][i]["noise"].get<double>());
    }
  }
}

TEST(SweepSteps, EachMemoryKindIsItsOwnSweepAndSaysWhich) {
  // link's copy read over 4 KiB .. 128 KiB on pinned memory, then on pageable:
  // two sweeps of one operation and figure, each with its `memory`.
  nlohmann::json doc = machine();
  doc["timings"] = nlohmann::json::array();
  for (const char* kind : {"pinned", "pageable"}) {
    for (double size = 4096; size <= 131072; size *= 2) {
      doc["timings"].push_back({{"benchmark", "link"},
                                {"operation", "copy.read"},
                                {"bytes", size},
                                {"params", {{"host_memory", kind}}},
                                {"figures", {{"bandwidth", {{"value", size < 32768 ? 3e4 : 3e3}, {"unit", "MB/s"}}}}}});
    }
  }
  const auto steps = sweep_steps(doc);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0]["memory"], "pageable");
  EXPECT_EQ(steps[1]["memory"], "pinned");
  for (const auto& s : steps) EXPECT_EQ(s["steps"].size(), 1u) << s;
  CapturedOutput out;
  print_step_lines(out, steps);
  EXPECT_NE(out.out.find("steps of link copy.read bandwidth, pageable host memory (noise floor"), std::string::npos)
      << out.out;
  EXPECT_NE(out.out.find("steps of link copy.read bandwidth, pinned host memory (noise floor"), std::string::npos);
  EXPECT_FALSE(sweep_steps(chase_document())[0].contains("memory"));
}

namespace {

// A document of the H200 run (tests/data/gpu/2026-11-28-h200/run3), its
// device's caches as the CUDA device now reports them: each SM's L1 from
// its compute capability (facts::cuda_sm_data_cache_bytes) beside the L2 the
// run recorded (cudaDevAttrL2CacheSize); the run predates the L1.
nlohmann::json h200_run3(const std::string& name) {
  std::ifstream in(std::string(MOVEBENCH_TEST_DATA) + "/gpu/2026-11-28-h200/run3/" + name);
  EXPECT_TRUE(in) << name;
  nlohmann::json doc = nlohmann::json::parse(in);
  auto& device = doc["mem_device"];
  const std::string cc = device["compute_capability"];
  const auto l1 = facts::cuda_sm_data_cache_bytes(std::stoi(cc), std::stoi(cc.substr(cc.find('.') + 1)));
  EXPECT_GT(l1, 0u) << cc;
  const nlohmann::json l1_entry = {{"level", 1}, {"bytes", l1}, {"instances", device["multiprocessors"]}};
  device["caches"].insert(device["caches"].begin(), l1_entry);
  return doc;
}

std::vector<std::string> causes_in(const nlohmann::json& sweep) {
  std::vector<std::string> out;
  for (const auto& s : sweep["steps"]) out.push_back(s["cause"]);
  return out;
}

}  // namespace

// The chase: 20 ns to 128 KiB, 30 at 192 KiB, about 145 from 512 KiB; with
// a 2 MiB TLB window about 190 beyond 24 MiB (the L2's far partition). The
// rise at 128 -> 256 KiB is the SM's L1 (256 KiB on compute capability 9.0),
// which the naming did not know.
TEST(SweepSteps, H200ChaseRisesAtTheL1AndTheL2) {
  const auto chase = sweep_steps(h200_run3("mem-latency.json"));
  ASSERT_EQ(chase.size(), 1u);
  ASSERT_FALSE(chase[0]["steps"].empty());
  EXPECT_EQ(chase[0]["steps"][0]["cause"], "L1 cache (256.00 KiB)");
  EXPECT_DOUBLE_EQ(chase[0]["steps"][0]["size_before"].get<double>(), 131072);
  EXPECT_GT(chase[0]["steps"][0]["ratio"].get<double>(), 4);
  EXPECT_FALSE(chase[0].contains("overhead_bound"));  // a latency: no ramp sought
  const auto windowed = sweep_steps(h200_run3("mem-latency-window.json"));
  EXPECT_EQ(causes_in(windowed[0]), (std::vector<std::string>{"L1 cache (256.00 KiB)", "L2 cache (60.00 MiB)"}));
}

// mem seq's three kernels: the ramp below about 1 MiB recorded and printed,
// copy's and triad's fall to HBM named after the L2 (see ChangePoints.H200SeqSweepsFallFromTheirL2Level).
TEST(SweepSteps, H200SeqSweepsSayTheirRampAndFallAtTheL2) {
  const auto seq = sweep_steps(h200_run3("mem-seq.json"));
  ASSERT_EQ(seq.size(), 3u);
  for (const auto& sweep : seq) {
    ASSERT_TRUE(sweep.contains("overhead_bound")) << sweep;
    EXPECT_GE(sweep["overhead_bound"]["points"].get<int>(), 8) << sweep;
    if (sweep["operation"] == "init") continue;
    std::vector<nlohmann::json> falls;
    for (const auto& s : sweep["steps"]) {
      if (s["ratio"].get<double>() < 1) falls.push_back(s);
    }
    ASSERT_EQ(falls.size(), 1u) << sweep;
    EXPECT_EQ(falls[0]["cause"], "L2 cache (60.00 MiB)") << sweep;
  }
  CapturedOutput out;
  print_step_lines(out, seq);
  EXPECT_NE(out.out.find("bound by a fixed cost per call"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("64.00 MiB -> 128.00 MiB"), std::string::npos) << out.out;
}
