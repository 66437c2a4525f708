// Fuzz input as a regular file the readers can open by path: one memfd per process,
// rewritten for every input and opened through /proc/self/fd.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace exactvq::fuzz {

class MemoryFile {
 public:
  MemoryFile() : fd_(::memfd_create("exactvq-fuzz", 0)) {
    if (fd_ < 0) std::abort();
  }
  ~MemoryFile() { ::close(fd_); }

  // Replaces the content; returns a path that opens it from offset 0.
  std::string set(const uint8_t* data, size_t size) {
    if (::ftruncate(fd_, 0) != 0) std::abort();
    size_t done = 0;
    while (done < size) {
      const ssize_t n = ::pwrite(fd_, data + done, size - done, off_t(done));
      if (n <= 0) std::abort();
      done += size_t(n);
    }
    return "/proc/self/fd/" + std::to_string(fd_);
  }

 private:
  int fd_;
};

}  // namespace exactvq::fuzz
