// coll's communicators: mpiBench's -d and -p (coll_measure.hpp).
#include <fmt/format.h>

#include "coll/coll_measure.hpp"

namespace movebench::net {
namespace {

// mpiBench's -d: a Cartesian grid of ndims, one 1-D communicator per dimension.
void add_cartesian(std::vector<CommEntry>& comms, int ndims) {
  if (ndims == 0) return;
  std::vector<int> dims(static_cast<std::size_t>(ndims), 0), periods(dims.size(), 0);
  MPI_Dims_create(world_size(), ndims, dims.data());
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, ndims, dims.data(), periods.data(), 0, &grid);
  for (int d = 0; d < ndims; ++d) {
    std::vector<int> keep(dims.size(), 0);
    keep[static_cast<std::size_t>(d)] = 1;
    MPI_Comm sub;
    MPI_Cart_sub(grid, keep.data(), &sub);
    comms.push_back({sub, fmt::format("CartDim-{}of{}", d + 1, ndims)});
  }
  MPI_Comm_free(&grid);
}

// mpiBench's -p: halve MPI_COMM_WORLD until the parts reach the size.
void add_partitions(std::vector<CommEntry>& comms, int part_size) {
  if (part_size == 0) return;
  for (int size = world_size(); size >= part_size && size > 0; size /= 2) {
    MPI_Comm part;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank() / size, world_rank(), &part);
    comms.push_back({part, fmt::format("PartSize-{}", size)});
  }
}

}  // namespace

std::vector<CommEntry> make_comms(const CollOptions& o) {
  std::vector<CommEntry> comms{{MPI_COMM_WORLD, "MPI_COMM_WORLD"}};
  add_cartesian(comms, o.cartesian_dims);
  add_partitions(comms, o.partition_size);
  return comms;
}

void free_comms(std::vector<CommEntry>& comms) {
  for (auto& c : comms) {
    if (c.comm != MPI_COMM_WORLD) MPI_Comm_free(&c.comm);
  }
}

}  // namespace movebench::net
