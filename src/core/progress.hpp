// One live progress line on stderr for long runs: what runs, step i of n,
// elapsed and an estimate of what is left. Only on a terminal, only on rank
// 0, never with --quiet, and only once a run has lasted kShowAfter seconds
// (short runs look as before). Commands tick it between measurements, never
// inside a timed region: drawing is a few writes and costs microseconds.
//
// While it is on, stdout is fully buffered and flushed by the line itself
// (erase, flush stdout, redraw), so the rows a command prints never land on
// top of the line and the commands need no call to erase it.
#pragma once
#include <cstddef>
#include <string>

namespace movebench {

class Progress {
 public:
  static constexpr double kShowAfter = 2.0;    // seconds before the line first shows
  static constexpr double kRedrawEvery = 0.2;  // seconds between redraws of the same step

  // enabled: draw at all (see wanted()); now: the clock (seconds), for tests.
  explicit Progress(bool enabled, double now = -1);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // True when a line should be drawn: stderr is a terminal, not --quiet, and
  // this process is rank 0 (or not under a launcher).
  static bool wanted(bool quiet);
  bool enabled() const { return enabled_; }

  // The outer step of `movebench run`: benchmark `index` (from 1) of `count`.
  // Erases the line and flushes stdout (a benchmark may start a child job
  // that writes to the same terminal).
  void stage(const std::string& name, std::size_t index, std::size_t count);
  // A phase of `steps` measurements: "mem seq", "coll", "p2p latency".
  void begin(const std::string& what, std::size_t steps);
  // The next step of the phase starts; `detail` names it ("Triad 1.50 MiB").
  void step(const std::string& detail, double now = -1);
  // Erases the line and flushes stdout; the next step draws it again.
  void clear();

  // The text of the line at time `now` (width unlimited), for tests.
  std::string text(double now) const;

 private:
  void draw(double now);

  bool enabled_;
  bool visible_ = false;
  double created_;
  double last_draw_ = -1;
  std::string stage_;  // "run 2/6 mem" or empty
  std::string what_, detail_;
  std::size_t steps_ = 0, done_ = 0;  // done_: steps begun, the current one included
  double phase_start_ = 0;            // when the first step began
  double last_step_ = 0;              // when the current step began
};

// "0:07", "12:34", "1:02:03".
std::string format_duration(double seconds);

}  // namespace movebench
