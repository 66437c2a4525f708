// FdStreambuf: buffered write(2) with the failing errno kept.
#include "output/fd_streambuf.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace exactvq::output_detail {

FdStreambuf::FdStreambuf(int fd) : fd_(fd) { setp(buf_.data(), buf_.data() + buf_.size()); }

bool FdStreambuf::write_all(const char* p, std::size_t n) {
  if (error_ != 0) return false;
  while (n > 0) {
    const ssize_t w = ::write(fd_, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      error_ = errno;
      return false;
    }
    if (w == 0) {  // no progress and no errno: treat as an I/O error
      error_ = EIO;
      return false;
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

bool FdStreambuf::flush_buffer() {
  const auto n = static_cast<std::size_t>(pptr() - pbase());
  const bool ok = write_all(pbase(), n);
  setp(buf_.data(), buf_.data() + buf_.size());
  return ok;
}

FdStreambuf::int_type FdStreambuf::overflow(int_type ch) {
  if (!flush_buffer()) return traits_type::eof();
  if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
  *pptr() = traits_type::to_char_type(ch);
  pbump(1);
  return ch;
}

int FdStreambuf::sync() { return flush_buffer() ? 0 : -1; }

std::streamsize FdStreambuf::xsputn(const char* s, std::streamsize n) {
  if (error_ != 0) return 0;
  const auto count = static_cast<std::size_t>(n);
  const auto room = static_cast<std::size_t>(epptr() - pptr());
  if (count <= room) {
    std::memcpy(pptr(), s, count);
    pbump(static_cast<int>(count));
    return n;
  }
  // Too big for the space left: flush what is buffered, then buffer it or, when it
  // would not fit in the whole buffer, write it directly.
  if (!flush_buffer()) return 0;
  if (count <= buf_.size()) {
    std::memcpy(pptr(), s, count);
    pbump(static_cast<int>(count));
    return n;
  }
  return write_all(s, count) ? n : 0;
}

}  // namespace exactvq::output_detail
