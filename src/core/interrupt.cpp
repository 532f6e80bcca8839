#include "core/interrupt.hpp"

#include <atomic>
#include <csignal>

namespace movebench {
namespace {
std::atomic<int> g_signal{0};
// Set by settle_interrupts(); from then on a signal lands in g_late, which
// nothing reads: the outcome of the run is no longer this process's alone.
std::atomic<bool> g_settled{false};
std::atomic<int> g_late{0};
// The first signal asks the run to stop at the next measurement boundary;
// a second one means "now": it gets the default action.
extern "C" void on_signal(int sig) {
  std::atomic<int>& slot = g_settled.load(std::memory_order_relaxed) ? g_late : g_signal;
  if (slot.exchange(sig, std::memory_order_relaxed) != 0) {
    std::signal(sig, SIG_DFL);
    std::raise(sig);
  }
}
}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

void note_interrupt(int sig) {
  int none = 0;
  g_signal.compare_exchange_strong(none, sig, std::memory_order_relaxed);
}

void settle_interrupts() { g_settled.store(true, std::memory_order_relaxed); }

int interrupt_signal() { return g_signal.load(std::memory_order_relaxed); }

}  // namespace movebench
