// An output stream buffer over a POSIX file descriptor that remembers why a write failed.
#pragma once

#include <array>
#include <streambuf>

namespace exactvq::output_detail {

// Buffers output and write(2)s it to `fd` (retrying on EINTR and short writes). On
// the first failure it keeps errno in error() and fails every later write, so the
// ostream over it goes bad and the caller can report the real reason (ENOSPC, EIO...).
// It never closes the descriptor.
class FdStreambuf : public std::streambuf {
 public:
  explicit FdStreambuf(int fd);
  FdStreambuf(const FdStreambuf&) = delete;
  FdStreambuf& operator=(const FdStreambuf&) = delete;

  int error() const { return error_; }  // errno of the first failed write, or 0

 protected:
  int_type overflow(int_type ch) override;
  int sync() override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;

 private:
  bool flush_buffer();
  bool write_all(const char* p, std::size_t n);

  int fd_;
  int error_ = 0;
  std::array<char, 1 << 16> buf_;
};

}  // namespace exactvq::output_detail
