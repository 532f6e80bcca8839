// coll's validation: every checked call's data, untimed (coll_measure.hpp).
#include <algorithm>
#include <cstring>

#include "coll/coll_measure.hpp"

namespace movebench::net {

std::string check_calls(const CollCase& c, int passes, const CollBuffers& buffers, FailMode fail) {
  // No collective reads more than a block per rank from the send buffer.
  const std::size_t elements = std::min(buffers.send.size() / c.elem, static_cast<std::size_t>(c.count) * c.nranks);
  std::string error;
  for (int i = 0; i < passes; ++i) {
    const auto iteration = static_cast<std::uint64_t>(i) + 1;
    fill_send(c, elements, iteration);
    std::memset(c.recv, 0, buffers.recv.size());
    call_collective(c);
    MPI_Barrier(c.comm);
    if (fail == FailMode::kCorrupt && world_rank() == world_size() - 1) c.recv[0] ^= std::byte{1};
    // Every rank makes every call, whatever it found (else the others wait for ever).
    if (error.empty()) error = check_received(c, iteration);
  }
  return error;
}

}  // namespace movebench::net
