#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/report.hpp"

using namespace movebench;

namespace {
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
  r.figures = {{"bandwidth", 3.0, "MB/s", "min"}};
  return r;
}
}  // namespace

TEST(Report, WritesAValidDocumentAtOnceAndAfterEveryRecord) {
  const auto path = temp_path("report");
  Report report("mem", {path, false, true}, {"movebench", "mem"});
  auto doc = read(path);
  EXPECT_EQ(doc["name"], "movebench mem");
  EXPECT_EQ(doc["timings"].size(), 0u);
  EXPECT_EQ(doc["complete"], false);

  report.add(sample_record());
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
  Report report("mem", {path, false, true}, {});
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

TEST(Report, UnwritablePathIsAUsageError) {
  EXPECT_THROW(Report("mem", {"/nonexistent-dir/x.json", false, true}, {}), UsageError);
}

TEST(Report, ParsableLineHasAFixedOrder) {
  Record r = sample_record();
  EXPECT_EQ(parsable_line(r, r.figures[0]),
            "MOVEBENCH_RESULT name=mem.triad metric=bandwidth value=3 unit=MB/s stat=min bytes=3000 threads=2");
}
