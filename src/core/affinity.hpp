// Where threads run: CPU lists, placement policies, pinning, and reports.
#pragma once
#include <sched.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace movebench {

// "0-3,8,10-11" -> {0,1,2,3,8,10,11}. Throws UsageError when malformed.
std::vector<int> parse_cpu_list(std::string_view text);
// The inverse, compressed into ranges.
std::string format_cpu_list(const std::vector<int>& cpus);

// The CPUs this process may run on (its affinity mask: taskset, likwid-pin,
// Slurm and mpirun all narrow it; under OMP_PROC_BIND, OpenMP's places).
std::vector<int> allowed_cpus();
// True when the user asked OpenMP to place threads (OMP_PROC_BIND,
// OMP_PLACES, GOMP_CPU_AFFINITY, KMP_AFFINITY).
bool openmp_binding_requested();

// How threads are placed on the allowed CPUs.
//   close:  one thread per core first, neighbouring cores first
//   spread: one thread per core first, cores spaced evenly
//   none:   no pinning (leave it to the OS or OMP_PROC_BIND)
//   list:   an explicit CPU list, thread i on list[i % size]
// "auto" is close, or none when the user asked OpenMP to place threads.
struct Placement {
  enum class Kind { kClose, kSpread, kNone, kList } kind = Kind::kClose;
  std::vector<int> cpus;  // kList only

  static Placement parse(std::string_view text);  // auto|close|spread|none|<cpu list>
  std::string describe() const;
};

// The CPU for each of `threads` threads; empty for Kind::kNone.
// `cores` lists the allowed CPUs grouped by core (see core_ordered_cpus).
std::vector<int> place_threads(int threads, const Placement& placement, const std::vector<std::vector<int>>& cores);

// The allowed CPUs grouped by physical core, in topology order (hwloc).
std::vector<std::vector<int>> core_ordered_cpus();

// Gives the calling thread back the mask it had when this was made: a
// benchmark that pinned the main thread leaves it as it found it.
class ScopedAffinity {
 public:
  ScopedAffinity();
  ~ScopedAffinity();
  ScopedAffinity(const ScopedAffinity&) = delete;
  ScopedAffinity& operator=(const ScopedAffinity&) = delete;

 private:
  std::unique_ptr<cpu_set_t> saved_;
  bool ok_ = false;
};

// Pins the calling thread to one CPU. Returns false if the OS refused.
bool pin_current_thread(int cpu);
// The CPU the calling thread is on now, and its affinity mask as a list.
int current_cpu();
std::string current_affinity_list();

}  // namespace movebench
