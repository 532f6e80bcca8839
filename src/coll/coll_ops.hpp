// The MPI side of a collective's row (coll_rows.hpp): its call bound to mpi.h,
// and the send data and checks on real buffers. The harness
// (coll_measure.hpp, run by coll_command.cpp) does the rest, the same way for all of them.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "coll/coll_logic.hpp"

namespace movebench::net {

// One operation at one size on one communicator, with its buffers.
struct CollCase : CollShape {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Datatype type = MPI_BYTE;
  std::byte* send = nullptr;
  std::byte* recv = nullptr;
};

CollCase make_case(const CollInfo& info, MPI_Comm comm, std::uint64_t bytes, std::byte* send, std::byte* recv);
// One call of the collective: nothing else.
void call_collective(const CollCase& c);

// The send data of checked call `iteration` (net/message_pattern.hpp):
// bytes that differ per rank, operation, iteration and offset with no short
// period; doubles as small whole numbers so that any summation order gives
// the exact sum.
void fill_send(const CollCase& c, std::size_t elements, std::uint64_t iteration);
// Empty when every expected element of call `iteration` (the row's
// `expected`) is right, else the first wrong one.
std::string check_received(const CollCase& c, std::uint64_t iteration);

}  // namespace movebench::net
