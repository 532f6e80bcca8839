// What an MPI launcher (mpirun, srun, hydra) told this process through its
// environment, read without starting MPI: mem, link and the front door need
// it too, and must not depend on MPI.
#pragma once

namespace movebench {

// The rank in the whole job, or -1 when no launcher started this process.
int launcher_rank();
// True when started by a launcher.
inline bool under_launcher() { return launcher_rank() >= 0; }
// The rank among the processes on this node (device = local rank mod
// devices), or -1 when unknown.
int launcher_local_rank();
// How many processes the launcher started, or -1 when unknown.
int launcher_size();

}  // namespace movebench
