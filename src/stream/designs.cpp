#include "stream/designs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>

#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/interrupt.hpp"
#include "device/persistent.hpp"
#include "device/registry.hpp"
#include "device/wait.hpp"

namespace movebench::stream {
namespace {

using device::wait_until;

// Offload: all data in, one kernel, all data out; the host waits for the end.
//   host:   submit ------------------------------------------- seen
//   queue:    [copy in: all] [kernel: all] [copy out: all]
ChunkTimes offload(Device&, const StreamJob& job, DesignState& s) {
  const std::size_t words = job.chunk_words * job.chunks;
  ChunkTimes t;
  t.submitted.push_back(now_seconds());
  s.first->copy(*s.dev_in, 0, *job.in, 0, words * 4);
  s.first->transform(*s.dev_out, 0, *s.dev_in, 0, words, 3, 1);
  s.first->copy(*job.out, 0, *s.dev_out, 0, words * 4);
  s.first->finish(job.timeout_s);
  t.seen.push_back(now_seconds());
  return t;
}

// Chunked single kernel (simple-host-streaming's zero-copy design): one kernel
// per chunk reads mapped host input and writes mapped host output; the
// in-order queue starts kernel c+1 as soon as kernel c ends (up to `inflight`
// queued).
//   host:   s0 s1 s2 .. (wait c0) seen0 s3 (wait c1) seen1 ...
//   queue:    [K0][K1][K2][K3] ...
ChunkTimes chunked(Device&, const StreamJob& job, DesignState& s) {
  return windowed(job, [&](std::size_t c) {
    const std::size_t at = c * job.chunk_words;
    s.first->transform(*job.out, at, *job.in, at, job.chunk_words, 3, 1);
    return s.first->mark();
  });
}

// Multi-kernel pipeline: per chunk a producer (host input -> a slot of the
// on-device ring, x * 3) on one queue and a consumer (slot -> host output,
// + 1) on another, the consumer waiting on the producer's event on the
// device. The ring has `inflight` slots; the window keeps a slot from
// being reused before its consumer ended.
//   producer queue:  [P0][P1][P2] ...
//   consumer queue:      [C0][C1][C2] ...
ChunkTimes pipeline(Device&, const StreamJob& job, DesignState& s) {
  return windowed(job, [&](std::size_t c) {
    const std::size_t at = c * job.chunk_words;
    const std::size_t slot = (c % static_cast<std::size_t>(job.inflight)) * job.chunk_words;
    s.first->transform(*s.ring, slot, *job.in, at, job.chunk_words, 3, 0);
    auto produced = s.first->mark();
    s.second->after(produced);
    s.second->transform(*job.out, at, *s.ring, slot, job.chunk_words, 1, 1);
    return s.second->mark();
  });
}

// Persistent kernel: launched once before the pass; chunk c is released by
// the host writing flags[c] = 1 in mapped memory, and finished when every
// worker group wrote its done flag. No launch is on the chunk's path.
//   host:    launch .. | set f0 set f1 (poll d0) seen0 set f2 ...
//   device:  [spin f0][chunk 0][d0][spin f1][chunk 1][d1] ...
ChunkTimes persistent(Device& device, const StreamJob& job, DesignState& s) {
  auto& kernels = *device::capability<device::PersistentKernel>(device);
  auto* flags = s.flags->as<std::uint32_t>();
  std::memset(flags, 0, s.flags->bytes());
  const int groups = kernels.persistent_groups(job.chunk_words);
  device::PersistentJob p{job.in, job.out, s.flags.get(), job.chunk_words, job.chunks, job.timeout_s};
  auto kernel = kernels.launch_persistent(p);
  // The kernel reads the flags and buffers until it ends: released and
  // waited for on every way out, it has ended before they are freed.
  ReleaseAll release(flags, job.chunks, kernel.get(), job.timeout_s);
  // Launched ahead of the data: the pass starts once every group runs.
  auto running = [&] {
    for (int g = 0; g < groups; ++g) {
      const std::size_t at = job.chunks * (1 + static_cast<std::size_t>(groups)) + static_cast<std::size_t>(g);
      if (std::atomic_ref<std::uint32_t>(flags[at]).load(std::memory_order_acquire) == 0) return false;
    }
    return true;
  };
  if (!wait_until(running, job.timeout_s)) throw std::runtime_error("persistent kernel did not start in time");
  auto done = [&](std::size_t c) {
    for (int g = 0; g < groups; ++g) {
      if (std::atomic_ref<std::uint32_t>(flags[job.chunks + c * groups + g]).load(std::memory_order_acquire) == 0) {
        return false;
      }
    }
    return true;
  };
  ChunkTimes t;
  t.seen.assign(job.chunks, 0);
  std::size_t retired = 0;
  auto retire = [&] {
    if (!wait_until([&] { return done(retired); }, job.timeout_s)) {
      throw std::runtime_error("persistent kernel did not answer in time");
    }
    t.seen[retired++] = now_seconds();
  };
  for (std::size_t c = 0; c < job.chunks; ++c) {
    if (c >= static_cast<std::size_t>(job.inflight)) retire();
    t.submitted.push_back(now_seconds());
    std::atomic_ref<std::uint32_t>(flags[c]).store(1, std::memory_order_release);
  }
  while (retired < job.chunks) retire();
  kernel->wait(job.timeout_s);
  return t;
}

bool every_device(Device&) { return true; }

bool has_persistent(Device& device) {
  auto* kernels = device::capability<device::PersistentKernel>(device);
  return kernels && kernels->has_persistent();
}

DesignState prepare_one_queue(Device& device, const StreamJob&) {
  DesignState s;
  s.first = device.queue();
  return s;
}

DesignState prepare_offload(Device& device, const StreamJob& job) {
  DesignState s = prepare_one_queue(device, job);
  const std::size_t bytes = job.chunk_words * job.chunks * 4;
  s.dev_in = device.alloc(MemKind::kDevice, bytes);
  s.dev_out = device.alloc(MemKind::kDevice, bytes);
  return s;
}

DesignState prepare_pipeline(Device& device, const StreamJob& job) {
  DesignState s = prepare_one_queue(device, job);
  s.ring = device.alloc(MemKind::kDevice, job.chunk_words * 4 * static_cast<std::size_t>(job.inflight));
  s.second = device.queue();
  return s;
}

DesignState prepare_persistent(Device& device, const StreamJob& job) {
  DesignState s;
  const auto groups = static_cast<std::size_t>(
      device::capability<device::PersistentKernel>(device)->persistent_groups(job.chunk_words));
  const std::size_t words = job.chunks * (1 + groups) + groups;
  s.flags = device.alloc(job.in->kind(), words * 4);  // mapped wherever the kernel reads its input
  return s;
}

}  // namespace

ChunkWindow::ChunkWindow(const StreamJob& job, ChunkTimes& times) : job_(job), times_(times) {
  times_.seen.assign(job.chunks, 0);
}

void ChunkWindow::before_submit(std::size_t c) {
  if (c >= static_cast<std::size_t>(job_.inflight)) retire();
  times_.submitted.push_back(now_seconds());
}

void ChunkWindow::drain() {
  while (!pending_.empty()) retire();
}

void ChunkWindow::retire() {
  pending_.front()->wait(job_.timeout_s);
  times_.seen[retired_++] = now_seconds();
  pending_.pop_front();
}

std::vector<const Design*> available_designs(Device& device) {
  std::vector<const Design*> out;
  for (const auto& d : designs()) {
    if (d.available(device)) out.push_back(&d);
  }
  return out;
}

bool has_curve(std::string_view design) { return design != "offload"; }

void check_limits(const std::vector<const Design*>& designs, std::uint64_t chunks,
                  const std::vector<std::uint64_t>& sweep_chunks) {
  for (const Design* d : designs) {
    if (d->max_chunks == 0) continue;
    std::uint64_t most = chunks;
    if (has_curve(*d)) {
      for (auto n : sweep_chunks) most = std::max(most, n);
    }
    if (most > d->max_chunks) {
      throw UsageError(
          fmt::format("the {} design runs at most {} chunks a pass, this run asks for {} (fewer "
                      "--chunks, larger --sizes-bytes, or --designs without {})",
                      d->name, d->max_chunks, most, d->name));
    }
  }
}

const std::vector<Design>& designs() {
  static const std::vector<Design> table = [] {
    std::vector<Design> t{
        {"offload", "the basic offload kernel", every_device, prepare_offload, offload},
        {"chunked", "the latency optimized single-kernel design", every_device, prepare_one_queue, chunked},
        {"pipeline", "the latency optimized multi-kernel design", every_device, prepare_pipeline, pipeline},
        {"persistent", "the persistent kernel fed through mapped-memory flags", has_persistent, prepare_persistent,
         persistent},
    };
    for (const auto& b : device::backends()) {
      if (b.add_designs) b.add_designs(t);
    }
    return t;
  }();
  return table;
}

std::string design_names() {
  std::string out;
  for (const auto& d : designs()) out += fmt::format("{}{}", out.empty() ? "" : ", ", d.name);
  return out;
}

std::vector<double> empty_kernel_roundtrips(Device& device, Buffer& host, int count, double timeout_s) {
  auto q = device.queue();
  std::vector<double> seconds;
  for (int i = -1; i < count && !interrupted(); ++i) {
    const double t0 = now_seconds();
    q->transform(host, 0, host, 0, 0, 1, 0);
    q->mark()->wait(timeout_s);
    if (i >= 0) seconds.push_back(now_seconds() - t0);
  }
  return seconds;
}

double pass_latency(const ChunkTimes& t) { return t.seen.front() - t.submitted.front(); }

double pass_throughput(const ChunkTimes& t, double input_bytes) {
  const double wall = t.seen.back() - t.submitted.front();
  return wall > 0 ? input_bytes / wall : 0;
}

}  // namespace movebench::stream
