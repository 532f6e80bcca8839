#include "core/launcher.hpp"

#include <cstdlib>
#include <initializer_list>

namespace movebench {
namespace {

// The first of `names` that is set to a whole number >= 0, else -1.
int first_rank(std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (const char* v = std::getenv(name)) {
      char* end = nullptr;
      const long r = std::strtol(v, &end, 10);
      if (end != v && *end == '\0' && r >= 0) return static_cast<int>(r);
    }
  }
  return -1;
}

}  // namespace

// Most specific first: Open MPI, PMIx, PMI (MPICH, Intel MPI), MVAPICH, Slurm.
int launcher_rank() {
  return first_rank({"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "MV2_COMM_WORLD_RANK", "SLURM_PROCID"});
}

int launcher_local_rank() {
  return first_rank({"OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID", "PMI_LOCAL_RANK",
                     "MV2_COMM_WORLD_LOCAL_RANK"});
}

}  // namespace movebench
