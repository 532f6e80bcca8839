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

constexpr std::array<LinkCase, 12> kCases{{
    {"copy.read", "copy engine, host to device", Routine::kBandwidth, Direction::kRead, Path::kCopy, kAnyKind,
     "link.copy.read.<kind>"},
    {"copy.write", "copy engine, device to host", Routine::kBandwidth, Direction::kWrite, Path::kCopy, kAnyKind,
     "link.copy.write.<kind>"},
    {"copy.duplex", "copy engine, both directions at once (records copy.duplex.read|write|total)", Routine::kBandwidth,
     Direction::kDuplex, Path::kCopy, kAnyKind, "link.copy.duplex.{read,write,total}.<kind>"},
    {"kernel.read", "device kernel reading host memory", Routine::kBandwidth, Direction::kRead, Path::kKernel, kAnyKind,
     "link.kernel.read.<kind>"},
    {"kernel.write", "device kernel writing host memory", Routine::kBandwidth, Direction::kWrite, Path::kKernel,
     kAnyKind, "link.kernel.write.<kind>"},
    {"kernel.duplex", "device kernels, both directions at once (records kernel.duplex.read|write|total)",
     Routine::kBandwidth, Direction::kDuplex, Path::kKernel, kAnyKind, "link.kernel.duplex.{read,write,total}.<kind>"},
    {"latency.first_word", "device load of one word of host memory (pointer chase, n = 1)", Routine::kChase,
     Direction::kRead, Path::kKernel, kReachedKind, "link.latency.first_word"},
    {"latency.chase", "device pointer chase through host memory, per dependent load", Routine::kChase, Direction::kRead,
     Path::kKernel, kReachedKind, "link.latency.chase"},
    {"latency.chase_per_unit",
     "the same chase from each SM (CUDA) or work-group slot (OpenCL) in turn, per dependent load: the median over "
     "them (the spread and every unit's figure in the record)",
     Routine::kUnitChase, Direction::kRead, Path::kKernel, kReachedKind, "link.latency.chase_per_unit"},
    {"latency.write_first_word", "device store of one word into host memory, until performed", Routine::kWrite,
     Direction::kWrite, Path::kKernel, kReachedKind, "link.latency.write_first_word"},
    {"latency.write_burst", "device write burst of --write-bytes into host memory", Routine::kWrite, Direction::kWrite,
     Path::kKernel, kReachedKind, "link.latency.write_burst"},
    {"roundtrip", "small copy to the device and back, host clock", Routine::kRoundtrip, Direction::kDuplex, Path::kCopy,
     kRoundtripKind, "link.roundtrip.<bytes>"},
}};

// A value of --directions or --paths: its name, what --help says of it and,
// for a direction, its label in hdl_single_engine's lines.
template <class E>
struct Choice {
  E value;
  std::string_view name, help, label = {};
};
constexpr std::array<Choice<Direction>, 3> kDirectionRows{
    {{Direction::kRead, "read", "host to device", "Read (Host->Device)"},
     {Direction::kWrite, "write", "device to host", "Write (Device->Host)"},
     {Direction::kDuplex, "duplex", "both at once", "Duplex"}}};
constexpr std::array<Choice<Path>, 2> kPathRows{
    {{Path::kCopy, "copy", "copy engine"}, {Path::kKernel, "kernel", "device kernel on host memory it reaches"}}};

template <class E, std::size_t N>
constexpr std::array<E, N> values_of(const std::array<Choice<E>, N>& rows) {
  std::array<E, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = rows[i].value;
  return out;
}
constexpr auto kDirections = values_of(kDirectionRows);
constexpr auto kPaths = values_of(kPathRows);

template <class E, std::size_t N>
const Choice<E>& row_of(const std::array<Choice<E>, N>& rows, E value) {
  for (const auto& r : rows) {
    if (r.value == value) return r;
  }
  throw std::logic_error("link: a direction or path without its row");
}

// "read, write or duplex" (last = " or ") or "read,write,duplex" (last = ",");
// with_help: "read (host to device), ...".
template <class E, std::size_t N>
std::string join(const std::array<Choice<E>, N>& rows, std::string_view sep, std::string_view last, bool with_help) {
  std::string out;
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0) out += i + 1 == N ? last : sep;
    out += with_help ? fmt::format("{} ({})", rows[i].name, rows[i].help) : std::string(rows[i].name);
  }
  return out;
}

template <class E, std::size_t N>
E parse_in(const std::array<Choice<E>, N>& rows, std::string_view s, const char* what) {
  for (const auto& r : rows) {
    if (s == r.name) return r.value;
  }
  throw UsageError(fmt::format("unknown {} '{}': {}", what, s, join(rows, ", ", " or ", false)));
}

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

const LinkCase& link_case(std::string_view name, Routine r) {
  for (const auto& c : kCases) {
    if (c.name == name && c.routine == r) return c;
  }
  throw std::logic_error(fmt::format("link: no case '{}' of that routine in the table", name));
}

std::string list_name(const LinkCase& c) { return fmt::format("link.{}", c.name); }

std::string direction_name(Direction d) { return std::string(row_of(kDirectionRows, d).name); }
std::string path_name(Path p) { return std::string(row_of(kPathRows, p).name); }
std::string direction_label(Direction d) { return std::string(row_of(kDirectionRows, d).label); }
std::span<const Direction> all_directions() { return kDirections; }
std::span<const Path> all_paths() { return kPaths; }
std::string direction_names() { return join(kDirectionRows, ",", ",", false); }
std::string path_names() { return join(kPathRows, ",", ",", false); }
std::string directions_help() { return join(kDirectionRows, ", ", ", ", true); }
std::string paths_help() { return join(kPathRows, ", ", ", ", true); }

Direction parse_direction(std::string_view s) { return parse_in(kDirectionRows, s, "direction"); }
Path parse_path(std::string_view s) { return parse_in(kPathRows, s, "path"); }

std::string case_names() {
  std::string out;
  for (const auto& c : kCases) out += fmt::format("{}{}", out.empty() ? "" : ", ", list_name(c));
  return out;
}

}  // namespace movebench::link
