// stream's chunk-size curve and its 90%-chunk rule, kept apart from devices
// so unit tests can check it.
#pragma once
#include <cstdint>
#include <optional>
#include <span>

namespace movebench::stream {

// One point of a chunk-size curve.
struct CurvePoint {
  std::uint64_t chunk_bytes = 0;
  double latency_s = 0;
  double throughput = 0;  // bytes per second
};
// The smallest chunk whose throughput is at least `fraction` of the best
// throughput on the curve; nullopt on an empty curve.
std::optional<CurvePoint> smallest_chunk_keeping(std::span<const CurvePoint> curve, double fraction);

}  // namespace movebench::stream
