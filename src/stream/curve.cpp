#include "stream/curve.hpp"

#include <algorithm>

namespace movebench::stream {

std::optional<CurvePoint> smallest_chunk_keeping(std::span<const CurvePoint> curve, double fraction) {
  if (curve.empty()) return std::nullopt;
  double best = 0;
  for (const auto& p : curve) best = std::max(best, p.throughput);
  std::optional<CurvePoint> pick;
  for (const auto& p : curve) {
    if (p.throughput >= fraction * best && (!pick || p.chunk_bytes < pick->chunk_bytes)) pick = p;
  }
  return pick;
}

}  // namespace movebench::stream
