// Every case `movebench link` can run, one row each (nvbandwidth's
// Testcase {key, desc, filter, run}): its name, what it measures, which
// direction, path and host memory, and which routine runs it. --list, the
// record operations, the result keys, --help's lists of directions and paths
// and docs/link.md (checked by tests) all come from this table.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace movebench::link {

enum class Direction { kRead, kWrite, kDuplex };  // read = host to device
enum class Path { kCopy, kKernel };

// The routine that measures a case: bandwidth cases are one combination of
// direction and path each (run_combo); one latency probe gives one or two
// cases (the chase: its first word and the chase per word); the chase from
// each unit of the device in turn is a routine of its own.
enum class Routine { kBandwidth, kChase, kUnitChase, kWrite, kRoundtrip };

struct LinkCase {
  std::string_view name;         // "copy.read": the record operation; "link." + name is its --list name
  std::string_view description;  // one line, for docs/link.md
  Routine routine;
  Direction direction;      // bandwidth cases only
  Path path;                // bandwidth cases only
  std::string_view memory;  // which host memory it runs on
  std::string_view result;  // its key in `results`, "<kind>" and "<bytes>" filled in
};

std::span<const LinkCase> link_cases();
// The bandwidth row of a direction and a path (every pair has one).
const LinkCase& bandwidth_case(Direction d, Path p);
// The rows a routine measures, in table order.
std::vector<const LinkCase*> cases_of(Routine r);
// The row named `name` ("latency.chase"), which routine `r` measures: how a
// routine binds each of its figures to its row. Throws std::logic_error when
// the table has no such row of that routine.
const LinkCase& link_case(std::string_view name, Routine r);
// "link.copy.read".
std::string list_name(const LinkCase& c);

// The names --directions and --paths take, in table order.
std::string direction_name(Direction d);
std::string path_name(Path p);
// hdl_single_engine's label of a direction: "Read (Host->Device)".
std::string direction_label(Direction d);
std::span<const Direction> all_directions();
std::span<const Path> all_paths();
// "read,write,duplex", "copy,kernel": every name, the options' defaults.
std::string direction_names();
std::string path_names();
// "read (host to device), write (device to host), ...": --help's lists.
std::string directions_help();
std::string paths_help();
// "link.copy.read, link.copy.write, ...": every row's --list name.
std::string case_names();
// Throw UsageError naming the accepted values.
Direction parse_direction(std::string_view s);
Path parse_path(std::string_view s);

}  // namespace movebench::link
