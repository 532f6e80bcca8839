#include "coll/coll_output.hpp"

#include <fmt/format.h>

#include "coll/coll_logic.hpp"
#include "core/output.hpp"

namespace movebench::net {

std::string mpibench_start(const std::vector<std::string>& hosts) {
  std::string text = "START mpiBench v1.5\n";
  for (std::size_t r = 0; r < hosts.size(); ++r) text += fmt::format("{} : {}\n", r, hosts[r]);
  return text;
}

std::string mpibench_step(const CollStep& s) {
  const Summary& t = s.seconds;
  return mpibench_line(s.operation, s.bytes, s.iterations, t.mean * 1e6, t.min * 1e6, t.max * 1e6, s.comm, s.ranks) +
         "\n";
}

std::string mpibench_end(std::uint64_t buffer_bytes) {
  return fmt::format("Message buffers (KB):\t{}\nEND mpiBench\n", buffer_bytes / 1024);
}

void CollWriter::start(const std::vector<std::string>& hosts) { send_now(out_, mpibench_start(hosts)); }
void CollWriter::step(const CollStep& s) { send_now(out_, mpibench_step(s)); }
void CollWriter::end(std::uint64_t buffer_bytes) { send_now(out_, mpibench_end(buffer_bytes)); }

}  // namespace movebench::net
