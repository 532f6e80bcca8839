// The MPI side of one step of `movebench coll` (one operation, one size, one
// communicator): mpiBench's timing (coll_measure.cpp), the check of what
// arrived (coll_check.cpp), the communicators of -d and -p (coll_comms.cpp)
// and the step's record (coll_record.cpp). coll_command.cpp runs the steps.
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

#include "coll/coll_ops.hpp"
#include "coll/coll_options.hpp"
#include "coll/coll_output.hpp"
#include "core/buffer.hpp"
#include "core/report.hpp"
#include "net/mpi_env.hpp"

namespace movebench::net {

// The send and receive buffers every step uses, sized for the largest.
struct CollBuffers {
  HostBuffer send, recv;
};

// What one rank measured for one step.
struct StepTiming {
  double seconds_per_call = 0;
  int iters = 0;
  std::vector<double> per_iteration;  // --percentiles: every timed iteration's seconds
  std::string check_error;            // empty: fine or not checked
};

// mpiBench's get_time: prime, estimate, fit the iterations, time; then the
// checks (check_calls), outside the timed loop.
StepTiming measure_step(const CollCase& c, const CollOptions& o, const CollBuffers& buffers, FailMode fail);

// Untimed: `passes` calls, each with send data of its own (rank, operation,
// iteration) into a cleared buffer, and then checked. Empty when all are
// right, else the first wrong element.
std::string check_calls(const CollCase& c, int passes, const CollBuffers& buffers, FailMode fail);

struct CommEntry {
  MPI_Comm comm;
  std::string name;  // mpiBench's: MPI_COMM_WORLD, CartDim-1of2, PartSize-4
};
// MPI_COMM_WORLD, then -d's Cartesian communicators and -p's partitions.
std::vector<CommEntry> make_comms(const CollOptions& o);
void free_comms(std::vector<CommEntry>& comms);

// The step's record (all ranks' times, gathered to rank 0) and its row of
// the text, written by rank 0.
void record_coll_step(Report& report, CollWriter& out, const CollOptions& o, const CommEntry& comm, const CollInfo& op,
                      const CollCase& c, const StepTiming& t);
// `settings.coll`: what was asked for, and the end size -m leaves.
void record_coll_settings(Report& report, const CollOptions& o, std::uint64_t end_bytes_fit, double step_timeout_s);

}  // namespace movebench::net
