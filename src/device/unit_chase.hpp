// The chase placed on one unit of the device (a CUDA SM, an OpenCL
// work-group slot), as nvbandwidth's host_device_latency_sm chases from each
// block in turn: an optional interface of a backend's device, found with
// capability<UnitChase>(device). link's latency.chase_per_unit runs the same
// chase as Probe::kChase from every unit and reports the spread over them.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "device/device.hpp"

namespace movebench::device {

// What a unit is on this backend and how a chase is put on one, in words
// for the record and the text: what the backend guarantees and what not.
struct UnitPlacement {
  std::string unit;  // "sm", "work-group"
  std::string how;   // how a chase is placed on a unit, and what that promises
  int reported = 0;  // units the device reports (SMs, compute units)
};

class UnitChase {
 public:
  virtual ~UnitChase() = default;
  virtual UnitPlacement unit_placement() const = 0;
  // The units a chase can be placed on, in order (CUDA: the %smid values a
  // census launch found; OpenCL: work-group indices 0 .. compute units - 1).
  virtual std::vector<std::uint32_t> chase_units() = 0;
  // probe(Probe::kChase, ring, n, 0) run from `unit`: the same chase on the
  // same clock. std::nullopt when the launch put no work on that unit (CUDA:
  // no block was scheduled on that SM), so nothing was measured.
  virtual std::optional<Timed> chase_on(std::uint32_t unit, Buffer& ring, std::size_t n) = 0;
};

}  // namespace movebench::device
