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

// A picture's planes: one 32-byte aligned block, given back to its pool (when
// fetched from one) or freed with the last reference.
struct PictureMemory {
  void* block = nullptr;
  std::shared_ptr<PicturePool> pool;  // null: freed
};

// Fills `pic` (layout of libvmaf's picture.c) and allocates its block, zeroed.
// Returns 0, -EINVAL for a bad format or size, -ENOMEM.
int allocate_picture(VmafPicture& pic, VmafPixelFormat pix_fmt, unsigned bpc, unsigned w,
                     unsigned h, std::shared_ptr<PicturePool> pool);

// The block's size for a picture whose fields allocate_picture filled.
size_t block_bytes(const VmafPicture& pic);

// Pictures of one format, their blocks made once and reused.
class PicturePool : public std::enable_shared_from_this<PicturePool> {
 public:
  PicturePool(VmafPixelFormat pix_fmt, unsigned bpc, unsigned w, unsigned h, unsigned count);
  ~PicturePool();
  // 0, or -EINVAL when every picture is in use.
  int fetch(VmafPicture& pic);
  void give_back(void* block);

 private:
  VmafPixelFormat pix_fmt_;
  unsigned bpc_, w_, h_, count_;
  std::mutex mutex_;
  std::vector<void*> free_;
};

}  // namespace exactvq::libvmaf_api
