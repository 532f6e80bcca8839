// The writers of `movebench run` and of the facts' lines: their text from
// hand-made results, caught by a CapturedOutput, written out in full (the
// integration tests, test_run_suite.py and test_verdicts.py, read it).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/output.hpp"
#include "facts/facts_command.hpp"
#include "judge/apply.hpp"
#include "judge/verdict.hpp"
#include "suite/suite_output.hpp"

namespace movebench {
namespace {

using nlohmann::json;

TEST(SuiteOutput, SummaryHasALinePerBenchmarkThenTheValidation) {
  const std::vector<SuiteStep> steps{
      {"mem", true, "mem: triad 12000 MB/s", "", 3.04},
      {"p2p", true, "p2p: latency 1.2 us", "no MPI launcher", 12.35},
      {"link", false, "", "no device", 0.01},
  };
  CapturedOutput out;
  SuiteWriter w(out);
  w.stage("mem", 1, 3, 62);
  w.summary(steps, "passed");
  EXPECT_EQ(out.out,
            "\n==== movebench run: summary ====\n"
            "mem: triad 12000 MB/s  [3.0 s]\n"
            "p2p: latency 1.2 us (a run skipped: no MPI launcher)  [12.3 s]\n"
            "link: skipped (no device)\n"
            "validation: passed\n");
  EXPECT_EQ(out.err, "movebench run: mem (1 of 3, 1:02 elapsed)\n");
}

TEST(SuiteOutput, VerdictsOrNone) {
  EXPECT_EQ(verdicts_text(json::array()), "verdicts: none (no figure measured a path with a peak)\n");
  const json v = {{"path", "dram"},
                  {"verdict", "low"},
                  {"figure", "mem.triad.2t"},
                  {"value", 84000.0},
                  {"unit", "MB/s"},
                  {"fraction", 0.41},
                  {"peak_source", "204800 MB/s DRAM peak"},
                  {"band", nullptr},
                  {"reasons", {"THP never"}}};
  const std::string text = verdicts_text(json::array({v, v}));
  const std::string line = judge::verdict_line(v) + "\n";
  EXPECT_EQ(text, line + line);
  EXPECT_EQ(line.rfind("dram: low: ", 0), 0u) << line;
  EXPECT_NE(line.find("= 41% of 204800 MB/s DRAM peak; THP never\n"), std::string::npos) << line;
}

TEST(SuiteOutput, DryRunGivesCommandLinesOrWhyNone) {
  EXPECT_EQ(runs_text("p2p", "", {{"--sizes-bytes", "1,8", "--timeout", "30"}, {"-i", "5"}}),
            "movebench p2p --sizes-bytes 1,8 --timeout 30\nmovebench p2p -i 5\n");
  EXPECT_EQ(runs_text("fleet", "only when asked", {}), "# fleet: skipped (only when asked)\n");
}

TEST(FactsOutput, PeakLinesAFigureEachAndOncePerUnknownPath) {
  const json results = {{"mem.triad.2t", {{"value", 41234.4}, {"unit", "MB/s"}}},
                        {"mem.copy.2t", {{"value", 1.0}, {"unit", "MB/s"}}},
                        {"mem.add.2t", {{"value", 1.0}, {"unit", "MB/s"}}}};
  const json peaks = {
      {"mem.add.2t", {{"status", "unknown"}, {"path", "l2"}, {"why", "no peak for caches"}}},
      {"mem.copy.2t", {{"status", "unknown"}, {"path", "l2"}, {"why", "no peak for caches"}}},
      {"mem.triad.2t",
       {{"fraction", 0.6186}, {"value", 66656.0}, {"unit", "MB/s"}, {"label", "DRAM"}, {"source", "SMBIOS"}}}};
  CapturedOutput out;
  judge::print_peak_lines(out, peaks, results);
  EXPECT_EQ(out.out,
            "peak: l2: unknown (no peak for caches)\n"
            "peak: mem.triad.2t 41234 MB/s = 62% of 66656 MB/s DRAM peak (SMBIOS)\n");
}

TEST(FactsOutput, WarningsAreProblemLines) {
  CapturedOutput out;
  facts::print_warnings(out, {{"warnings", {"THP is never", 3, "governor powersave"}}}, "movebench run");
  EXPECT_EQ(out.err, "movebench run: warning: THP is never\nmovebench run: warning: governor powersave\n");
  EXPECT_EQ(out.out, "");
}

}  // namespace
}  // namespace movebench
