// Rank detection from what each launcher puts in the environment (the
// variables seen under mpirun.openmpi, mpiexec.mpich, srun --mpi=pmix|pmi2
// and an sbatch script on Debian 12, Slurm 22.05).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <initializer_list>
#include <string>
#include <utility>

#include "core/launcher.hpp"

namespace {

const char* const kAll[] = {"OMPI_COMM_WORLD_RANK",
                            "OMPI_COMM_WORLD_LOCAL_RANK",
                            "OMPI_COMM_WORLD_SIZE",
                            "PMIX_RANK",
                            "PMI_RANK",
                            "PMI_SIZE",
                            "PMI_LOCAL_RANK",
                            "MPI_LOCALRANKID",
                            "MV2_COMM_WORLD_RANK",
                            "MV2_COMM_WORLD_LOCAL_RANK",
                            "MV2_COMM_WORLD_SIZE",
                            "SLURM_PROCID",
                            "SLURM_LOCALID",
                            "SLURM_NTASKS",
                            "SLURM_STEP_NUM_TASKS",
                            "SLURM_STEP_ID",
                            "SLURM_STEPID"};

// Sets exactly `vars` for one test, restores nothing (each test sets its own).
void environment(std::initializer_list<std::pair<const char*, const char*>> vars) {
  for (const char* name : kAll) unsetenv(name);
  for (const auto& [name, value] : vars) setenv(name, value, 1);
}

TEST(Launcher, NoneOutsideALauncher) {
  environment({});
  EXPECT_EQ(movebench::launcher_rank(), -1);
  EXPECT_EQ(movebench::launcher_local_rank(), -1);
  EXPECT_EQ(movebench::launcher_size(), -1);
  EXPECT_FALSE(movebench::under_launcher());
}

TEST(Launcher, OpenMpiMpirun) {
  environment({{"OMPI_COMM_WORLD_RANK", "3"},
               {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
               {"OMPI_COMM_WORLD_SIZE", "4"},
               {"PMIX_RANK", "3"}});
  EXPECT_EQ(movebench::launcher_rank(), 3);
  EXPECT_EQ(movebench::launcher_local_rank(), 1);
  EXPECT_EQ(movebench::launcher_size(), 4);
}

TEST(Launcher, MpichHydra) {
  environment({{"PMI_RANK", "1"}, {"PMI_SIZE", "2"}, {"MPI_LOCALRANKID", "1"}});
  EXPECT_EQ(movebench::launcher_rank(), 1);
  EXPECT_EQ(movebench::launcher_local_rank(), 1);
  EXPECT_EQ(movebench::launcher_size(), 2);
}

TEST(Launcher, SrunPmix) {
  environment({{"PMIX_RANK", "1"},
               {"SLURM_PROCID", "1"},
               {"SLURM_LOCALID", "1"},
               {"SLURM_STEP_ID", "0"},
               {"SLURM_STEP_NUM_TASKS", "2"},
               {"SLURM_NTASKS", "2"}});
  EXPECT_EQ(movebench::launcher_rank(), 1);
  EXPECT_EQ(movebench::launcher_local_rank(), 1);
  EXPECT_EQ(movebench::launcher_size(), 2);
}

TEST(Launcher, SrunPmi2) {
  environment({{"PMI_RANK", "1"},
               {"PMI_SIZE", "2"},
               {"SLURM_PROCID", "1"},
               {"SLURM_LOCALID", "1"},
               {"SLURM_STEP_ID", "0"},
               {"SLURM_STEP_NUM_TASKS", "2"}});
  EXPECT_EQ(movebench::launcher_rank(), 1);
  EXPECT_EQ(movebench::launcher_local_rank(), 1);
  EXPECT_EQ(movebench::launcher_size(), 2);
}

// A batch script (no srun) has SLURM_PROCID=0 but no step: not a launcher,
// so `movebench run` there starts its own local MPI job.
TEST(Launcher, SbatchScriptIsNoLauncher) {
  environment({{"SLURM_PROCID", "0"}, {"SLURM_LOCALID", "0"}, {"SLURM_NTASKS", "2"}});
  EXPECT_EQ(movebench::launcher_rank(), -1);
  EXPECT_EQ(movebench::launcher_local_rank(), -1);
  EXPECT_EQ(movebench::launcher_size(), -1);
}

// hydra inside an allocation: every rank inherits its proxy's SLURM_LOCALID=0.
TEST(Launcher, HydraInsideAnAllocationUsesItsOwnLocalRank) {
  environment({{"PMI_RANK", "1"},
               {"MPI_LOCALRANKID", "1"},
               {"SLURM_PROCID", "0"},
               {"SLURM_LOCALID", "0"},
               {"SLURM_STEP_ID", "0"}});
  EXPECT_EQ(movebench::launcher_rank(), 1);
  EXPECT_EQ(movebench::launcher_local_rank(), 1);
}

}  // namespace
