// The vocabulary of a figure (docs/results.md, "Vocabulary"): which
// statistic of which samples it is, which way is better, its unit, and for a
// bandwidth which bytes it counts. A Figure is made only by the functions
// below, so a benchmark cannot leave any of it out: mem's "min" (the least
// time, the best rate) and link's bandwidth_min (the least rate, the worst)
// once read the same, and latencies came in ns from some commands and in us
// from others.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace movebench {

// The statistic, and what it is taken over: the samples' times (seconds;
// the least time is the best sample), or their rates (one per sample, the
// bytes or operations over that sample's time; the greatest is the best).
// A rate "of time" is the bytes over that statistic of the times: "mean of
// time" is all bytes over all time (OSU's bandwidth, hdl_single_engine's
// average).
// kP50..kP999: percentiles of the samples, nearest rank: movebench's own
// as HdrHistogram reads them (core/distribution), and OSU -z imports'.
enum class Stat { kMin, kMedian, kMean, kMax, kP50, kP90, kP99, kP999 };
enum class Of { kTime, kRate };

// Which bytes a bandwidth counts: the most common error in the peers'
// trackers is reading one accounting as another.
enum class Bytes {
  kApplication,    // what the operation reads and writes as the program sees it
                   // (STREAM's and TheBandwidthBenchmark's loads plus stores, a
                   // message, a transfer)
  kWriteAllocate,  // application bytes plus the read of every cache line stored
                   // without a streaming store (likwid-bench's accounting)
  kAlgorithm,      // a collective's data size over its time: nccl-tests' algbw
  kBus,            // nccl-tests' busbw: the algorithm bytes times `factor`
};

struct Accounting {
  Bytes bytes = Bytes::kApplication;
  int directions = 1;  // 2: both directions of a duplex or bidirectional exchange, summed
  double factor = 1;   // kBus: the bus factor of the collective (2(n-1)/n for allreduce); else 1
};

Accounting application_bytes(int directions = 1);
Accounting write_allocate_bytes();
Accounting algorithm_bytes();
Accounting bus_bytes(double factor);

// Bandwidths are in decimal multiples of B/s (1 MB = 10^6 B, as STREAM and
// TheBandwidthBenchmark), flop rates in the same multiples of Flop/s.
enum class Scale { kOne, kKilo, kMega, kGiga };
// "MB/s" -> kMega; throws std::invalid_argument for anything else.
Scale scale_of_unit(std::string_view bytes_per_second_unit);

class Figure {
 public:
  // Seconds in, ns out: every time figure is in ns. Always of the times;
  // lower is better.
  static Figure latency(std::string name, double seconds, Stat stat);
  // Bytes per second in, `scale` B/s out; higher is better.
  static Figure bandwidth(std::string name, double bytes_per_second, Stat stat, Of of, Accounting accounting,
                          Scale scale = Scale::kMega);
  // Floating-point operations per second in, `scale` Flop/s out.
  static Figure flop_rate(std::string name, double flops_per_second, Stat stat, Of of, Scale scale = Scale::kMega);
  // A size in bytes chosen from a curve (stream's chunk90): `stat` and `of`
  // say which statistic of the curve's points chose it.
  static Figure size(std::string name, double bytes, Stat stat, Of of, bool higher_is_better);
  // The same figure under another name (a record's figure as a headline).
  Figure named(std::string other) const;

  // A figure as a result document holds it, and back (movebench run reads
  // the document of its local MPI job). from_json throws
  // std::invalid_argument on a figure without the vocabulary.
  nlohmann::json to_json() const;
  static Figure from_json(std::string name, const nlohmann::json& j);

  const std::string& name() const { return name_; }
  double value() const { return value_; }
  const std::string& unit() const { return unit_; }
  Stat stat() const { return stat_; }
  Of of() const { return of_; }
  bool higher_is_better() const { return higher_is_better_; }
  const std::optional<Accounting>& accounting() const { return accounting_; }

 private:
  Figure(std::string name, double value, std::string unit, Stat stat, Of of, bool higher_is_better,
         std::optional<Accounting> accounting = std::nullopt);
  std::string name_;
  double value_ = 0;
  std::string unit_;
  Stat stat_ = Stat::kMedian;
  Of of_ = Of::kTime;
  bool higher_is_better_ = false;
  std::optional<Accounting> accounting_;
};

std::string_view stat_name(Stat s);
std::string_view of_name(Of o);
std::string_view bytes_name(Bytes b);
// One token for text lines: "application", "application/both", "bus*1.5".
std::string accounting_token(const Accounting& a);

// A figure or a peak as the text shows it: 4 significant digits (every
// digit before the point where there are more), trailing zeros dropped,
// never an exponent (0.25, 31.51, 63.02, 345.6, 4, 31508; not 0.2, 63.0,
// 3.151e+04). Four, because that is what the peaks have: PCIe's
// generations after their encoding differ in the fourth digit (15.75 GB/s,
// not 15.8), a DRAM peak is exact in four (9 x 4800 MT/s x 8 B = 345.6 GB/s).
// Every peak and figure a text line prints goes through it.
std::string significant_text(double value);
// Bytes per second in GB/s (decimal), by significant_text: "0.25 GB/s".
std::string gb_per_second_text(double bytes_per_second);

}  // namespace movebench
