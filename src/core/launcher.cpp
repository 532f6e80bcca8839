#include "core/launcher.hpp"

#include <cstdlib>
#include <initializer_list>

namespace movebench {
namespace {

// The first of `names` that is set to a whole number >= 0, else -1.
int first_number(std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (const char* v = std::getenv(name)) {
      char* end = nullptr;
      const long r = std::strtol(v, &end, 10);
      if (end != v && *end == '\0' && r >= 0) return static_cast<int>(r);
    }
  }
  return -1;
}

// Slurm's task variables describe this process only inside a job step
// (srun). A batch script has SLURM_PROCID=0 and SLURM_LOCALID=0 too, and
// so does everything it starts, mpirun's ranks included: read there, a
// plain `movebench run` would take itself for rank 0 of a job, and every
// rank of an mpirun job inside sbatch for local rank 0.
bool in_slurm_step() { return std::getenv("SLURM_STEP_ID") != nullptr || std::getenv("SLURM_STEPID") != nullptr; }

int slurm_number(const char* name) { return in_slurm_step() ? first_number({name}) : -1; }

int first_of(int a, int b) { return a >= 0 ? a : b; }

}  // namespace

// Most specific first: Open MPI, PMIx, PMI (MPICH's hydra, Intel MPI),
// MVAPICH, then Slurm's own (srun with any --mpi).
int launcher_rank() {
  return first_of(first_number({"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "MV2_COMM_WORLD_RANK"}),
                  slurm_number("SLURM_PROCID"));
}

// hydra's MPI_LOCALRANKID before SLURM_LOCALID: hydra inside an allocation
// starts its proxies with srun, one per node, so every rank it starts
// inherits its proxy's SLURM_LOCALID (0).
int launcher_local_rank() {
  return first_of(
      first_number({"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "PMI_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_RANK"}),
      slurm_number("SLURM_LOCALID"));
}

int launcher_size() {
  return first_of(first_number({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE"}),
                  first_of(slurm_number("SLURM_STEP_NUM_TASKS"), slurm_number("SLURM_NTASKS")));
}

}  // namespace movebench
