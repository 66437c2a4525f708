#include "backends/cuda/pinned_registry.h"

#include <algorithm>

#include <cuda_runtime_api.h>

namespace exactvq::cuda {

namespace {
// Below this, locking costs more than the copies it speeds up, and small heap
// buffers may share pages with others.
constexpr size_t kMinBytes = size_t{1} << 18;

bool lock(const void* data, size_t bytes) {
  // Portable: usable by every device, so a multi-GPU run can share the pictures.
  if (cudaHostRegister(const_cast<void*>(data), bytes, cudaHostRegisterPortable) == cudaSuccess)
    return true;
  cudaGetLastError();
  return false;
}
}  // namespace

PinnedRegistry::PinnedRegistry(size_t capacity, bool background, int ordinal)
    : capacity_(capacity), ordinal_(ordinal) {
  if (background) worker_ = std::thread([this] { lock_queued(); });
}

PinnedRegistry::~PinnedRegistry() {
  if (worker_.joinable()) {
    {
      std::lock_guard guard(mutex_);
      stop_ = true;
    }
    queued_.notify_all();
    worker_.join();
  }
  for (const auto& [data, e] : entries_) release(data, e);
}

void PinnedRegistry::release(const void* data, const Entry& e) {
  if (e.state == State::kLocked && cudaHostUnregister(const_cast<void*>(data)) != cudaSuccess)
    cudaGetLastError();  // the buffer may be gone already; nothing to undo then
}

void PinnedRegistry::lock_queued() {
  if (cudaSetDevice(ordinal_) != cudaSuccess) cudaGetLastError();
  std::unique_lock guard(mutex_);
  for (;;) {
    queued_.wait(guard, [&] { return stop_ || !queue_.empty(); });
    if (stop_) return;
    const void* data = queue_.front();
    queue_.pop_front();
    auto it = entries_.find(data);
    if (it == entries_.end() || it->second.state != State::kQueued) continue;
    const size_t bytes = it->second.bytes;
    guard.unlock();  // entries in state kQueued are never erased or released
    const bool locked = lock(data, bytes);
    guard.lock();
    it = entries_.find(data);
    if (it != entries_.end()) it->second.state = locked ? State::kLocked : State::kRefused;
  }
}

void PinnedRegistry::pin(const void* data, size_t bytes) {
  if (bytes < kMinBytes) return;
  std::lock_guard guard(mutex_);
  ++clock_;
  if (auto it = entries_.find(data); it != entries_.end()) {
    it->second.last_use = clock_;
    if (it->second.bytes == bytes || it->second.state == State::kQueued) return;
    // The same start with another length (a new format at the same address):
    // lock the new range instead.
    release(data, it->second);
    entries_.erase(it);
  }
  if (entries_.size() >= capacity_) {
    // Rare (a new picture once the registry is full): a scan for the least
    // recently used entry that is not waiting for the worker.
    auto oldest = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (it->second.state != State::kQueued &&
          (oldest == entries_.end() || it->second.last_use < oldest->second.last_use))
        oldest = it;
    if (oldest != entries_.end()) {
      release(oldest->first, oldest->second);
      entries_.erase(oldest);
    }
  }
  if (worker_.joinable()) {
    entries_.emplace(data, Entry{bytes, clock_, State::kQueued});
    queue_.push_back(data);
    queued_.notify_one();
    return;
  }
  entries_.emplace(data,
                   Entry{bytes, clock_, lock(data, bytes) ? State::kLocked : State::kRefused});
}

}  // namespace exactvq::cuda
