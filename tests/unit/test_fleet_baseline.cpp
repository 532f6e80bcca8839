// fleet --baseline: reading a baseline (an earlier fleet result, or
// reference figures), the bad ones refused, and what got slower named by
// compare's rule (judge/compare_rule.hpp; the rule itself is tested on the
// shared fixtures in test_compare_rule.cpp).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "fleet/fleet_baseline.hpp"
#include "fleet/fleet_output.hpp"

namespace movebench::fleet {
namespace {

using nlohmann::json;

// A fleet result of the shape movebench fleet writes, per rank, on host
// "n": unit r has triad `triads[r]` MB/s and its record the samples given.
json fleet_doc(const std::vector<double>& triads, const std::vector<double>& samples, const std::string& per = "rank") {
  json doc = {{"schema_version", 3},
              {"benchmark", "fleet"},
              {"timings", json::array()},
              {"fleet", {{"per", per}, {"units", json::array()}, {"pairs", json::array()}}}};
  for (std::size_t r = 0; r < triads.size(); ++r) {
    doc["fleet"]["units"].push_back({{"host", "n"}, {"rank", r}, {"figures", {{"mem.triad", triads[r]}}}});
    doc["timings"].push_back({{"benchmark", "fleet"},
                              {"operation", "triad"},
                              {"params", {{"unit", r}, {"host", "n"}, {"rank", r}}},
                              {"samples", samples},
                              {"figures", {{"bandwidth", {{"stat", "min"}, {"of", "time"}, {"unit", "MB/s"}}}}}});
  }
  doc["fleet"]["pairs"].push_back({{"hosts", {"n", "n"}}, {"ranks", {1, 0}}, {"figures", {{"p2p.bw", 100.0}}}});
  return doc;
}

TEST(FleetBaseline, AnEarlierResultIsMatchedByUnitAndJudgedWithItsNoise) {
  // Best-of samples 1.00 and 1.02 s: noise 2% on each side.
  const auto before = parse_baseline(fleet_doc({1000, 1000, 1000}, {1.0, 1.02, 1.5}).dump(), "b.json", UnitKind::kRank);
  EXPECT_EQ(before.kind, "fleet");
  ASSERT_EQ(before.subjects.size(), 4u);  // three units and the pair
  EXPECT_NEAR(before.subjects.at("host n rank 0").figures.at("mem.triad").noise, 0.02, 1e-12);
  // Unit 1 at 970 (3% down, inside 2% + 2%), unit 2 at 500: slower; the pair, named the other way round, the same.
  const auto now = subjects_of(fleet_doc({1000, 970, 500}, {1.0, 1.02, 1.5}), UnitKind::kRank);
  const auto v = compare_with(before, now, 0.05);
  EXPECT_EQ(v.compared, 4);
  ASSERT_EQ(v.regressions.size(), 1u);
  EXPECT_EQ(v.regressions[0].subject->name, "host n rank 2");
  EXPECT_DOUBLE_EQ(v.regressions[0].ratio, 0.5);
  const auto& j = v.regressions_json.at(0);
  EXPECT_EQ(j["kind"], "node");
  EXPECT_EQ(j["rank"], 2);
  EXPECT_EQ(j["figure"], "mem.triad");
  EXPECT_EQ(j["before"], 1000.0);
  EXPECT_EQ(j["now"], 500.0);
  // The writer's lines (fleet_output): the summary, then the regression.
  const std::string text = baseline_lines(before, v, 0.05);
  EXPECT_EQ(text.rfind("baseline: b.json (an earlier fleet result), 4 figures compared, threshold 5%: 1 slower\n", 0),
            0u)
      << text;
  EXPECT_NE(text.find("\nSLOWER node host n rank 2: mem.triad 500 MB/s, before 1000 MB/s"), std::string::npos) << text;
  EXPECT_TRUE(v.missing.empty());
}

TEST(FleetBaseline, UnitsTheBaselineLacksAreListedNotCompared) {
  const auto before = parse_baseline(fleet_doc({1000}, {1.0, 1.0}).dump(), "b.json", UnitKind::kRank);
  const auto now = subjects_of(fleet_doc({1000, 10}, {1.0, 1.0}), UnitKind::kRank);
  const auto v = compare_with(before, now, 0.05);
  EXPECT_TRUE(v.regressions.empty());
  EXPECT_EQ(v.missing, std::vector<std::string>{"host n rank 1"});  // the pair is in both (fleet_doc adds it)
}

TEST(FleetBaseline, ReferenceFiguresApplyToEveryUnitAndPair) {
  const auto ref = parse_baseline(R"({"mem.triad": 900, "p2p.bw": 200})", "ref.json", UnitKind::kRank);
  EXPECT_EQ(ref.kind, "reference");
  // The verdict points into the subjects: they must outlive it.
  const auto now = subjects_of(fleet_doc({1000, 880, 500}, {1.0, 1.01}), UnitKind::kRank);
  const auto v = compare_with(ref, now, 0.05);
  // 880 is 2% under 900 (same); 500 slower; the pair's 100 against 200 slower.
  ASSERT_EQ(v.regressions.size(), 2u);
  EXPECT_EQ(v.regressions[0].subject->name, "host n rank 2");
  EXPECT_TRUE(v.regressions[1].subject->pair);
  EXPECT_EQ(v.regressions_json.at(1)["kind"], "link");
  EXPECT_EQ(v.regressions_json.at(1)["pair"]["ranks"], json({1, 0}));
  EXPECT_EQ(v.compared, 4);
}

TEST(FleetBaseline, NodeStepHeadlinesAreComparedLikeTheOthers) {
  // A reference names node's own headline; a unit's record of it has no
  // samples (a median over the unit's endpoints): no noise, no error.
  const auto ref =
      parse_baseline(R"({"node.numa.local.sum": 10000, "node.cores.same_l3": 40})", "ref.json", UnitKind::kRank);
  json doc = fleet_doc({1000}, {1.0, 1.0});
  doc["fleet"]["units"][0]["figures"]["node.numa.local.sum"] = 5000.0;
  doc["fleet"]["units"][0]["figures"]["node.cores.same_l3"] = 40.5;
  doc["timings"].push_back({{"benchmark", "fleet"},
                            {"operation", "node.numa.local.sum"},
                            {"params", {{"unit", 0}, {"host", "n"}, {"rank", 0}}},
                            {"samples", json::array()},
                            {"stats", nullptr},
                            {"figures", {{"bandwidth", {{"stat", "median"}, {"of", "rate"}, {"unit", "MB/s"}}}}}});
  const auto now = subjects_of(doc, UnitKind::kRank);
  EXPECT_EQ(now[0].figures.at("node.numa.local.sum").noise, 0.0);
  const auto v = compare_with(ref, now, 0.05);
  EXPECT_EQ(v.compared, 2);
  ASSERT_EQ(v.regressions.size(), 1u);  // half the bandwidth; 40.5 ns is within 5% of 40
  EXPECT_EQ(v.regressions_json.at(0)["figure"], "node.numa.local.sum");
}

// The one line a bad baseline gives (main prints it; exit 2).
std::string refusal(const std::string& text, UnitKind per = UnitKind::kRank) {
  try {
    parse_baseline(text, "f.json", per);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(FleetBaseline, BadFilesAreRefusedWithOneLine) {
  EXPECT_EQ(refusal("[1, 2]"), "--baseline 'f.json': not a JSON object");
  EXPECT_EQ(refusal("{\"mem.triad\": 1"), "--baseline 'f.json': not a JSON object");
  EXPECT_EQ(refusal("{}"), "--baseline 'f.json': no figures");
  EXPECT_NE(refusal(R"({"mem.tirad": 5})").find("unknown figure 'mem.tirad' (a reference names mem.copy,"),
            std::string::npos);
  EXPECT_EQ(refusal(R"({"mem.triad": -5})"), "--baseline 'f.json': mem.triad is -5, not a positive number");
  EXPECT_EQ(refusal(R"({"mem.triad": "fast"})"), "--baseline 'f.json': mem.triad is \"fast\", not a positive number");
  EXPECT_EQ(refusal(R"({"schema_version": 3, "benchmark": "mem"})"),
            "--baseline 'f.json': a result of 'mem', not of movebench fleet");
  EXPECT_EQ(refusal(fleet_doc({1}, {1.0}, "host").dump()),
            "--baseline 'f.json': its units are per host, this run's per rank");
  EXPECT_EQ(refusal(R"({"fleet": {"per": "rank", "units": []}})"), "--baseline 'f.json': a fleet result with no units");
  const auto broken = refusal(R"({"fleet": {"per": "rank", "units": [{"host": 3}]}})");
  EXPECT_EQ(broken.rfind("--baseline 'f.json': not a fleet result as movebench fleet writes it (", 0), 0u) << broken;
  for (const auto& message : {refusal("[1]"), broken}) EXPECT_EQ(message.find('\n'), std::string::npos);
}

// --per: parsed once into its kind through the one table of names, which
// also names it in the result (fleet.per) and in a refusal.
TEST(FleetUnitKind, ParsedOnceByItsNames) {
  EXPECT_EQ(parse_named(kUnitKindNames, "host", "--per"), UnitKind::kHost);
  EXPECT_EQ(parse_named(kUnitKindNames, "rank", "--per"), UnitKind::kRank);
  EXPECT_EQ(unit_kind_name(UnitKind::kHost), "host");
  EXPECT_EQ(unit_kind_name(UnitKind::kRank), "rank");
  try {
    parse_named(kUnitKindNames, "node", "--per");
    FAIL() << "node is no unit kind";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "invalid --per 'node': host or rank");
  }
  EXPECT_EQ(unit_name("n", 2, UnitKind::kRank), "host n rank 2");
  EXPECT_EQ(unit_name("n", 2, UnitKind::kHost), "host n");
}

}  // namespace
}  // namespace movebench::fleet
