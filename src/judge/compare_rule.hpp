// The noise-aware comparison of two figures: the rule of movebench-report's
// `compare` (python/movebench_report/compare.py `judge`, model.py
// `sample_spread`; here sample_noise and compare), for what the C++ side
// compares itself (`fleet --baseline`). One rule: both sides are tested on
// the same fixtures (tests/data/compare_rule.json;
// tests/unit/test_compare_rule.cpp and tests/python/test_compare_rule.py),
// so a change to one that the other does not follow fails a test.
#pragma once
#include <optional>
#include <string_view>
#include <vector>

namespace movebench::judge {

// The noise of a figure, as a fraction, from its samples (seconds or
// rates). A best-of figure (the least time, the greatest rate): the gap
// between the two fastest samples over the fastest (how well the best
// repeats). Any other: half the interquartile range over the median
// (numpy's linear percentiles). None with too few samples (best-of: 2,
// other: 3) or a denominator that is not positive.
std::optional<double> sample_noise(std::vector<double> samples, bool best_of);

enum class Change { kNoise, kSlower, kFaster, kSame };

struct Judged {
  double ratio = 0;  // B/A
  Change change = Change::kSame;
};

// B against A. Inside the noise of both (|B/A - 1| <= noise_a + noise_b):
// noise. Else slower or faster when worse or better by more than
// `threshold` (a fraction; worse is lower for a rate, higher for a time),
// else the same. A of 0 makes the ratio infinite, as Python's does.
Judged compare(double a, double noise_a, double b, double noise_b, bool higher_is_better, double threshold);

// "noise", "slower", "faster", "same": compare.py's verdict words.
std::string_view change_name(Change change);

}  // namespace movebench::judge
