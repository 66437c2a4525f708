#include "io/input_file.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace exactvq {

std::string printable(std::string_view bytes, size_t max_chars) {
  std::string out;
  size_t shown = 0;
  for (char c : bytes) {
    if (shown == max_chars) {
      out += "...";
      break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f && u != '\\') {
      out += c;
    } else if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += fmt::format("\\x{:02x}", u);
    }
    ++shown;
  }
  return out;
}

InputFile::InputFile(const std::string& path) : path_(path) {
  if (path == "-") {
    name_ = "standard input";
    is_stdin_ = true;
    file_ = stdin;
  } else {
    name_ = path;
    errno = 0;
    file_ = std::fopen(path.c_str(), "rb");
    if (file_ == nullptr) {
      const int err = errno;
      throw InputError(
          fmt::format("cannot open {}: {}", path, err != 0 ? std::strerror(err) : "unknown error"));
    }
  }
  struct stat st {};
  if (fstat(fileno(file_), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      if (!is_stdin_) std::fclose(file_);
      file_ = nullptr;
      throw InputError(fmt::format("cannot open {}: {}", name_, std::strerror(EISDIR)));
    }
    if (S_ISREG(st.st_mode) && st.st_size >= 0) {
      // A regular file on standard input keeps its current offset; count from there.
      const off_t at = ftello(file_);
      start_ = at > 0 ? uint64_t(at) : 0;
      const auto total = uint64_t(st.st_size);
      size_ = total > start_ ? total - start_ : 0;
    }
  }
}

InputFile::~InputFile() {
  if (file_ != nullptr && !is_stdin_) std::fclose(file_);
}

void InputFile::throw_read_error(int err) const {
  throw InputError(
      fmt::format("{}: read error: {}", name_, err != 0 ? std::strerror(err) : "unknown error"));
}

std::string_view InputFile::peek(size_t n) {
  if (pending_pos_ > 0) {
    pending_.erase(pending_.begin(), pending_.begin() + ptrdiff_t(pending_pos_));
    pending_pos_ = 0;
  }
  if (pending_.size() < n) {
    const size_t have = pending_.size();
    pending_.resize(n);
    errno = 0;
    const size_t got = std::fread(pending_.data() + have, 1, n - have, file_);
    const int err = errno;
    pending_.resize(have + got);
    if (got < n - have && std::ferror(file_)) throw_read_error(err);
  }
  return {reinterpret_cast<const char*>(pending_.data()), std::min(n, pending_.size())};
}

size_t InputFile::read(void* dst, size_t n) {
  auto* out = static_cast<uint8_t*>(dst);
  size_t done = 0;
  if (pending_pos_ < pending_.size()) {
    const size_t k = std::min(n, pending_.size() - pending_pos_);
    std::memcpy(out, pending_.data() + pending_pos_, k);
    pending_pos_ += k;
    done = k;
    if (pending_pos_ == pending_.size()) {
      pending_.clear();
      pending_pos_ = 0;
    }
  }
  if (done < n) {
    errno = 0;
    const size_t got = std::fread(out + done, 1, n - done, file_);
    const int err = errno;
    done += got;
    if (done < n && std::ferror(file_)) throw_read_error(err);
  }
  position_ += done;
  return done;
}

int InputFile::get() {
  if (pending_pos_ < pending_.size()) {
    const int c = pending_[pending_pos_++];
    if (pending_pos_ == pending_.size()) {
      pending_.clear();
      pending_pos_ = 0;
    }
    ++position_;
    return c;
  }
  errno = 0;
  const int c = std::getc(file_);
  if (c == EOF) {
    if (std::ferror(file_)) throw_read_error(errno);
    return -1;
  }
  ++position_;
  return c;
}

uint64_t InputFile::skip(uint64_t n) {
  uint64_t done = 0;
  if (pending_pos_ < pending_.size()) {
    const uint64_t k = std::min<uint64_t>(n, pending_.size() - pending_pos_);
    pending_pos_ += size_t(k);
    done = k;
    position_ += k;
    if (pending_pos_ == pending_.size()) {
      pending_.clear();
      pending_pos_ = 0;
    }
  }
  if (done == n) return done;
  if (size_) {
    // Regular file: seek, but never past the current end (a seek there would succeed).
    struct stat st {};
    const off_t at = ftello(file_);
    if (at >= 0 && fstat(fileno(file_), &st) == 0 && st.st_size >= at) {
      const uint64_t left = uint64_t(st.st_size - at);
      const uint64_t k = std::min(n - done, left);
      if (k > 0 && fseeko(file_, off_t(k), SEEK_CUR) != 0) throw_read_error(errno);
      done += k;
      position_ += k;
      return done;
    }
  }
  std::array<uint8_t, 65536> scratch;
  while (done < n) {
    const size_t want = size_t(std::min<uint64_t>(n - done, scratch.size()));
    const size_t got = read(scratch.data(), want);
    done += got;
    if (got < want) break;
  }
  return done;
}

size_t InputFile::read_at(uint64_t offset, void* dst, size_t n) const {
  if (!size_) return 0;
  size_t done = 0;
  auto* out = static_cast<uint8_t*>(dst);
  const int fd = fileno(file_);
  while (done < n) {
    const ssize_t got = pread(fd, out + done, n - done, off_t(start_ + offset + done));
    if (got < 0) {
      if (errno == EINTR) continue;
      throw_read_error(errno);
    }
    if (got == 0) break;
    done += size_t(got);
  }
  return done;
}

}  // namespace exactvq
