#include "core/progress.hpp"

#include <fmt/format.h>
#include <stdio_ext.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/clock.hpp"
#include "core/launcher.hpp"

namespace movebench {
namespace {

constexpr const char* kErase = "\r\x1b[K";  // to column 0, erase to the end of the line

std::size_t terminal_columns() {
  winsize ws{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

void write_stderr(const std::string& s) {
  // stderr is unbuffered: one fputs is one write.
  std::fputs(s.c_str(), stderr);
}

}  // namespace

std::string format_duration(double seconds) {
  const auto s = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

Progress::Progress(bool enabled, double now) : enabled_(enabled), created_(now >= 0 ? now : now_seconds()) {
  // Full buffering: the line flushes stdout itself, after erasing itself
  // (before any output, as setvbuf requires: Reports are made before a
  // command prints).
  if (enabled_) std::setvbuf(stdout, nullptr, _IOFBF, 1 << 16);
}

Progress::~Progress() { clear(); }

bool Progress::wanted(bool quiet) { return !quiet && isatty(STDERR_FILENO) && launcher_rank() <= 0; }

void Progress::stage(const std::string& name, std::size_t index, std::size_t count) {
  clear();
  stage_ = fmt::format("run {}/{} {}", index, count, name);
  what_.clear();
  detail_.clear();
  steps_ = done_ = 0;
}

void Progress::begin(const std::string& what, std::size_t steps) {
  what_ = what;
  detail_.clear();
  steps_ = steps;
  done_ = 0;
}

void Progress::step(const std::string& detail, double now) {
  if (now < 0) now = now_seconds();
  if (done_ == 0) phase_start_ = now;  // the estimate counts steps, not the set-up before them
  detail_ = detail;
  ++done_;
  last_step_ = now;
  if (!enabled_) return;
  // Rows printed since the last step wait in stdout's buffer: erase the
  // line, let them out, draw the line below them. Without new rows the
  // line is redrawn at most every kRedrawEvery.
  const bool rows = __fpending(stdout) > 0;
  if (!rows && visible_ && now - last_draw_ < kRedrawEvery) return;
  if (rows) clear();
  if (now - created_ >= kShowAfter) draw(now);
}

void Progress::clear() {
  if (!enabled_) return;
  if (visible_) write_stderr(kErase);
  visible_ = false;
  std::fflush(stdout);
}

std::string Progress::text(double now) const {
  std::string line = stage_.empty() ? "movebench" : stage_;
  if (!what_.empty()) line += " | " + what_;
  if (!detail_.empty()) line += " " + detail_;
  if (steps_ > 0 && done_ > 0) line += fmt::format(" | {}/{}", std::min(done_, steps_), steps_);
  line += fmt::format(" | {} elapsed", format_duration(now - created_));
  // Left: the mean of the finished steps, times the steps not finished,
  // less what the current one has already run.
  if (steps_ > 0 && done_ > 1) {
    const double per_step = (last_step_ - phase_start_) / static_cast<double>(done_ - 1);
    const double left = per_step * static_cast<double>(steps_ - std::min(done_, steps_) + 1) - (now - last_step_);
    line += fmt::format(", ~{} left", format_duration(std::max(left, 0.0)));
  }
  return line;
}

void Progress::draw(double now) {
  std::string line = text(now);
  const std::size_t width = terminal_columns() - 1;  // a full line would wrap on some terminals
  if (line.size() > width) line.resize(width);
  write_stderr(kErase + line);
  visible_ = true;
  last_draw_ = now;
}

}  // namespace movebench
