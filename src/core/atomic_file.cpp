#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <random>
#include <utility>

#include "core/errors.hpp"

namespace movebench {
namespace {

// Closes a descriptor on every path out of a scope.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }
  void reset(int fd) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

std::string reason(int err) { return std::strerror(err); }

struct Split {
  std::string folder, name;
};

Split split_path(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

// A hidden name that no reader takes for a result: ".NAME.XXXXXXXX.tmp".
std::string temporary_name(const std::string& name) {
  static thread_local std::mt19937_64 random{std::random_device{}()};
  return fmt::format(".{}.{:016x}.tmp", name, random());
}

bool write_all(int fd, std::string_view content, int& err) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      err = errno;
      return false;
    }
    content.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// The folder, opened so that every later step names files relative to it.
int open_folder(const std::string& folder, int& err) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) err = errno;
  return fd;
}

// True when O_TMPFILE is refused by this file system (not a real error).
bool no_tmpfile_support(int err) { return err == EOPNOTSUPP || err == EISDIR || err == EINVAL; }

// A new named temporary file in `dir`; never an existing file or a symlink.
int create_named(int dir, const std::string& name, std::string& temp, int& err) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    temp = temporary_name(name);
    const int fd = ::openat(dir, temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) return fd;
    if (errno != EEXIST) {
      err = errno;
      return -1;
    }
  }
  err = EEXIST;
  return -1;
}

// Refuses targets that rename() must not replace: folders and devices
// (`--json /dev/null` as root would otherwise replace the device node).
std::string target_problem(int dir, const std::string& name) {
  struct stat st {};
  if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return "";
  if (S_ISDIR(st.st_mode)) return "it is a folder";
  if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) return "it is not a regular file";
  return "";
}

// Opens the folder of `path` into `dir` and names the file in it; why no
// regular file can be written there ("" when one can, as far as this goes).
std::string open_target(const std::string& path, Fd& dir, std::string& name) {
  const auto [folder, base] = split_path(path);
  if (base.empty() || base == "." || base == "..") return "not a file name";
  int err = 0;
  dir.reset(open_folder(folder, err));
  if (dir.get() < 0) return reason(err);
  name = base;
  return target_problem(dir.get(), name);
}

}  // namespace

std::string replace_file(const std::string& path, std::string_view content) {
  Fd dir(-1);
  std::string name;
  if (auto problem = open_target(path, dir, name); !problem.empty()) return problem;
  int err = 0;

  // Unnamed first: a SIGKILL while writing leaves nothing behind.
  std::string temp;
  int fd = ::openat(dir.get(), ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (!no_tmpfile_support(errno)) return reason(errno);
    fd = create_named(dir.get(), name, temp, err);
    if (fd < 0) return reason(err);
  }
  Fd file(fd);
  auto fail = [&](int e) {
    if (!temp.empty()) ::unlinkat(dir.get(), temp.c_str(), 0);
    return reason(e);
  };
  if (!write_all(file.get(), content, err)) return fail(err);
  if (::fsync(file.get()) != 0) return fail(errno);
  if (temp.empty()) {
    // Give the unnamed file a fresh hidden name (linkat refuses an existing
    // one), then rename it over the target at once.
    const std::string proc = fmt::format("/proc/self/fd/{}", file.get());
    for (int attempt = 0; temp.empty() && attempt < 100; ++attempt) {
      std::string candidate = temporary_name(name);
      if (::linkat(AT_FDCWD, proc.c_str(), dir.get(), candidate.c_str(), AT_SYMLINK_FOLLOW) == 0) {
        temp = std::move(candidate);
      } else if (errno != EEXIST) {
        return reason(errno);
      }
    }
    if (temp.empty()) return reason(EEXIST);
  }
  if (::close(file.release()) != 0) return fail(errno);
  if (::renameat(dir.get(), temp.c_str(), dir.get(), name.c_str()) != 0) return fail(errno);
  return "";
}

namespace {

// Why no file can be created at `path` now ("" when one can).
std::string cannot_create(const std::string& path) {
  if (path.empty()) return "empty path";
  Fd dir(-1);
  std::string name;
  if (auto problem = open_target(path, dir, name); !problem.empty()) return problem;
  int err = 0;
  // Create (and drop) a file where the real one will go: the one test that
  // answers for permissions, read-only mounts and full inode tables alike.
  Fd probe(::openat(dir.get(), ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644));
  if (probe.get() >= 0) return "";
  if (!no_tmpfile_support(errno)) return reason(errno);
  std::string temp;
  Fd named(create_named(dir.get(), name, temp, err));
  if (named.get() < 0) return reason(err);
  ::unlinkat(dir.get(), temp.c_str(), 0);
  return "";
}

}  // namespace

void check_output_file(const std::string& path, std::string_view what) {
  if (auto why = cannot_create(path); !why.empty()) {
    throw UsageError(fmt::format("cannot write the {} '{}': {}", what, path, why));
  }
}

void check_output_folder(const std::string& folder, std::string_view what) {
  if (folder.empty()) throw UsageError(fmt::format("cannot use the {} '': empty path", what));
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) throw UsageError(fmt::format("cannot create the {} '{}': {}", what, folder, ec.message()));
  if (auto why = cannot_create(folder + "/.movebench-probe"); !why.empty()) {
    throw UsageError(fmt::format("cannot write in the {} '{}': {}", what, folder, why));
  }
}

}  // namespace movebench
