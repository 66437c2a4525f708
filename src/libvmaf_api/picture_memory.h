// What a VmafPicture's `ref` and `priv` point to, and the picture pools of
// vmaf_preallocate_pictures.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "libvmaf/picture.h"

struct VmafRef {
  std::atomic<long> count{1};
};

namespace exactvq::libvmaf_api {

class PicturePool;

// Where a picture's samples are: host memory, or CUDA device memory (the
// pictures of vmaf_cuda_preallocate_pictures' METHOD_DEVICE).
struct BlockPlace {
  int cuda_device = -1;  // -1: host memory
  bool on_device() const { return cuda_device >= 0; }
};

// A picture's planes: one 32-byte aligned block (device memory: cudaMalloc's
// alignment), given back to its pool (when fetched from one) or freed with the
// last reference.
struct PictureMemory {
  void* block = nullptr;
  size_t bytes = 0;  // as allocate_block was asked for
  BlockPlace place;
  std::shared_ptr<PicturePool> pool;  // null: freed
};

// A zeroed block of `bytes` in `place`, or null; and its release. Host blocks
// go through the kept blocks (block_cache.h).
void* allocate_block(size_t bytes, BlockPlace place);
void free_block(void* block, size_t bytes, BlockPlace place);

// Fills `pic` (layout of libvmaf's picture.c) and allocates its block, zeroed.
// Returns 0, -EINVAL for a bad format or size, -ENOMEM.
int allocate_picture(VmafPicture& pic, VmafPixelFormat pix_fmt, unsigned bpc, unsigned w,
                     unsigned h, BlockPlace place, std::shared_ptr<PicturePool> pool);

// The block's size for a picture whose fields allocate_picture filled.
size_t block_bytes(const VmafPicture& pic);

// The memory of a picture made by this library, or null for one it did not make.
inline const PictureMemory* memory_of(const VmafPicture& pic) {
  return pic.ref ? static_cast<const PictureMemory*>(pic.priv) : nullptr;
}

// Pictures of one format, their blocks made once and reused.
class PicturePool : public std::enable_shared_from_this<PicturePool> {
 public:
  PicturePool(VmafPixelFormat pix_fmt, unsigned bpc, unsigned w, unsigned h, unsigned count,
              BlockPlace place = {});
  ~PicturePool();
  // 0, or -EINVAL when every picture is in use.
  int fetch(VmafPicture& pic);
  void give_back(void* block);

 private:
  VmafPixelFormat pix_fmt_;
  unsigned bpc_, w_, h_, count_;
  BlockPlace place_;
  std::mutex mutex_;
  std::vector<void*> free_;
};

}  // namespace exactvq::libvmaf_api
