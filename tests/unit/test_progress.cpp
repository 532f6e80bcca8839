// The progress line's text and its estimate of what is left (drawing itself
// is tested in a real terminal: tests/integration/test_progress_tty.py).
#include <gtest/gtest.h>
#include <unistd.h>

#include "core/progress.hpp"

namespace movebench {
namespace {

TEST(Progress, FormatsDurations) {
  EXPECT_EQ(format_duration(0), "0:00");
  EXPECT_EQ(format_duration(7.4), "0:07");
  EXPECT_EQ(format_duration(754), "12:34");
  EXPECT_EQ(format_duration(3723), "1:02:03");
  EXPECT_EQ(format_duration(-3), "0:00");
}

TEST(Progress, NamesTheStepAndEstimatesWhatIsLeft) {
  Progress p(false, 100.0);  // disabled: text() only, nothing drawn
  p.begin("mem seq", 4);
  p.step("Triad N=1024", 101.0);
  // One step begun, none finished: no estimate yet.
  EXPECT_EQ(p.text(101.5), "movebench | mem seq Triad N=1024 | 1/4 | 0:02 elapsed");
  p.step("Triad N=4096", 103.0);  // the first step took 2 s
  // Three steps to go at 2 s each, 1 s of the current one gone: 5 s left.
  EXPECT_EQ(p.text(104.0), "movebench | mem seq Triad N=4096 | 2/4 | 0:04 elapsed, ~0:05 left");
  p.step("Triad N=16384", 105.0);
  p.step("Triad N=65536", 107.0);
  EXPECT_EQ(p.text(108.0), "movebench | mem seq Triad N=65536 | 4/4 | 0:08 elapsed, ~0:01 left");
  // Running over the estimate never shows a negative time.
  EXPECT_EQ(p.text(120.0), "movebench | mem seq Triad N=65536 | 4/4 | 0:20 elapsed, ~0:00 left");
}

TEST(Progress, ShowsTheSuiteStageBeforeThePhase) {
  Progress p(false, 0.0);
  p.stage("coll", 3, 5);
  EXPECT_EQ(p.text(1.0), "run 3/5 coll | 0:01 elapsed");
  p.begin("coll", 2);
  p.step("Allreduce 1.00 KiB", 2.0);
  EXPECT_EQ(p.text(3.0), "run 3/5 coll | coll Allreduce 1.00 KiB | 1/2 | 0:03 elapsed");
}

TEST(Progress, DisabledWhenQuietOrNotATerminal) {
  EXPECT_FALSE(Progress::wanted(true));
  // The unit tests run with stderr on a pipe or a file under ctest.
  if (!isatty(2)) {
    EXPECT_FALSE(Progress::wanted(false));
  }
}

}  // namespace
}  // namespace movebench
