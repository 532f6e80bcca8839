// Output through one interface (issue 20): measuring code hands what it
// measured to a writer, and the writer turns it into text (the tables, the
// upstream tools' lines) through functions of those results only, which
// unit tests call without measuring anything. Every writer prints through
// an Output, which the command owns: the standard streams in a run, a
// string in a test. (`--parsable` lines and the JSON document are
// Report::add's, the one writer of records; progress is Report::progress().)
#pragma once
#include <string>
#include <string_view>

namespace movebench {

class Output {
 public:
  virtual ~Output() = default;
  // The tables and the upstream tools' lines (stdout).
  virtual void text(std::string_view s) = 0;
  // One line about a problem, without its newline (stderr).
  virtual void problem(std::string_view line) = 0;
  // What text() has written leaves now, not when the buffer fills: a row
  // measured seconds apart, or an MPI rank 0's row, which the launcher
  // (mpirun, srun) forwards only once the process has written it.
  virtual void flush() {}
};

// text(), then flush(): a piece the user should see as it is measured.
inline void send_now(Output& out, std::string_view text) {
  out.text(text);
  out.flush();
}

// stdout and stderr, as printf and fprintf(stderr) wrote them (stdout stays
// buffered as the progress line wants it: core/progress).
Output& standard_output();

// What a writer printed, kept for a test.
class CapturedOutput final : public Output {
 public:
  void text(std::string_view s) override { out += s; }
  void problem(std::string_view line) override { (err += line) += '\n'; }
  std::string out, err;
};

}  // namespace movebench
