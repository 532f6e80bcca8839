#include "core/interrupt.hpp"

#include <atomic>
#include <csignal>

namespace movebench {
namespace {
std::atomic<int> g_signal{0};
extern "C" void on_signal(int sig) { g_signal.store(sig, std::memory_order_relaxed); }
}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int interrupt_signal() { return g_signal.load(std::memory_order_relaxed); }

}  // namespace movebench
