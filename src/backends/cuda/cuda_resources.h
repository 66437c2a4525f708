// Owners of CUDA resources: device and page-locked host memory, streams, events.
// Allocation failures throw DeviceError (out of memory names the size).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

#include "backends/cuda/cuda_check.h"
#include "backends/cuda/fault_injection.h"

namespace exactvq::cuda {

template <void* (*Allocate)(size_t), void (*Free)(void*)>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(size_t bytes) : data_(bytes ? Allocate(bytes) : nullptr), bytes_(bytes) {}
  ~Buffer() {
    if (data_) Free(data_);
  }
  Buffer(Buffer&& o) noexcept : data_(std::exchange(o.data_, nullptr)), bytes_(o.bytes_) {}
  Buffer& operator=(Buffer&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  template <typename T = unsigned char>
  T* get() const {
    return static_cast<T*>(data_);
  }
  size_t bytes() const { return bytes_; }

 private:
  void* data_ = nullptr;
  size_t bytes_ = 0;
};

inline void* allocate_device(size_t bytes) {
  if (Faults* faults = current_faults()) faults->before_alloc(bytes);  // tests only
  void* p = nullptr;
  check(cudaMalloc(&p, bytes), ("cudaMalloc of " + std::to_string(bytes) + " bytes").c_str());
  return p;
}
inline void free_device(void* p) { cudaFree(p); }
inline void* allocate_pinned(size_t bytes) {
  void* p = nullptr;
  // Portable: usable by every device, so a multi-GPU run can share host buffers.
  check(cudaHostAlloc(&p, bytes, cudaHostAllocPortable),
        ("cudaHostAlloc of " + std::to_string(bytes) + " bytes").c_str());
  return p;
}
inline void free_pinned(void* p) { cudaFreeHost(p); }

using DeviceBuffer = Buffer<allocate_device, free_device>;
using PinnedBuffer = Buffer<allocate_pinned, free_pinned>;

class Stream {
 public:
  Stream() { check(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreate"); }
  ~Stream() { cudaStreamDestroy(s_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

class Event {
 public:
  explicit Event(unsigned flags = cudaEventDisableTiming) {
    check(cudaEventCreateWithFlags(&e_, flags), "cudaEventCreate");
  }
  ~Event() { cudaEventDestroy(e_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return e_; }

 private:
  cudaEvent_t e_ = nullptr;
};

}  // namespace exactvq::cuda
