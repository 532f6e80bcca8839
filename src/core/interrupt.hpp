// Ctrl-C and SIGTERM: stop between measurements and keep what was measured.
#pragma once

namespace movebench {

// Installs handlers for SIGINT and SIGTERM that only raise a flag; the
// benchmark loops look at it between measurements (never inside a timed one).
// A second signal ends the process at once.
void install_interrupt_handlers();
// 0 while no signal came, else the signal number.
int interrupt_signal();
// Records a signal another process of the same job received (MPI ranks
// agree on interrupts), unless one came here already.
void note_interrupt(int sig);
// The job has agreed how the run ended (MPI: the last agreement, after the
// last step, when everything has been measured): a first signal after this
// does not make this process alone report an interrupted run; a second one
// still ends it at once.
void settle_interrupts();
inline bool interrupted() { return interrupt_signal() != 0; }

}  // namespace movebench
