#include "core/zeroed_bytes.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#define EXACTVQ_ZEROED_BYTES_MMAP 1
#endif

namespace exactvq {

namespace {

// From this size on a block is mapped on its own: calloc would hand back a reused
// heap block, which it must clear by writing every byte.
constexpr size_t kMappedBytes = size_t{1} << 20;

uint8_t* zeroed_block(size_t n) {
  if (n == 0) return nullptr;
#ifdef EXACTVQ_ZEROED_BYTES_MMAP
  if (n >= kMappedBytes) {
    void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return static_cast<uint8_t*>(p);
  }
#endif
  void* p = std::calloc(n, 1);
  if (!p) throw std::bad_alloc();
  return static_cast<uint8_t*>(p);
}

void free_block(uint8_t* p, size_t n) noexcept {
  if (!p) return;
#ifdef EXACTVQ_ZEROED_BYTES_MMAP
  if (n >= kMappedBytes) {
    munmap(p, n);
    return;
  }
#endif
  (void)n;
  std::free(p);
}

}  // namespace

ZeroedBytes::ZeroedBytes(const ZeroedBytes& other)
    : data_(zeroed_block(other.size_)), size_(other.size_) {
  if (size_) std::memcpy(data_, other.data_, size_);
}

ZeroedBytes& ZeroedBytes::operator=(const ZeroedBytes& other) {
  if (this != &other) {
    if (size_ != other.size_) {
      uint8_t* fresh = zeroed_block(other.size_);
      release();
      data_ = fresh;
      size_ = other.size_;
    }
    if (size_) std::memcpy(data_, other.data_, size_);
  }
  return *this;
}

ZeroedBytes::ZeroedBytes(ZeroedBytes&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

ZeroedBytes& ZeroedBytes::operator=(ZeroedBytes&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

ZeroedBytes::~ZeroedBytes() { release(); }

void ZeroedBytes::release() noexcept {
  free_block(data_, size_);
  data_ = nullptr;
  size_ = 0;
}

void ZeroedBytes::resize(size_t n) {
  if (n == size_) return;
  uint8_t* fresh = zeroed_block(n);
  if (size_ && n) std::memcpy(fresh, data_, n < size_ ? n : size_);
  release();
  data_ = fresh;
  size_ = n;
}

}  // namespace exactvq
