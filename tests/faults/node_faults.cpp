/* Fault injection for node's NUMA tests (LD_PRELOAD): a NUMA node whose
 * pages are not where the kernel was asked to put them, and a NUMA node
 * whose CPUs are slow. Each fault is off unless its variables are set.
 *
 * Misplaced pages. node asks the kernel where its pages are with move_pages
 * through glibc's syscall() (src/node/numa_placement.cpp). This syscall()
 * passes every call on to glibc's and then, in the answer to a move_pages
 * query (no target nodes given), reports one page on another node:
 *
 *   MOVEBENCH_FAULT_PAGE   which page of each query, from 0; past the end:
 *                          the last (unset: the fault is off)
 *   MOVEBENCH_FAULT_NODE   the node reported for it (default: one more than
 *                          the kernel's answer); negative: that -errno, as the
 *                          kernel reports a page it cannot place (-2, -ENOENT:
 *                          not present)
 *
 * At exit it prints "node_faults: Q move_pages queries, M pages misplaced"
 * on stderr.
 *
 * Slow CPUs. A thread that pins itself (sched_setaffinity,
 * pthread_setaffinity_np) to CPUs all among MOVEBENCH_SLOW_CPUS (a CPU list:
 * "1", "2-3,6") is moved into the cgroup MOVEBENCH_SLOW_CGROUP (a folder:
 * its tid written to the folder's cgroup.threads, a threaded cgroup2 one, or
 * else to cgroup v1's tasks; the test sets its CPU quota); a thread pinned
 * anywhere else, or unpinned, goes back to MOVEBENCH_FAST_CGROUP. So the CPU quota holds exactly the threads
 * that run on the slow CPUs, from the moment they are pinned there. At exit:
 * "node_faults: T pinnings to the slow CPUs, F failed moves".
 *
 * Not for sanitizer builds (their runtime must be the first library loaded). */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

using SyscallFn = long (*)(long, ...);
using SetAffinityFn = int (*)(pid_t, std::size_t, const cpu_set_t*);
using PthreadSetAffinityFn = int (*)(pthread_t, std::size_t, const cpu_set_t*);

struct Config {
  bool misplace = false;
  long page = 0;
  bool node_given = false;
  int node = 0;
  bool slow = false;
  cpu_set_t slow_cpus{};
  char slow_threads[4096] = {}, fast_threads[4096] = {};  // the cgroups' cgroup.threads
};

Config config;  // constant-initialized: set by configure() before any static constructor
std::atomic<long> queries{0}, misplaced{0}, slowed{0}, failed_moves{0};

template <class Fn>
Fn next(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

// "1", "0-2,5" into a set; false on anything else.
bool parse_cpus(const char* text, cpu_set_t& set) {
  CPU_ZERO(&set);
  const char* p = text;
  while (*p) {
    char* end = nullptr;
    const long lo = std::strtol(p, &end, 10);
    if (end == p || lo < 0) return false;
    long hi = lo;
    if (*end == '-') {
      p = end + 1;
      hi = std::strtol(p, &end, 10);
      if (end == p || hi < lo) return false;
    }
    for (long c = lo; c <= hi && c < CPU_SETSIZE; ++c) CPU_SET(static_cast<int>(c), &set);
    if (*end == ',')
      ++end;
    else if (*end != '\0')
      return false;
    p = end;
  }
  return CPU_COUNT(&set) > 0;
}

// Where a thread is moved into the cgroup `dir`: cgroup2's cgroup.threads, or v1's tasks.
void threads_file(const char* dir, char (&file)[4096]) {
  std::snprintf(file, sizeof file, "%s/cgroup.threads", dir);
  if (access(file, W_OK) != 0) std::snprintf(file, sizeof file, "%s/tasks", dir);
}

__attribute__((constructor(101))) void configure() {
  Config c;
  if (const char* page = std::getenv("MOVEBENCH_FAULT_PAGE"); page && *page) {
    c.misplace = true;
    c.page = std::strtol(page, nullptr, 10);
  }
  if (const char* node = std::getenv("MOVEBENCH_FAULT_NODE"); node && *node) {
    c.node_given = true;
    c.node = static_cast<int>(std::strtol(node, nullptr, 10));
  }
  const char* cpus = std::getenv("MOVEBENCH_SLOW_CPUS");
  const char* slow = std::getenv("MOVEBENCH_SLOW_CGROUP");
  const char* fast = std::getenv("MOVEBENCH_FAST_CGROUP");
  if (cpus && *cpus && slow && *slow && fast && *fast) {
    if (!parse_cpus(cpus, c.slow_cpus)) {
      std::fprintf(stderr, "node_faults: MOVEBENCH_SLOW_CPUS '%s' is not a CPU list\n", cpus);
      std::_Exit(2);
    }
    c.slow = true;
    threads_file(slow, c.slow_threads);
    threads_file(fast, c.fast_threads);
  }
  config = c;
}

__attribute__((destructor)) void summary() {
  if (config.misplace) {
    std::fprintf(stderr, "node_faults: %ld move_pages queries, %ld pages misplaced\n", queries.load(),
                 misplaced.load());
  }
  if (config.slow) {
    std::fprintf(stderr, "node_faults: %ld pinnings to the slow CPUs, %ld failed moves\n", slowed.load(),
                 failed_moves.load());
  }
}

// The answer to move_pages(pid, count, pages, nullptr, status, flags): one
// page reported elsewhere.
void misplace(long count, int* status) {
  if (count <= 0 || status == nullptr) return;
  queries.fetch_add(1);
  const long i = config.page < 0 ? 0 : (config.page < count ? config.page : count - 1);
  status[i] = config.node_given ? config.node : (status[i] >= 0 ? status[i] + 1 : 0);
  misplaced.fetch_add(1);
}

// Writes the thread into the cgroup its new affinity belongs to.
void follow(pid_t tid, std::size_t size, const cpu_set_t* set) {
  cpu_set_t outside;
  CPU_ZERO(&outside);
  const std::size_t n = size < sizeof(cpu_set_t) ? size : sizeof(cpu_set_t);
  std::memcpy(&outside, set, n);
  const bool pinned_slow = CPU_COUNT(&outside) > 0 && [&] {
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &outside) && !CPU_ISSET(c, &config.slow_cpus)) return false;
    }
    return true;
  }();
  const char* file = pinned_slow ? config.slow_threads : config.fast_threads;
  if (pinned_slow) slowed.fetch_add(1);
  std::FILE* f = std::fopen(file, "w");
  const bool ok = f != nullptr && std::fprintf(f, "%d\n", static_cast<int>(tid)) > 0;
  if (f == nullptr || std::fclose(f) != 0 || !ok) failed_moves.fetch_add(1);
}

}  // namespace

extern "C" {

long syscall(long number, ...) noexcept {
  static const SyscallFn real = next<SyscallFn>("syscall");
  // Six arguments, as glibc's own syscall() takes them: every Linux system
  // call has at most six, each in one integer register.
  long a[6];
  std::va_list ap;
  va_start(ap, number);
  for (long& x : a) x = va_arg(ap, long);
  va_end(ap);
  const long rc = real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
  if (config.misplace && number == SYS_move_pages && a[3] == 0 && rc == 0) {
    misplace(a[1], reinterpret_cast<int*>(a[4]));
  }
  return rc;
}

int sched_setaffinity(pid_t pid, std::size_t size, const cpu_set_t* set) noexcept {
  static const SetAffinityFn real = next<SetAffinityFn>("sched_setaffinity");
  const int rc = real(pid, size, set);
  if (rc == 0 && config.slow) follow(pid == 0 ? gettid() : pid, size, set);
  return rc;
}

int pthread_setaffinity_np(pthread_t thread, std::size_t size, const cpu_set_t* set) noexcept {
  static const PthreadSetAffinityFn real = next<PthreadSetAffinityFn>("pthread_setaffinity_np");
  const int rc = real(thread, size, set);
  // Only a thread pinning itself is followed (its tid is known here).
  if (rc == 0 && config.slow && pthread_equal(thread, pthread_self())) {
    follow(gettid(), size, set);
  }
  return rc;
}
}
