// A byte buffer whose bytes read as zero until written, without writing them: large
// blocks are fresh pages from the system (already zero; a page is first touched by
// whoever writes it, and one no one writes costs nothing), small ones come from calloc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace exactvq {

class ZeroedBytes {
 public:
  ZeroedBytes() = default;
  ZeroedBytes(const ZeroedBytes& other);
  ZeroedBytes& operator=(const ZeroedBytes& other);
  ZeroedBytes(ZeroedBytes&& other) noexcept;
  ZeroedBytes& operator=(ZeroedBytes&& other) noexcept;
  ~ZeroedBytes();

  // As std::vector's resize: the first min(old, n) bytes are kept, the rest are zero. The
  // buffer stays where it is when n is its size; otherwise it moves to a new block.
  void resize(size_t n);
  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  operator std::span<const uint8_t>() const { return {data_, size_}; }

 private:
  void release() noexcept;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace exactvq
