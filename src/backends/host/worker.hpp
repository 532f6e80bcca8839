// A worker thread pinned to one CPU that runs commands in order: the
// "device" of the host backend. Hand-off is a spin on a shared atomic for
// the first microseconds (so core-to-core latency is what is measured), then
// a condition variable (so an idle worker does not burn a shared core).
#pragma once
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace movebench::device::host {

class Worker {
 public:
  explicit Worker(int cpu);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;
  void push(std::function<void()> command);
  int cpu() const { return cpu_; }

 private:
  void loop();
  bool pop(std::function<void()>& command);

  int cpu_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> commands_;
  std::atomic<int> pending_{0};
  std::atomic<bool> sleeping_{false};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace movebench::device::host
