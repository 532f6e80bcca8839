// The one line `movebench run` prints per benchmark: a head ("coll (avg at
// the largest size):"), then "label value unit;" for each headline present
// in the report. Each command names its headlines; this is the only code
// that reads them back from the document.
#pragma once
#include <functional>
#include <string>
#include <string_view>

#include "core/report.hpp"

namespace movebench {

// How a value is shown: in `unit` (converted from the result's own when
// both are times or both rates; empty: the result's unit), with `decimals`
// after the point (below 0: four significant digits). A line that fixes its
// unit reads the same when a command records the value in another one.
struct Shown {
  std::string_view unit;
  int decimals = -1;
};

class SummaryLine {
 public:
  SummaryLine(const Report& report, std::string head);

  // The result `key`, when the report has it.
  SummaryLine& result(const std::string& key, std::string_view label, Shown shown = {});
  // Every result named prefix + X + suffix, in name order, labelled
  // label_of(X).
  SummaryLine& results(std::string_view prefix, std::string_view suffix,
                       const std::function<std::string(std::string_view)>& label_of, Shown shown = {});
  // The figure `figure` of the record of `benchmark` and `operation` with
  // the most bytes, labelled "label at <its size>".
  SummaryLine& at_largest(std::string_view benchmark, std::string_view operation, std::string_view figure,
                          std::string_view label, Shown shown = {});

  const std::string& str() const { return line_; }

 private:
  void add(std::string_view label, double value, const std::string& unit, Shown shown);

  const nlohmann::json& doc_;
  std::string line_;
};

}  // namespace movebench
