// Buffered reading of one input (a file or standard input) for the video readers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace exactvq {

// Shows a few bytes of untrusted input safely in a message: printable ASCII as is,
// anything else as \xNN, cut after `max_chars` with "...".
std::string printable(std::string_view bytes, size_t max_chars = 32);

// An open input with a byte position, a peek buffer (so standard input can be
// sniffed without losing bytes) and errors that name it. Not copyable.
class InputFile {
 public:
  // Opens `path` for reading; "-" is standard input. Throws InputError
  // "cannot open PATH: <reason>" for a missing, unreadable or directory path.
  explicit InputFile(const std::string& path);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // "standard input" for "-", else the path as given.
  const std::string& name() const { return name_; }
  const std::string& path() const { return path_; }
  bool is_stdin() const { return is_stdin_; }
  // Size in bytes when the input is a regular file (as of opening).
  std::optional<uint64_t> size() const { return size_; }
  // Bytes consumed so far (peeked bytes not counted until read).
  uint64_t position() const { return position_; }

  // Makes at least `n` bytes available without consuming them (fewer at end of
  // input) and returns what is available.
  std::string_view peek(size_t n);

  // Reads up to `n` bytes into `dst`; returns fewer only at end of input.
  // Throws InputError on a read error.
  size_t read(void* dst, size_t n);

  // One byte, or -1 at end of input.
  int get();

  // Skips up to `n` bytes (seeking in regular files); returns how many were
  // skipped, fewer only at end of input.
  uint64_t skip(uint64_t n);

  // Reads `n` bytes at `offset` (counted like position()) without moving the
  // position (regular files only); returns the bytes actually read.
  size_t read_at(uint64_t offset, void* dst, size_t n) const;

 private:
  [[noreturn]] void throw_read_error(int err) const;

  std::string path_;
  std::string name_;
  std::FILE* file_ = nullptr;
  bool is_stdin_ = false;
  std::optional<uint64_t> size_;
  uint64_t position_ = 0;
  uint64_t start_ = 0;  // file offset where reading began (standard input may start later)
  std::vector<uint8_t> pending_;  // peeked bytes, consumed from pending_pos_
  size_t pending_pos_ = 0;
};

}  // namespace exactvq
