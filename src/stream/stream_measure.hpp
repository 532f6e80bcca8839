// What `movebench stream` does on a device once its options are resolved:
// run_stream (stream_run.cpp: the designs chosen, the launch bound, each
// design, the sweep), one design at one shape (stream_measure.cpp: its
// passes, timed, each output checked) and the records (stream_record.cpp).
// The text is stream_output's.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/distribution.hpp"
#include "core/output.hpp"
#include "core/report.hpp"
#include "device/device.hpp"
#include "stream/designs.hpp"
#include "stream/stream_options.hpp"

namespace movebench::stream {

// Every chosen design on `device`, then the sweep; the command's run.
void run_stream(Device& device, Report& report, const StreamOptions& o, Output& out);

// What one sample of a stream's distribution is (its record's `distribution`).
inline constexpr std::string_view kChunkEvent = "chunk (submitted to its output seen on the host)";

// The figures of one design at one shape over its iterations.
struct Point {
  std::vector<double> latency, throughput;  // per iteration: seconds, bytes/s
  double chunk_latency_median = 0;          // over every chunk of every iteration
  // Every chunk of every iteration, submitted to seen (core/distribution).
  Distribution chunks{std::string(kChunkEvent)};
  bool passed = true;
};

// The host memory stream's designs use on `device`: mapped, else pageable,
// whichever its kernels reach.
MemKind stream_kind(Device& device);
// One design at one shape: a warm-up pass, then shape.repetitions passes,
// every output checked; recorded (add_record) and returned.
Point measure_design(Device& device, const Design& design, const Shape& shape, const StreamOptions& o, Report& report,
                     Output& out);

// simple-host-streaming's averages over the passes: the latencies' mean,
// and the mean of the passes' throughputs (input bytes, each streamed
// through once).
double mean(const std::vector<double>& v);
Figure latency_figure(std::string name, const Point& p);
Figure throughput_figure(std::string name, const Point& p);
void add_record(Report& report, Device& device, const std::string& design, const Shape& shape, const Point& p);
// `settings.stream`: the shape, the designs that run, the sweep.
void record_settings(Report& report, Device& device, const StreamOptions& o, const std::vector<const Design*>& designs);

}  // namespace movebench::stream
