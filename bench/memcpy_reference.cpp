// memcpy_reference: what a plain glibc memcpy does with the arrays of
// `movebench mem` copy, as a yardstick beside it (docs/performance.md).
//
// Two arrays of N doubles, aligned as movebench aligns them (64 bytes), first
// touched in parallel by the team that then copies them; each OpenMP thread
// memcpy()s its own contiguous slice (sliced as movebench slices: multiples
// of one cache line). One untimed warm-up call, then R timed calls; the rate
// counts 16 bytes per element (8 read, 8 written), as STREAM and movebench
// count copy, without write-allocate traffic.
//
//   memcpy_reference [-n ELEMENTS] [-t THREADS[,THREADS...]] [-r REPS]
//
// prints, per thread count, one line:
//   memcpy threads=T elements=N reps=R best_MBps=... median_MBps=... min_s=... median_s=... max_s=...
// Placement is left to OpenMP (OMP_PROC_BIND / OMP_PLACES).
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr, "memcpy_reference: %s\nusage: memcpy_reference [-n ELEMENTS] [-t T[,T...]] [-r REPS]\n", why);
  std::exit(2);
}

std::size_t parse_count(const char* text) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (!end || *end != '\0' || v == 0 || text[0] == '-') usage("counts are positive integers");
  return static_cast<std::size_t>(v);
}

// Thread t's slice of n elements: multiples of one 64-byte line, as movebench.
void slice(std::size_t n, int t, int threads, std::size_t& lo, std::size_t& hi) {
  constexpr std::size_t quantum = 64 / sizeof(double);
  const std::size_t per = (n / static_cast<std::size_t>(threads) + quantum - 1) / quantum * quantum;
  lo = std::min(n, per * static_cast<std::size_t>(t));
  hi = std::min(n, lo + per);
}

double* allocate(std::size_t n) {
  constexpr std::size_t align = 64;
  const std::size_t bytes = (n * sizeof(double) + align - 1) / align * align;
  auto* p = static_cast<double*>(std::aligned_alloc(align, bytes));
  if (!p) {
    std::fprintf(stderr, "memcpy_reference: cannot allocate %zu bytes\n", bytes);
    std::exit(1);
  }
  return p;
}

int run(std::size_t n, int threads, int reps) {
  double* a = allocate(n);
  double* c = allocate(n);
#pragma omp parallel num_threads(threads)
  {
    std::size_t lo, hi;
    slice(n, omp_get_thread_num(), threads, lo, hi);
    for (std::size_t i = lo; i < hi; ++i) {
      a[i] = 2.0 + static_cast<double>(i % 1024);
      c[i] = 0.5;
    }
  }
  std::vector<double> seconds;
  for (int r = -1; r < reps; ++r) {  // r = -1: warm-up, not timed
    double start = 0;
#pragma omp parallel num_threads(threads)
    {
      std::size_t lo, hi;
      slice(n, omp_get_thread_num(), threads, lo, hi);
#pragma omp barrier
#pragma omp master
      start = omp_get_wtime();
      if (hi > lo) std::memcpy(c + lo, a + lo, (hi - lo) * sizeof(double));
#pragma omp barrier
#pragma omp master
      if (r >= 0) seconds.push_back(omp_get_wtime() - start);
    }
  }
  std::size_t bad = n;
#pragma omp parallel for num_threads(threads) reduction(min : bad)
  for (std::size_t i = 0; i < n; ++i) {
    if (c[i] != 2.0 + static_cast<double>(i % 1024)) bad = std::min(bad, i);
  }
  std::free(a);
  std::free(c);
  if (bad < n) {
    std::fprintf(stderr, "memcpy_reference: c[%zu] differs from a[%zu] after the copy\n", bad, bad);
    return 1;
  }
  std::sort(seconds.begin(), seconds.end());
  const double bytes = 16.0 * static_cast<double>(n);
  const double median = seconds[seconds.size() / 2];
  std::printf(
      "memcpy threads=%d elements=%zu reps=%d best_MBps=%.2f median_MBps=%.2f min_s=%.6f median_s=%.6f max_s=%.6f\n",
      threads, n, reps, bytes / seconds.front() * 1e-6, bytes / median * 1e-6, seconds.front(), median, seconds.back());
  std::fflush(stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t n = 80'000'000;
  int reps = 10;
  std::vector<int> thread_counts;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::printf("usage: memcpy_reference [-n ELEMENTS] [-t T[,T...]] [-r REPS]\n");
      return 0;
    }
    if (i + 1 >= argc) usage(("missing value after " + arg).c_str());
    const char* value = argv[++i];
    if (arg == "-n") {
      n = parse_count(value);
    } else if (arg == "-r") {
      reps = static_cast<int>(parse_count(value));
    } else if (arg == "-t") {
      std::string list = value;
      std::size_t pos = 0;
      while (pos <= list.size()) {
        const std::size_t comma = std::min(list.find(',', pos), list.size());
        thread_counts.push_back(static_cast<int>(parse_count(list.substr(pos, comma - pos).c_str())));
        pos = comma + 1;
      }
    } else {
      usage(("unknown option " + arg).c_str());
    }
  }
  if (thread_counts.empty()) thread_counts.push_back(omp_get_max_threads());
  for (int t : thread_counts) {
    if (const int rc = run(n, t, reps)) return rc;
  }
  return 0;
}
