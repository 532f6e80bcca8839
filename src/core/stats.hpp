// Summary statistics of timed samples; every record carries them.
#pragma once
#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <span>

namespace movebench {

struct Summary {
  double min = 0, median = 0, mean = 0, max = 0;
  double stddev = 0;  // sample standard deviation (n - 1); 0 for one sample
  std::size_t count = 0;
};

// Throws std::invalid_argument on an empty span.
Summary summarize(std::span<const double> samples);

void to_json(nlohmann::json& j, const Summary& s);

}  // namespace movebench
