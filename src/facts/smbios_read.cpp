// Where the SMBIOS table comes from: another machine's dmidecode text, or
// this machine's table in sysfs (readable by root only on most systems).
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/errors.hpp"
#include "facts/input_file.hpp"
#include "facts/smbios.hpp"

namespace movebench::facts {
namespace {

// SMBIOS 3 tables are a few KiB to a few hundred; a bigger file is no table.
constexpr std::size_t kMaxTableBytes = 16u << 20;

std::optional<std::vector<std::uint8_t>> read_table(const std::string& path, std::string& why) {
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    why = errno == ENOENT ? fmt::format(
                                "no SMBIOS table ({} absent: a VM or firmware without one); "
                                "give --dmidecode FILE saved on the machine itself",
                                path)
                          : fmt::format("SMBIOS table not readable ({}: {}): run as root or give --dmidecode FILE",
                                        path, std::strerror(errno));
    return std::nullopt;
  }
  std::vector<std::uint8_t> table;
  std::uint8_t chunk[65536];
  ssize_t n = 0;
  while ((n = read(fd, chunk, sizeof chunk)) > 0 && table.size() < kMaxTableBytes) {
    table.insert(table.end(), chunk, chunk + n);
  }
  const int err = errno;
  close(fd);
  if (n < 0) {
    why = fmt::format("SMBIOS table not readable ({}: {}): run as root or give --dmidecode FILE", path,
                      std::strerror(err));
    return std::nullopt;
  }
  return table;
}

}  // namespace

std::optional<SmbiosMemory> read_smbios(const Sources& sources, std::string& why) {
  if (!sources.dmidecode_file.empty()) {
    const std::string text = read_text_input(sources.dmidecode_file, "--dmidecode");
    try {
      SmbiosMemory memory = parse_dmidecode_text(text);
      memory.source = "dmidecode output " + sources.dmidecode_file;
      return memory;
    } catch (const UsageError& e) {
      throw UsageError(fmt::format("--dmidecode '{}': {}", sources.dmidecode_file, e.what()));
    }
  }
  const std::string path = sources.sysfs_root + "/firmware/dmi/tables/DMI";
  auto table = read_table(path, why);
  if (!table) return std::nullopt;
  SmbiosMemory memory = parse_smbios_table(*table);
  memory.source = path;
  return memory;
}

}  // namespace movebench::facts
