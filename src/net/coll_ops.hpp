// One tiny piece per collective (nccl-tests style): how to call it, and
// which data each rank must then hold. The harness (coll_command.cpp) does
// the rest, the same way for all of them.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "net/coll_logic.hpp"

namespace movebench::net {

// One operation at one size on one communicator, with its buffers.
struct CollCase {
  Coll op = Coll::kBarrier;
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, nranks = 1, root = 0;
  std::uint64_t bytes = 0;  // mpiBench's "Bytes"
  int count = 0;            // elements per block
  MPI_Datatype type = MPI_BYTE;
  std::size_t elem = 1;     // bytes per element
  std::byte* send = nullptr;
  std::byte* recv = nullptr;
  // The v-variants' counts and displacements (mpiBench's pattern).
  int my_count = 0;
  std::vector<int> scounts, sdispls, rcounts, rdispls;
};

CollCase make_case(const CollInfo& info, MPI_Comm comm, std::uint64_t bytes, std::byte* send, std::byte* recv);
// One call of the collective: nothing else.
void call_collective(const CollCase& c);

// What lands in the receive buffer, in elements: `length` elements at
// `recv_offset` equal the sender's pattern from `source_offset` on; for a
// reduction (source kSumOfRanks) the sum of every rank's pattern.
constexpr int kSumOfRanks = -1;
struct Segment {
  std::size_t recv_offset;
  int source;
  std::size_t source_offset;
  std::size_t length;
};
std::vector<Segment> expected_segments(const CollCase& c);

// The send data of checked call `iteration` (net/message_pattern.hpp):
// bytes that differ per rank, operation, iteration and offset with no short
// period; doubles as small whole numbers so that any summation order gives
// the exact sum.
void fill_send(const CollCase& c, std::size_t elements, std::uint64_t iteration);
// Empty when every expected element of call `iteration` is right, else the
// first wrong one.
std::string check_received(const CollCase& c, std::uint64_t iteration);

}  // namespace movebench::net
