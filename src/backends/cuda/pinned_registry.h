// Page-locks host buffers the caller promises to keep (FrameBatch pictures are
// reused batch after batch), so uploads from them run at full PCIe speed.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace exactvq::cuda {

class PinnedRegistry {
 public:
  // Keeps at most `capacity` buffers locked; the least recently used is released
  // first. With `background`, buffers are locked by a thread of the registry
  // (on device `ordinal`), so the first use of a buffer does not wait for it:
  // that copy goes from pageable memory, the later ones from locked memory.
  explicit PinnedRegistry(size_t capacity, bool background = false, int ordinal = 0);
  ~PinnedRegistry();
  PinnedRegistry(const PinnedRegistry&) = delete;
  PinnedRegistry& operator=(const PinnedRegistry&) = delete;

  void set_capacity(size_t capacity) { capacity_ = capacity; }

  // Locks [data, data + bytes) unless already done (or queued). Small buffers,
  // and buffers the driver refuses (pages shared with another locked buffer,
  // or locked already by another device's registry), stay as they are: copies
  // from pageable ones are slower but still correct.
  void pin(const void* data, size_t bytes);

 private:
  enum class State { kQueued, kLocked, kRefused };
  struct Entry {
    size_t bytes;
    uint64_t last_use;
    State state;
  };
  static void release(const void* data, const Entry& e);
  void lock_queued();  // the background thread

  size_t capacity_;
  int ordinal_;
  uint64_t clock_ = 0;
  std::mutex mutex_;
  std::condition_variable queued_;
  // By start address: a batch's lookups cost O(1) each (a linear scan made
  // page-locking checks of 64-frame batches quadratic: ~20 us a batch).
  std::unordered_map<const void*, Entry> entries_;
  std::deque<const void*> queue_;
  bool stop_ = false;
  std::thread worker_;
};

}  // namespace exactvq::cuda
