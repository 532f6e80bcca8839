#include "core/vocabulary.hpp"

namespace movebench::vocabulary {

std::string names(std::string_view upstream_short, const Concept& c, std::string_view older) {
  std::string out;
  if (!upstream_short.empty()) out.append(upstream_short).append(",");
  out.append(c.long_name);
  if (!older.empty()) out.append(",").append(older);
  return out;
}

std::string help(const Concept& c, std::string_view detail) {
  std::string out(c.meaning);
  if (!detail.empty()) out.append(": ").append(detail);
  return out;
}

}  // namespace movebench::vocabulary
