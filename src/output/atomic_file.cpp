// write_file_atomically(): temporary file beside the target, fsync, rename over it.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <ostream>
#include <random>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "core/error.h"
#include "output/fd_streambuf.h"
#include "output/report.h"

namespace exactvq {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& reason) {
  throw OutputError("cannot write " + path + ": " + reason);
}

std::string reason_of(int err) { return std::generic_category().message(err); }

// "dir/name" -> {"dir/", "name"}; "name" -> {"", "name"}.
std::pair<std::string, std::string> split_path(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return {"", path};
  return {path.substr(0, slash + 1), path.substr(slash + 1)};
}

// Opens a new file "<dir>.<name>.XXXXXX" with O_EXCL, like mkstemp, but with the given
// creation mode so the kernel applies the umask (mkstemp always uses 0600, and reading
// the umask is not thread-safe). Returns the descriptor and sets `tmp`, or -1 with errno.
int create_temp(const std::string& dir, const std::string& name, mode_t mode, std::string& tmp) {
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  thread_local std::mt19937_64 rng{(static_cast<std::uint64_t>(std::random_device{}()) << 32) ^
                                   static_cast<std::uint64_t>(::getpid())};
  std::uniform_int_distribution<std::size_t> pick(0, sizeof kChars - 2);
  for (int attempt = 0; attempt < 100; ++attempt) {
    tmp = dir + "." + name.substr(0, 200) + ".";  // stays under NAME_MAX (255)
    for (int i = 0; i < 6; ++i) tmp += kChars[pick(rng)];
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

// Best effort: makes the rename durable. Its failure cannot undo a finished rename.
void sync_directory(const std::string& dir) {
  const int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) return;
  (void)::fsync(dfd);
  ::close(dfd);
}

// Writes `body` through `fd`; returns 0, or the errno of the first failure (EIO when
// the body left the stream failed without an I/O error). `cleanup` runs before an
// exception from the body propagates.
int write_body(int fd, const std::function<void(std::ostream&)>& body,
               const std::function<void()>& cleanup) {
  output_detail::FdStreambuf sb(fd);
  std::ostream os(&sb);
  try {
    body(os);
  } catch (...) {
    cleanup();
    throw;
  }
  os.flush();
  if (sb.error() != 0) return sb.error();
  return os ? 0 : EIO;
}

// Streams (standard output as "-", /dev/stdout, a FIFO, a character device such as
// /dev/full) cannot be replaced atomically: they are written in place, every
// error still detected and reported, nothing written before the body is complete.
void write_stream(const std::string& path, int fd, bool close_fd,
                  const std::function<void(std::ostream&)>& body) {
  int err = write_body(fd, body, [&] {
    if (close_fd) ::close(fd);
  });
  if (close_fd && ::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) fail(path, reason_of(err));
}

// Whether `path` is this process's standard output: "-", or a name of the file
// fd 1 has open (/dev/stdout when standard output is redirected to a regular
// file, say). That file is written in place, through fd 1: replacing it would
// drop what the process already wrote there (and others' lines, in a log).
bool is_standard_output(const std::string& path) {
  if (path == "-") return true;
  struct stat out {
  }, st{};
  return ::fstat(STDOUT_FILENO, &out) == 0 && ::stat(path.c_str(), &st) == 0 &&
         out.st_dev == st.st_dev && out.st_ino == st.st_ino;
}

}  // namespace

// "-" and any name of the file standard output has open (/dev/stdout) are
// standard output, written in place; so is an existing FIFO or character device
// (/dev/full; see write_stream). Otherwise the target, when it
// exists, must be a regular file (a symlink to one is followed: the file it points
// to is replaced and the link kept); a directory or other special file is refused
// with "not a regular file" before anything is created. The
// new file keeps the old one's permission bits (and, where allowed, its owner and
// group); a new file gets 0644 minus the umask. An existing file we have no write
// permission for is refused ("Permission denied"), as fopen would. Errors say "cannot write PATH:
// reason" with PATH as given; on any failure, the body's exceptions included, the temporary file is
// removed and the target is untouched.
void check_output_path(const std::string& path, const std::vector<std::string>& inputs) {
  if (is_standard_output(path)) return;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return;
    if (!S_ISREG(st.st_mode)) fail(path, "not a regular file");
    if (::access(path.c_str(), W_OK) != 0) fail(path, reason_of(errno));
    for (const std::string& input : inputs) {
      struct stat in {};
      if (input != "-" && ::stat(input.c_str(), &in) == 0 && in.st_dev == st.st_dev &&
          in.st_ino == st.st_ino)
        fail(path, "it is also the input " + input);
    }
    return;
  }
  if (errno != ENOENT) fail(path, reason_of(errno));
  // A new file: its directory must exist and let us create files in it.
  const std::string dir = split_path(path).first;
  const std::string where = dir.empty() ? "." : dir;
  struct stat ds {};
  if (::stat(where.c_str(), &ds) != 0) fail(path, reason_of(errno));
  if (!S_ISDIR(ds.st_mode)) fail(path, reason_of(ENOTDIR));
  if (::access(where.c_str(), W_OK | X_OK) != 0) fail(path, reason_of(errno));
}

void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& body) {
  std::string target = path;
  mode_t mode = 0644;
  bool existing = false;
  struct stat st {};
  if (is_standard_output(path))
    return write_stream(path == "-" ? "standard output" : path, STDOUT_FILENO, false, body);
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
      const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd < 0) fail(path, reason_of(errno));
      return write_stream(path, fd, true, body);
    }
    if (!S_ISREG(st.st_mode)) fail(path, "not a regular file");
    // Like fopen(path, "w") in libvmaf: a file we may not write is not replaced.
    if (::access(path.c_str(), W_OK) != 0) fail(path, reason_of(errno));
    existing = true;
    mode = st.st_mode & 07777;
    struct stat lst {};
    if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
      char* real = ::realpath(path.c_str(), nullptr);
      if (real == nullptr) fail(path, reason_of(errno));
      target = real;
      std::free(real);
    }
  } else if (errno != ENOENT) {
    fail(path, reason_of(errno));
  }

  const auto [dir, name] = split_path(target);
  std::string tmp;
  const int fd = create_temp(dir, name, existing ? 0600 : 0644, tmp);
  if (fd < 0) fail(path, reason_of(errno));

  // Every failure from here on removes the temporary file before reporting.
  bool fd_open = true;
  const auto abandon = [&](int err) {
    if (fd_open) ::close(fd);
    ::unlink(tmp.c_str());
    fail(path, reason_of(err));
  };

  if (existing) {
    if (::fchown(fd, st.st_uid, st.st_gid) != 0) {
      // Not permitted unless privileged: the file is then owned by whoever writes it.
    }
    if (::fchmod(fd, mode) != 0) abandon(errno);
  }

  const int write_error = write_body(fd, body, [&] {
    ::close(fd);
    ::unlink(tmp.c_str());
  });
  if (write_error != 0) abandon(write_error);
  if (::fsync(fd) != 0) abandon(errno);
  fd_open = false;
  if (::close(fd) != 0) abandon(errno);
  if (::rename(tmp.c_str(), target.c_str()) != 0) abandon(errno);
  sync_directory(dir);
}

}  // namespace exactvq
