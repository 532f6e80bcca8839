#include "link/link_cases.hpp"

#include <fmt/format.h>

#include <array>
#include <stdexcept>

#include "core/errors.hpp"

namespace movebench::link {
namespace {

constexpr auto kAnyKind = "each host memory kind asked for (--host-memory)";
constexpr auto kReachedKind = "the first kind asked for that device kernels reach";
constexpr auto kRoundtripKind = "pinned when asked for, else the first kind asked for";

constexpr std::array<LinkCase, 11> kCases{{
    {"copy.read", "copy engine, host to device", Routine::kBandwidth, Direction::kRead, Path::kCopy, kAnyKind,
     "link.copy.read.<kind>"},
    {"copy.write", "copy engine, device to host", Routine::kBandwidth, Direction::kWrite, Path::kCopy, kAnyKind,
     "link.copy.write.<kind>"},
    {"copy.duplex", "copy engine, both directions at once (records copy.duplex.read|write|total)",
     Routine::kBandwidth, Direction::kDuplex, Path::kCopy, kAnyKind, "link.copy.duplex.{read,write,total}.<kind>"},
    {"kernel.read", "device kernel reading host memory", Routine::kBandwidth, Direction::kRead, Path::kKernel,
     kAnyKind, "link.kernel.read.<kind>"},
    {"kernel.write", "device kernel writing host memory", Routine::kBandwidth, Direction::kWrite, Path::kKernel,
     kAnyKind, "link.kernel.write.<kind>"},
    {"kernel.duplex", "device kernels, both directions at once (records kernel.duplex.read|write|total)",
     Routine::kBandwidth, Direction::kDuplex, Path::kKernel, kAnyKind,
     "link.kernel.duplex.{read,write,total}.<kind>"},
    {"latency.first_word", "device load of one word of host memory (pointer chase, n = 1)", Routine::kChase,
     Direction::kRead, Path::kKernel, kReachedKind, "link.latency.first_word"},
    {"latency.chase", "device pointer chase through host memory, per dependent load", Routine::kChase,
     Direction::kRead, Path::kKernel, kReachedKind, "link.latency.chase"},
    {"latency.write_first_word", "device store of one word into host memory, until performed", Routine::kWrite,
     Direction::kWrite, Path::kKernel, kReachedKind, "link.latency.write_first_word"},
    {"latency.write_burst", "device write burst of --write-bytes into host memory", Routine::kWrite,
     Direction::kWrite, Path::kKernel, kReachedKind, "link.latency.write_burst"},
    {"roundtrip", "small copy to the device and back, host clock", Routine::kRoundtrip, Direction::kDuplex,
     Path::kCopy, kRoundtripKind, "link.roundtrip.<bytes>"},
}};

constexpr std::array<Direction, 3> kDirections{Direction::kRead, Direction::kWrite, Direction::kDuplex};
constexpr std::array<Path, 2> kPaths{Path::kCopy, Path::kKernel};

}  // namespace

std::span<const LinkCase> link_cases() { return kCases; }

const LinkCase& bandwidth_case(Direction d, Path p) {
  for (const auto& c : kCases) {
    if (c.routine == Routine::kBandwidth && c.direction == d && c.path == p) return c;
  }
  throw std::logic_error("link: no bandwidth case for a direction and path");
}

std::vector<const LinkCase*> cases_of(Routine r) {
  std::vector<const LinkCase*> out;
  for (const auto& c : kCases) {
    if (c.routine == r) out.push_back(&c);
  }
  return out;
}

std::string list_name(const LinkCase& c) { return fmt::format("link.{}", c.name); }

std::string direction_name(Direction d) {
  return d == Direction::kRead ? "read" : d == Direction::kWrite ? "write" : "duplex";
}
std::string path_name(Path p) { return p == Path::kCopy ? "copy" : "kernel"; }
std::span<const Direction> all_directions() { return kDirections; }
std::span<const Path> all_paths() { return kPaths; }

Direction parse_direction(std::string_view s) {
  for (auto d : kDirections) {
    if (s == direction_name(d)) return d;
  }
  throw UsageError(fmt::format("unknown direction '{}': read, write or duplex", s));
}

Path parse_path(std::string_view s) {
  for (auto p : kPaths) {
    if (s == path_name(p)) return p;
  }
  throw UsageError(fmt::format("unknown path '{}': copy or kernel", s));
}

}  // namespace movebench::link
