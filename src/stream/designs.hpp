// The streaming designs of `movebench stream` (oneAPI's simple-host-streaming
// and the low-latency ones it promises), written once against the device
// interface, as a table: a design is a row (name, title, whether a device
// has it, prepare, run). Each runs one pass over `in` -> `out` (x * 3 + 1)
// and returns when the host saw each chunk's result. A backend adds designs
// only it has from its own folder (src/backends/cuda/: graph, memops),
// through its row of the backend registry (device/registry.hpp: add_designs).
#pragma once
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "device/device.hpp"

namespace movebench::stream {

using device::Buffer;
using device::Device;
using device::Event;
using device::MemKind;
using device::Queue;

// One pass of a streaming design over mapped host memory: `chunks` chunks of
// `chunk_words` words from `in` to `out` (x * 3 + 1), at most `inflight`
// chunks in flight.
struct StreamJob {
  Buffer* in = nullptr;
  Buffer* out = nullptr;
  std::size_t chunk_words = 0;
  std::size_t chunks = 0;
  int inflight = 1;
  double timeout_s = 10;
};
// Host clock (now_seconds) when each chunk was submitted and when the host
// saw its result: simple-host-streaming's latency and throughput come from
// these.
struct ChunkTimes {
  std::vector<double> submitted, seen;
};

// What a design needs beside in/out (queues, device copies, the on-device
// ring, flags), made before timing and reused by every pass.
// The queues are declared last: destroyed first, they are drained before
// the buffers their work uses are freed.
struct DesignState {
  std::unique_ptr<Buffer> dev_in, dev_out, ring, flags;
  std::unique_ptr<Queue> first, second;
};

// A row of the table. `title` completes "Running ..." in the output.
struct Design {
  const char* name;
  const char* title;
  bool (*available)(Device& device);
  DesignState (*prepare)(Device& device, const StreamJob& job);
  ChunkTimes (*run)(Device& device, const StreamJob& job, DesignState& state);
  // The most chunks one pass of this design can have; 0: no limit of its
  // own. Checked by check_limits for every pass before any is measured.
  std::size_t max_chunks = 0;
};
// Every design this build has, in the order they run: offload, chunked,
// pipeline, persistent, then the backends' own.
const std::vector<Design>& designs();
// "offload, chunked, ...": their names, for help and error text.
std::string design_names();
// The designs `device` has, in table order.
std::vector<const Design*> available_designs(Device& device);
// offload moves one chunk whatever the size: no chunk-size curve (and no
// chunks in flight).
bool has_curve(std::string_view design);
inline bool has_curve(const Design& d) { return has_curve(d.name); }
// Throws UsageError (one line) for the first pass one of `designs` cannot
// run: each runs `chunks` chunks a pass, and each with a curve also every
// count of `sweep_chunks` (one per sweep size). Called once the designs are
// resolved, before anything is measured: a sweep is refused whole rather
// than failing halfway with the other designs' results printed.
void check_limits(const std::vector<const Design*>& designs, std::uint64_t chunks,
                  const std::vector<std::uint64_t>& sweep_chunks);

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

}  // namespace movebench::stream
