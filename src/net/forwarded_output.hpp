// How the MPI commands' writers hand rank 0's text to the user: through the
// launcher (mpirun, srun), which forwards what the process has written, so
// each piece leaves stdout's buffer as soon as it is measured rather than
// at exit. Output has no flush of its own: the standard one writes stdout
// (buffered, core/progress), and a test's CapturedOutput has nothing to flush.
#pragma once
#include <cstdio>
#include <string_view>

#include "core/output.hpp"

namespace movebench::net {

inline void send_now(Output& out, std::string_view text) {
  out.text(text);
  std::fflush(stdout);
}

}  // namespace movebench::net
