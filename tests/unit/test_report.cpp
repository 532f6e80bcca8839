#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/atomic_file.hpp"
#include "core/errors.hpp"
#include "core/report.hpp"

using namespace movebench;

namespace {

// A report that writes its document to `path` (the other options their defaults).
OutputOptions to_file(std::string path) {
  OutputOptions o;
  o.json_path = std::move(path);
  return o;
}

std::string temp_path(const char* name) {
  return (std::filesystem::temp_directory_path() / (std::string(name) + std::to_string(getpid()) + ".json")).string();
}
nlohmann::json read(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}
Record sample_record() {
  Record r;
  r.benchmark = "mem";
  r.operation = "triad";
  r.bytes = 3000;
  r.params = {{"threads", 2}};
  r.samples = {0.002, 0.001, 0.003};
  r.figures = {Figure::bandwidth("bandwidth", 3e6, Stat::kMin, Of::kTime, application_bytes())};
  return r;
}
}  // namespace

TEST(Report, WritesAValidDocumentAtOnceAndAtEverySave) {
  const auto path = temp_path("report");
  Report report("mem", to_file(path), {"movebench", "mem"});
  auto doc = read(path);
  EXPECT_EQ(doc["name"], "movebench mem");
  EXPECT_EQ(doc["timings"].size(), 0u);
  EXPECT_EQ(doc["complete"], false);

  report.add(sample_record());
  ASSERT_TRUE(report.save());
  doc = read(path);
  ASSERT_EQ(doc["timings"].size(), 1u);
  EXPECT_DOUBLE_EQ(doc["timings"][0]["stats"]["median"].get<double>(), 0.002);
  EXPECT_EQ(doc["timings"][0]["samples"].size(), 3u);

  report.validation(true, "");
  EXPECT_EQ(report.finish(), kExitOk);
  doc = read(path);
  EXPECT_EQ(doc["validated"], true);
  EXPECT_EQ(doc["complete"], true);
  std::filesystem::remove(path);
}

TEST(Report, FailedValidationMeansExitOneAndAnError) {
  const auto path = temp_path("report_fail");
  Report report("mem", to_file(path), {});
  report.validation(false, "array a[5] holds 3 but must hold 2");
  EXPECT_EQ(report.finish(), kExitFailure);
  auto doc = read(path);
  EXPECT_EQ(doc["validated"], false);
  EXPECT_EQ(doc["errors"]["validation"], "array a[5] holds 3 but must hold 2");
  std::filesystem::remove(path);
}

TEST(Report, NoValidationIsNotValidated) {
  Report report("mem", {}, {});
  EXPECT_FALSE(report.validated());
}

TEST(Report, SkippedValidationIsRecordedWithTheOptionAndIsNoPass) {
  const auto path = temp_path("report_skip");
  Report report("coll", to_file(path), {});
  EXPECT_EQ(report.validation_verdict(), "FAILED");  // nothing checked, nothing skipped
  report.validation(true, "checked before");
  EXPECT_EQ(report.validation_verdict(), "PASSED");
  report.validation_skipped("--no-check", "received data");
  EXPECT_FALSE(report.validated());
  EXPECT_EQ(report.validation_verdict(), "SKIPPED (coll --no-check: received data not checked)");
  EXPECT_EQ(report.finish(), kExitOk);
  auto doc = read(path);
  EXPECT_EQ(doc["validated"], false);
  EXPECT_EQ(doc["validation_skipped"], "coll --no-check: received data not checked");
  EXPECT_TRUE(doc["errors"].empty());
  std::filesystem::remove(path);
}

TEST(Report, ImportedSkipReasonsAreJoinedAndAFailureStillFails) {
  Report report("run", {}, {});
  report.validation_skipped("p2p --skip-validation: received data not checked");
  report.validation_skipped("beff --skip-validation: received data not checked");
  EXPECT_EQ(report.document()["validation_skipped"],
            "p2p --skip-validation: received data not checked; beff --skip-validation: received data not checked");
  report.validation(false, "coll: Bcast 8 B: received data wrong");
  EXPECT_EQ(report.validation_verdict(), "FAILED");
}

TEST(Report, UnwritablePathIsAUsageErrorWithTheReason) {
  const auto missing = std::filesystem::temp_directory_path() / ("report_missing" + std::to_string(getpid()));
  std::filesystem::remove_all(missing);
  try {
    Report("mem", to_file((missing / "x.json").string()), {});
    FAIL() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos) << e.what();
  }
  // A folder or a device is never replaced by the result.
  EXPECT_THROW(Report("mem", to_file(std::filesystem::temp_directory_path().string()), {}), UsageError);
  EXPECT_THROW(Report("mem", to_file("/dev/null"), {}), UsageError);
}

namespace {
// A fresh folder of its own, removed at the end.
struct TempFolder {
  std::filesystem::path path;
  explicit TempFolder(const char* name)
      : path(std::filesystem::temp_directory_path() / (std::string(name) + std::to_string(getpid()))) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempFolder() { std::filesystem::remove_all(path); }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(path)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
};
std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), {}};
}
}  // namespace

TEST(Report, CheckpointsKeepWritingLinearInTheRecordCount) {
  TempFolder dir("report_checkpoints");
  const auto path = (dir.path / "out.json").string();
  Report report("mem", to_file(path), {});
  // Added as fast as the loop goes: saving after each would cost a time
  // quadratic in the count; checkpoints save a small fraction of the times.
  constexpr int kRecords = 3000;
  for (int i = 0; i < kRecords; ++i) report.add(sample_record());
  EXPECT_LT(report.saves(), kRecords / 10u);
  EXPECT_EQ(report.finish(), kExitOk);
  EXPECT_EQ(read(path)["timings"].size(), static_cast<std::size_t>(kRecords));
  EXPECT_EQ(dir.names(), std::vector<std::string>{"out.json"});
}

TEST(Report, ASymlinkAtTheTargetIsReplacedNotFollowed) {
  TempFolder dir("report_symlink");
  const auto victim = dir.path / "victim";
  std::ofstream(victim) << "precious";
  std::filesystem::create_symlink(victim, dir.path / "out.json");
  Report report("mem", to_file((dir.path / "out.json").string()), {});
  report.finish();
  EXPECT_EQ(slurp(victim), "precious");
  EXPECT_FALSE(std::filesystem::is_symlink(dir.path / "out.json"));
  EXPECT_EQ(read((dir.path / "out.json").string())["benchmark"], "mem");
}

TEST(Report, PlantedTemporaryNamesAreNeverFollowed) {
  TempFolder dir("report_planted");
  const auto victim = dir.path / "victim";
  std::ofstream(victim) << "precious";
  // The name an earlier version used for its temporary file.
  std::filesystem::create_symlink(victim, dir.path / "out.json.tmp");
  Report report("mem", to_file((dir.path / "out.json").string()), {});
  report.add(sample_record());
  report.finish();
  EXPECT_EQ(slurp(victim), "precious");
  EXPECT_EQ(dir.names(), (std::vector<std::string>{"out.json", "out.json.tmp", "victim"}));
}

TEST(Report, AWriteErrorKeepsTheLastFileAndFailsTheRun) {
  TempFolder dir("report_write_error");
  const auto path = (dir.path / "out.json").string();
  Report report("mem", to_file(path), {});
  report.add(sample_record());
  report.validation(true, "");
  ASSERT_TRUE(report.save());
  const std::string before = slurp(path);
  // The target turns into something a file cannot replace.
  std::filesystem::rename(path, dir.path / "kept.json");
  std::filesystem::create_directory(path);
  report.add(sample_record());
  EXPECT_FALSE(report.save());
  EXPECT_TRUE(report.write_failed());
  EXPECT_EQ(report.finish(), kExitFailure);
  EXPECT_EQ(slurp(dir.path / "kept.json"), before);
  EXPECT_EQ(dir.names(), (std::vector<std::string>{"kept.json", "out.json"}));
}

TEST(Report, AnyBytesInTheCommandLineMakeValidJson) {
  TempFolder dir("report_bytes");
  const auto path = (dir.path / "out.json").string();
  Report report("mem", to_file(path), {"movebench", "--outdir", std::string("bad\xff\xfe")});
  report.validation(true, "");
  EXPECT_EQ(report.finish(), kExitOk);
  EXPECT_EQ(read(path)["command_line"][2], "bad\uFFFD\uFFFD");
}

TEST(AtomicFile, ReplacesWholeAndLeavesNothingBehind) {
  TempFolder dir("atomic_file");
  const auto path = (dir.path / "a.txt").string();
  EXPECT_EQ(replace_file(path, "one"), "");
  EXPECT_EQ(replace_file(path, "two"), "");
  EXPECT_EQ(slurp(path), "two");
  EXPECT_EQ(replace_file((dir.path / "missing" / "a.txt").string(), "x"), "No such file or directory");
  EXPECT_EQ(dir.names(), std::vector<std::string>{"a.txt"});
  EXPECT_THROW(check_output_file((dir.path / "missing" / "a.txt").string(), "file"), UsageError);
  EXPECT_NO_THROW(check_output_file(path, "file"));
  EXPECT_EQ(dir.names(), std::vector<std::string>{"a.txt"});
}

TEST(Report, ParsableLineHasAFixedOrder) {
  Record r = sample_record();
  EXPECT_EQ(parsable_line(r, r.figures[0]),
            "MOVEBENCH_RESULT name=mem.triad metric=bandwidth value=3 unit=MB/s stat=min of=time better=higher "
            "accounting=application bytes=3000 threads=2");
  const Figure latency = Figure::latency("latency", 2.5e-6, Stat::kMedian);
  EXPECT_EQ(parsable_line(r, latency),
            "MOVEBENCH_RESULT name=mem.triad metric=latency value=2500 unit=ns stat=median of=time better=lower "
            "bytes=3000 threads=2");
}

// The vocabulary of docs/results.md: every figure says its statistic, what
// it is of, which way is better and (bandwidths) which bytes it counts, in
// the one unit set; a figure reads back as it was written.
TEST(Figure, CarriesItsVocabularyAndReadsBack) {
  const Figure busbw = Figure::bandwidth("busbw", 3e9, Stat::kMax, Of::kTime, bus_bytes(1.5), Scale::kGiga);
  const nlohmann::json j = busbw.to_json();
  EXPECT_EQ(j, nlohmann::json::parse(R"({"value": 3.0, "unit": "GB/s", "stat": "max", "of": "time",
      "better": "higher", "accounting": {"bytes": "bus", "directions": 1, "factor": 1.5}})"));
  const Figure back = Figure::from_json("busbw", j);
  EXPECT_EQ(back.to_json(), j);
  EXPECT_EQ(accounting_token(*back.accounting()), "bus*1.5");
  EXPECT_EQ(accounting_token(application_bytes(2)), "application/both");
  EXPECT_EQ(accounting_token(write_allocate_bytes()), "write_allocate");

  const Figure rate = Figure::bandwidth("bandwidth_min", 2e6, Stat::kMin, Of::kRate, application_bytes());
  EXPECT_EQ(rate.to_json()["of"], "rate");
  EXPECT_EQ(rate.to_json()["unit"], "MB/s");
  EXPECT_DOUBLE_EQ(rate.value(), 2.0);

  const Figure latency = Figure::latency("avg", 17.3e-6, Stat::kMean);
  EXPECT_EQ(latency.unit(), "ns");  // every latency in ns, whatever the command prints
  EXPECT_DOUBLE_EQ(latency.value(), 17300);
  EXPECT_FALSE(latency.to_json().contains("accounting"));
  EXPECT_EQ(latency.to_json()["better"], "lower");

  const Figure flops = Figure::flop_rate("flops", 4e9, Stat::kMin, Of::kTime, Scale::kGiga);
  EXPECT_EQ(flops.unit(), "GFlop/s");
  EXPECT_DOUBLE_EQ(flops.value(), 4.0);

  EXPECT_EQ(scale_of_unit("KB/s"), Scale::kKilo);
  EXPECT_THROW(scale_of_unit("MiB/s"), std::invalid_argument);
  EXPECT_THROW(Figure::from_json("x", nlohmann::json::parse(R"({"value": 1, "unit": "us", "stat": "min"})")),
               std::invalid_argument);
  const auto best =
      nlohmann::json::parse(R"({"value": 1, "unit": "ns", "stat": "best", "of": "time", "better": "lower"})");
  EXPECT_THROW(Figure::from_json("x", best), std::invalid_argument);  // version 1's word
}

// The schema's tail statistics (imported OSU -z) read back as they were
// written: once refused as "not in the vocabulary" (issue 20).
TEST(Figure, ReadsTheTailPercentilesOfTheSchema) {
  for (const char* stat : {"p50", "p90", "p99"}) {
    nlohmann::json j = {{"value", 1.5}, {"unit", "ns"}, {"stat", stat}, {"of", "time"}, {"better", "lower"}};
    const Figure tail = Figure::from_json("latency_tail", j);
    EXPECT_EQ(stat_name(tail.stat()), stat);
    EXPECT_EQ(tail.to_json(), j);
  }
}

// The peaks of the PCIe table (docs/facts.md) and the DRAM peaks of the
// committed dumps, as the text prints them: 4 significant digits, no
// trailing zeros, no exponent.
TEST(Figure, SignificantTextKeepsFourDigitsAndNeverAnExponent) {
  EXPECT_EQ(gb_per_second_text(2.5e9 * 1 * 0.8 / 8), "0.25 GB/s");         // Gen1 x1 (was "0.2 GB/s")
  EXPECT_EQ(gb_per_second_text(16e9 * 16 * 128 / 130 / 8), "31.51 GB/s");  // Gen4 x16
  EXPECT_EQ(gb_per_second_text(32e9 * 16 * 128 / 130 / 8), "63.02 GB/s");  // Gen5 x16 (was "63.0 GB/s")
  EXPECT_EQ(gb_per_second_text(8e9 * 1 * 128 / 130 / 8), "0.9846 GB/s");   // Gen3 x1
  EXPECT_EQ(gb_per_second_text(2.5e9 * 16 * 0.8 / 8), "4 GB/s");           // exact: no ".000"
  EXPECT_EQ(gb_per_second_text(9 * 4800e6 * 8), "345.6 GB/s");             // EPYC 9454P, 9 channels
  EXPECT_EQ(gb_per_second_text(2 * 12 * 6400e6 * 8), "1229 GB/s");         // not 1.229e+03
  EXPECT_EQ(significant_text(31508.0), "31508");                           // every integer digit, not 3.151e+04
  EXPECT_EQ(significant_text(0.000123456), "0.0001235");
  EXPECT_EQ(significant_text(9.99996), "10");  // rounding up a decade keeps no trailing zeros
  EXPECT_EQ(significant_text(-1.5), "-1.5");
  EXPECT_EQ(significant_text(0.0), "0");
  EXPECT_EQ(significant_text(-0.0), "0");
}

TEST(Report, WritesSchemaVersionThreeAndResultsWithTheVocabulary) {
  Report report("p2p", {}, {});
  EXPECT_EQ(report.document()["schema_version"], kSchemaVersion);
  EXPECT_EQ(kSchemaVersion, 3);  // 3: the facts key (docs/facts.md)
  report.set_result(Figure::latency("p2p.latency", 1.5e-6, Stat::kMean));
  const auto& result = report.document()["results"]["p2p.latency"];
  EXPECT_EQ(result["unit"], "ns");
  EXPECT_DOUBLE_EQ(result["value"].get<double>(), 1500);
  EXPECT_EQ(result["stat"], "mean");
  EXPECT_EQ(result["of"], "time");
}
