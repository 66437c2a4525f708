// Page-locks host buffers the caller promises to keep (FrameBatch pictures are
// reused batch after batch), so uploads from them run at full PCIe speed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace exactvq::cuda {

class PinnedRegistry {
 public:
  // Keeps at most `capacity` buffers locked; the least recently used is released first.
  explicit PinnedRegistry(size_t capacity) : capacity_(capacity) {}
  ~PinnedRegistry();
  PinnedRegistry(const PinnedRegistry&) = delete;
  PinnedRegistry& operator=(const PinnedRegistry&) = delete;

  void set_capacity(size_t capacity) { capacity_ = capacity; }

  // Locks [data, data + bytes) unless already done. Small buffers, and buffers the
  // driver refuses (pages shared with another locked buffer), stay pageable:
  // copies from them are slower but still correct.
  void pin(const void* data, size_t bytes);

 private:
  struct Entry {
    const void* data;
    size_t bytes;
    uint64_t last_use;
    bool locked;
  };
  void release(const Entry& e);

  size_t capacity_;
  uint64_t clock_ = 0;
  std::vector<Entry> entries_;
};

}  // namespace exactvq::cuda
