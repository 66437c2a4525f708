#include "cuda/pinned_registry.h"

#include <algorithm>

#include <cuda_runtime_api.h>

namespace exactvq::cuda {

namespace {
// Below this, locking costs more than the copies it speeds up, and small heap
// buffers may share pages with others.
constexpr size_t kMinBytes = size_t{1} << 18;
}  // namespace

PinnedRegistry::~PinnedRegistry() {
  for (const Entry& e : entries_) release(e);
}

void PinnedRegistry::release(const Entry& e) {
  if (e.locked && cudaHostUnregister(const_cast<void*>(e.data)) != cudaSuccess)
    cudaGetLastError();  // the buffer may be gone already; nothing to undo then
}

void PinnedRegistry::pin(const void* data, size_t bytes) {
  if (bytes < kMinBytes) return;
  ++clock_;
  for (Entry& e : entries_)
    if (e.data == data && e.bytes == bytes) {
      e.last_use = clock_;
      return;
    }
  if (entries_.size() >= capacity_ && !entries_.empty()) {
    auto oldest = std::min_element(entries_.begin(), entries_.end(),
                                   [](const Entry& a, const Entry& b) { return a.last_use < b.last_use; });
    release(*oldest);
    entries_.erase(oldest);
  }
  const bool locked = cudaHostRegister(const_cast<void*>(data), bytes, cudaHostRegisterPortable) ==
                      cudaSuccess;
  if (!locked) cudaGetLastError();
  entries_.push_back({data, bytes, clock_, locked});
}

}  // namespace exactvq::cuda
