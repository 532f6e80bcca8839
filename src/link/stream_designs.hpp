// The streaming designs of `movebench stream` (oneAPI's simple-host-streaming
// and the low-latency ones it promises), written once against the device
// interface. Each runs one pass over `in` -> `out` (x * 3 + 1) and returns
// when the host saw each chunk's result.
#pragma once
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "link/device.hpp"

namespace movebench::link {

// offload, chunked, pipeline, persistent, and the backend's extra designs.
std::vector<std::string> available_designs(const Device& device);
// What a design needs beside in/out (queues, device copies, the on-device
// ring, flags), made before timing and reused by every pass.
// The queues are declared last: destroyed first, they are drained before
// the buffers their work uses are freed.
struct DesignState {
  std::unique_ptr<Buffer> dev_in, dev_out, ring, flags;
  std::unique_ptr<Queue> first, second;
};
DesignState prepare_design(Device& device, const std::string& design, const StreamJob& job);
ChunkTimes run_design(Device& device, const std::string& design, const StreamJob& job, DesignState& state);

// On the way out, whatever happened (a time-out, an error), sets the
// `count` release flags to 1 and then waits up to timeout_s for `done`
// (when given): no device-side wait on one of those flags is left pending
// on memory about to be freed.
class ReleaseAll {
 public:
  ReleaseAll(std::uint32_t* flags, std::size_t count, Event* done = nullptr, double timeout_s = 0)
      : flags_(flags), count_(count), done_(done), timeout_s_(timeout_s) {}
  ReleaseAll(const ReleaseAll&) = delete;
  ReleaseAll& operator=(const ReleaseAll&) = delete;
  ~ReleaseAll() {
    for (std::size_t i = 0; i < count_; ++i) {
      std::atomic_ref<std::uint32_t>(flags_[i]).store(1, std::memory_order_release);
    }
    if (!done_) return;
    try {
      done_->wait(timeout_s_);
    } catch (...) {  // already failing, or reported by the caller's own wait
    }
  }

 private:
  std::uint32_t* flags_;
  std::size_t count_;
  Event* done_;
  double timeout_s_;
};

// Keeps at most `inflight` chunks in flight: before submitting chunk c the
// host waits for chunk c - inflight and notes when it saw it (used by every
// design that completes chunks through events).
class ChunkWindow {
 public:
  ChunkWindow(const StreamJob& job, ChunkTimes& times);
  void before_submit(std::size_t c);
  void submitted(std::shared_ptr<Event> done) { pending_.push_back(std::move(done)); }
  void drain();

 private:
  void retire();
  const StreamJob& job_;
  ChunkTimes& times_;
  std::deque<std::shared_ptr<Event>> pending_;
  std::size_t retired_ = 0;
};

// One pass through a window: submit(c) queues chunk c and returns the
// event that completes it.
template <class Submit>
ChunkTimes windowed(const StreamJob& job, Submit&& submit) {
  ChunkTimes t;
  ChunkWindow window(job, t);
  for (std::size_t c = 0; c < job.chunks; ++c) {
    window.before_submit(c);
    window.submitted(submit(c));
  }
  window.drain();
  return t;
}

// simple-host-streaming's lower bound on the latency of any design that
// launches a kernel per chunk, t_launch + t_finish: an empty kernel queued and
// its completion seen by the host (host clock), `count` times after one
// warm-up. Seconds.
std::vector<double> empty_kernel_roundtrips(Device& device, Buffer& host, int count, double timeout_s);

// simple-host-streaming's definitions over one pass: latency = first chunk
// submitted to its result seen by the host; throughput = input bytes over the
// wall time from the first submission to the last result seen (bytes per
// second).
double pass_latency(const ChunkTimes& t);
double pass_throughput(const ChunkTimes& t, double input_bytes);

}  // namespace movebench::link
