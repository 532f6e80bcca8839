#include "facts/input_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/errors.hpp"

namespace movebench::facts {
namespace {

// Length of the UTF-8 sequence starting with `lead`, 0 when it cannot start one.
int utf8_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

bool valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const int n = utf8_length(static_cast<unsigned char>(text[i]));
    if (n == 0 || i + n > text.size()) return false;
    for (int k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

// The file descriptor closes on every path out, a throw included.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

[[noreturn]] void refuse(std::string_view option, const std::string& path, std::string_view why) {
  throw UsageError(fmt::format("{} '{}': {}", option, path, why));
}

}  // namespace

std::string text_problem(std::string_view text) {
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u == 0) return "binary data (NUL bytes), not the text of the tool";
    if ((u < 0x20 && c != '\t' && c != '\n' && c != '\r') || u == 0x7F) {
      return fmt::format("control character 0x{:02x} (escape sequences are not tool output)", u);
    }
  }
  if (!valid_utf8(text)) return "not UTF-8 text";
  return "";
}

std::string read_text_input(const std::string& path, std::string_view option) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  Fd file{open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (file.fd < 0) refuse(option, path, std::strerror(errno));
  struct stat st {};
  if (fstat(file.fd, &st) != 0) refuse(option, path, std::strerror(errno));
  if (!S_ISREG(st.st_mode)) refuse(option, path, "not a regular file");
  if (static_cast<std::uint64_t>(st.st_size) > kMaxInputBytes) {
    refuse(option, path, fmt::format("larger than {} MiB", kMaxInputBytes >> 20));
  }
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = read(file.fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) refuse(option, path, std::strerror(errno));
    if (n == 0) break;  // shrank while read: what is there is checked below
    done += static_cast<std::size_t>(n);
  }
  text.resize(done);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) refuse(option, path, "empty");
  if (auto problem = text_problem(text); !problem.empty()) refuse(option, path, problem);
  return text;
}

}  // namespace movebench::facts
