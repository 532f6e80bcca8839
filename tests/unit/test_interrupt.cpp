// core/interrupt: a signal stops the run between measurements; once the
// outcome is settled (MPI: the last agreement) a first signal no longer
// does. Each case runs in its own process (the flag is process state).
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>

#include "core/interrupt.hpp"

namespace movebench {
namespace {

// Exit status: the signal the run saw as an interrupt, 0 for none.
[[noreturn]] void signal_then_exit(bool settle_first) {
  install_interrupt_handlers();
  if (settle_first) settle_interrupts();
  std::raise(SIGTERM);
  std::exit(interrupt_signal());
}

TEST(InterruptDeathTest, ASignalIsAnInterrupt) {
  EXPECT_EXIT(signal_then_exit(false), testing::ExitedWithCode(SIGTERM), "");
}

TEST(InterruptDeathTest, ASignalAfterSettlingIsNotAnInterrupt) {
  EXPECT_EXIT(signal_then_exit(true), testing::ExitedWithCode(0), "");
}

TEST(InterruptDeathTest, ASecondSignalAfterSettlingStillEndsTheProcess) {
  EXPECT_EXIT(
      {
        install_interrupt_handlers();
        settle_interrupts();
        std::raise(SIGTERM);
        std::raise(SIGTERM);
        std::exit(0);
      },
      testing::KilledBySignal(SIGTERM), "");
}

TEST(InterruptDeathTest, AnInterruptBeforeSettlingIsKept) {
  EXPECT_EXIT(
      {
        install_interrupt_handlers();
        std::raise(SIGINT);
        settle_interrupts();
        std::exit(interrupt_signal());
      },
      testing::ExitedWithCode(SIGINT), "");
}

}  // namespace
}  // namespace movebench
