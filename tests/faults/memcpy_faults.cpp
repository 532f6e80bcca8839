/* Fault injection for link's and stream's validation tests (LD_PRELOAD): a
 * memcpy that spoils chosen copies of one size, as a faulty copy engine or
 * driver would. The host backend's transfers are memcpy calls on its worker
 * threads, so this reaches every copy `link` and `stream` time or check.
 *
 *   MOVEBENCH_FAULT_BYTES  only copies of exactly this many bytes are counted
 *                          (unset: the library does nothing)
 *   MOVEBENCH_FAULT_AT     the first counted copy to spoil, from 0 (default 0);
 *                          negative: none, only count
 *   MOVEBENCH_FAULT_EVERY  and then every Nth one after it (default 0: only that one)
 *   MOVEBENCH_FAULT_MODE   drop (default): nothing is copied;
 *                          flip: copied, with one byte in the middle changed;
 *                          slow: every copy of MOVEBENCH_FAULT_BYTES or more is
 *                          made MOVEBENCH_FAULT_REPEAT times (default 8), right
 *                          each time: a link that slows above a size, a step
 *                          at a known size for the steps' tests
 *                          (tests/integration/test_sweep_steps.py)
 *
 * At exit it prints "memcpy_faults: C copies of B bytes, S spoiled" on stderr,
 * so a test can learn how many copies a run makes and then spoil each in turn.
 * Copies pass through to memmove, built with -fno-builtin and without
 * `restrict` (either lets the compiler turn memmove, or a loop, back into a
 * call to memcpy: this very function). Not for sanitizer builds (their runtime must be
 * the first library loaded). */
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

struct Config {
  bool on = false;
  std::size_t bytes = 0;
  long at = 0, every = 0;
  bool flip = false;
  long repeat = 0;  // slow: the copies of `bytes` or more, made this many times
};

Config config;
std::atomic<long> counted{0}, spoiled{0};

long env_long(const char* name, long fallback) {
  const char* s = std::getenv(name);
  return s && *s ? std::strtol(s, nullptr, 10) : fallback;
}

__attribute__((constructor(101))) void configure() {
  const char* bytes = std::getenv("MOVEBENCH_FAULT_BYTES");
  if (!bytes || !*bytes) return;
  Config c;
  c.bytes = std::strtoull(bytes, nullptr, 10);
  c.at = env_long("MOVEBENCH_FAULT_AT", 0);
  c.every = env_long("MOVEBENCH_FAULT_EVERY", 0);
  const char* mode = std::getenv("MOVEBENCH_FAULT_MODE");
  c.flip = mode && std::strcmp(mode, "flip") == 0;
  if (mode && std::strcmp(mode, "slow") == 0) c.repeat = std::max(1L, env_long("MOVEBENCH_FAULT_REPEAT", 8));
  c.on = c.bytes > 0;
  config = c;
}

__attribute__((destructor)) void summary() {
  if (!config.on) return;
  if (config.repeat > 0) {
    std::fprintf(stderr, "memcpy_faults: %ld copies of %zu bytes or more, each made %ld times\n", counted.load(),
                 config.bytes, config.repeat);
    return;
  }
  std::fprintf(stderr, "memcpy_faults: %ld copies of %zu bytes, %ld spoiled\n", counted.load(), config.bytes,
               spoiled.load());
}

bool chosen(long k) {
  if (config.at < 0 || k < config.at) return false;
  if (k == config.at) return true;
  return config.every > 0 && (k - config.at) % config.every == 0;
}

void* copy(void* dst, const void* src, std::size_t n) {
  if (config.on && config.repeat > 0 && n >= config.bytes) {
    counted.fetch_add(1);
    for (long i = 1; i < config.repeat; ++i) std::memmove(dst, src, n);
    return std::memmove(dst, src, n);
  }
  if (!config.on || n != config.bytes) return std::memmove(dst, src, n);
  if (!chosen(counted.fetch_add(1))) return std::memmove(dst, src, n);
  spoiled.fetch_add(1);
  if (!config.flip) return dst;  // drop
  std::memmove(dst, src, n);
  static_cast<unsigned char*>(dst)[n / 2] ^= 0x40;
  return dst;
}

}  // namespace

extern "C" {
void* memcpy(void* dst, const void* src, std::size_t n) noexcept { return copy(dst, src, n); }
// What _FORTIFY_SOURCE builds call instead.
void* __memcpy_chk(void* dst, const void* src, std::size_t n, std::size_t /*dst_size*/) noexcept {
  return copy(dst, src, n);
}
}
