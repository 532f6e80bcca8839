#include "backends/host/worker.hpp"

#include <chrono>

#include "core/affinity.hpp"
#include "core/clock.hpp"

namespace movebench::device::host {

namespace {
constexpr double kSpinSeconds = 50e-6;  // spin this long before sleeping
}

Worker::Worker(int cpu) : cpu_(cpu) {
  thread_ = std::thread([this] {
    if (cpu_ >= 0) pin_current_thread(cpu_);
    loop();
  });
}

Worker::~Worker() {
  stop_.store(true);
  {
    std::lock_guard lock(mutex_);
    wake_.notify_all();
  }
  thread_.join();
}

void Worker::push(std::function<void()> command) {
  {
    std::lock_guard lock(mutex_);
    commands_.push_back(std::move(command));
    pending_.fetch_add(1, std::memory_order_release);
  }
  if (sleeping_.load(std::memory_order_acquire)) wake_.notify_one();
}

bool Worker::pop(std::function<void()>& command) {
  if (pending_.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard lock(mutex_);
  command = std::move(commands_.front());
  commands_.pop_front();
  pending_.fetch_sub(1, std::memory_order_relaxed);
  return true;
}

void Worker::loop() {
  std::function<void()> command;
  while (true) {
    if (pop(command)) {
      command();
      command = nullptr;
      continue;
    }
    if (stop_.load()) return;
    const double idle_since = now_seconds();
    while (pending_.load(std::memory_order_acquire) == 0 && !stop_.load() &&
           now_seconds() - idle_since < kSpinSeconds) {
    }
    if (pending_.load(std::memory_order_acquire) != 0 || stop_.load()) continue;
    std::unique_lock lock(mutex_);
    sleeping_.store(true, std::memory_order_release);
    wake_.wait_for(lock, std::chrono::milliseconds(1), [this] { return pending_.load() != 0 || stop_.load(); });
    sleeping_.store(false, std::memory_order_release);
  }
}

}  // namespace movebench::device::host
