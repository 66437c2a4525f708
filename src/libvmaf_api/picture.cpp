// vmaf_picture_alloc / vmaf_picture_unref and the picture pools.
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

#include <fmt/format.h>

#include "libvmaf_api/block_cache.h"
#include "libvmaf_api/device_memory.h"
#include "libvmaf_api/log.h"
#include "libvmaf_api/picture_memory.h"

namespace exactvq::libvmaf_api {

namespace {

constexpr size_t kAlignment = 32;

size_t aligned(size_t n) { return (n + kAlignment - 1) & ~(kAlignment - 1); }

bool known_format(VmafPixelFormat f) {
  return f == VMAF_PIX_FMT_YUV420P || f == VMAF_PIX_FMT_YUV422P || f == VMAF_PIX_FMT_YUV444P ||
         f == VMAF_PIX_FMT_YUV400P;
}

// Sets the fields libvmaf sets: chroma is w >> 1 wide unless 4:4:4 and h >> 1
// high for 4:2:0 (floor, as libvmaf), rows padded to 32 samples.
void lay_out(VmafPicture& pic, VmafPixelFormat pix_fmt, unsigned bpc, unsigned w, unsigned h) {
  std::memset(&pic, 0, sizeof pic);
  pic.pix_fmt = pix_fmt;
  pic.bpc = bpc;
  const unsigned shift_x = pix_fmt != VMAF_PIX_FMT_YUV444P ? 1 : 0;
  const unsigned shift_y = pix_fmt == VMAF_PIX_FMT_YUV420P ? 1 : 0;
  pic.w[0] = w;
  pic.h[0] = h;
  if (pix_fmt != VMAF_PIX_FMT_YUV400P) {
    pic.w[1] = pic.w[2] = w >> shift_x;
    pic.h[1] = pic.h[2] = h >> shift_y;
  }
  const unsigned wide = bpc > 8 ? 1 : 0;
  pic.stride[0] = ptrdiff_t(aligned(pic.w[0]) << wide);
  // 4:0:0 keeps a chroma stride of 0 samples rounded up: 0.
  pic.stride[1] = pic.stride[2] = ptrdiff_t(aligned(pic.w[1]) << wide);
}

}  // namespace

size_t block_bytes(const VmafPicture& pic) {
  return size_t(pic.stride[0]) * pic.h[0] + 2 * size_t(pic.stride[1]) * pic.h[1];
}

namespace {

// Points `pic`'s planes into `block` and gives it its reference and memory.
int attach(VmafPicture& pic, void* block, size_t bytes, BlockPlace place,
           std::shared_ptr<PicturePool> pool) {
  auto* memory = new (std::nothrow) PictureMemory{block, bytes, place, std::move(pool)};
  auto* ref = new (std::nothrow) VmafRef;
  if (!memory || !ref) {
    if (memory && memory->pool)
      memory->pool->give_back(block);
    else
      free_block(block, bytes, place);
    delete memory;
    delete ref;
    std::memset(&pic, 0, sizeof pic);
    return -ENOMEM;
  }
  auto* bytes0 = static_cast<unsigned char*>(block);
  const size_t luma = size_t(pic.stride[0]) * pic.h[0];
  const size_t chroma = size_t(pic.stride[1]) * pic.h[1];
  pic.data[0] = bytes0;
  if (pic.pix_fmt != VMAF_PIX_FMT_YUV400P) {
    pic.data[1] = bytes0 + luma;
    pic.data[2] = bytes0 + luma + chroma;
  }
  pic.priv = memory;
  pic.ref = ref;
  return 0;
}

}  // namespace

// Host blocks are zeroed, as libvmaf's (samples the caller leaves unwritten
// read as 0). A kept block is zeroed when it is given back, on the thread that
// lets the picture go (a worker of the run for pictures vmaf_read_pictures
// took), so that the thread allocating pictures (FFmpeg's filter thread) only
// zeroes the blocks it has to make.
void* allocate_block(size_t bytes, BlockPlace place) {
  if (place.on_device()) return allocate_device_block(bytes, place.cuda_device);
  // aligned_alloc needs a multiple of the alignment, and a 0x0 picture a block.
  const size_t size = aligned(bytes == 0 ? 1 : bytes);
  if (void* kept = take_kept_block(size)) return kept;
  void* block = std::aligned_alloc(kAlignment, size);
  if (block) std::memset(block, 0, size);
  return block;
}

void free_block(void* block, size_t bytes, BlockPlace place) {
  if (place.on_device()) {
    free_device_block(block, place.cuda_device);
    return;
  }
  const size_t size = aligned(bytes == 0 ? 1 : bytes);
  if (block && would_keep_block(size)) {
    std::memset(block, 0, size);
    if (keep_block(block, size)) return;
  }
  std::free(block);
}

int allocate_picture(VmafPicture& pic, VmafPixelFormat pix_fmt, unsigned bpc, unsigned w,
                     unsigned h, BlockPlace place, std::shared_ptr<PicturePool> pool) {
  if (!known_format(pix_fmt) || bpc < 8 || bpc > 16) {
    log_line(VMAF_LOG_LEVEL_ERROR,
             fmt::format("picture: pixel format {} with {} bits is not one libvmaf knows",
                         int(pix_fmt), bpc));
    return -EINVAL;
  }
  lay_out(pic, pix_fmt, bpc, w, h);
  const size_t bytes = block_bytes(pic);
  void* block = allocate_block(bytes, place);
  if (!block) {
    std::memset(&pic, 0, sizeof pic);
    return -ENOMEM;
  }
  return attach(pic, block, bytes, place, std::move(pool));
}

PicturePool::PicturePool(VmafPixelFormat pix_fmt, unsigned bpc, unsigned w, unsigned h,
                         unsigned count, BlockPlace place)
    : pix_fmt_(pix_fmt), bpc_(bpc), w_(w), h_(h), count_(count), place_(place) {}

PicturePool::~PicturePool() {
  VmafPicture layout;
  lay_out(layout, pix_fmt_, bpc_, w_, h_);
  for (void* block : free_) free_block(block, block_bytes(layout), place_);
}

int PicturePool::fetch(VmafPicture& pic) {
  void* block = nullptr;
  {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      block = free_.back();
      free_.pop_back();
    } else if (count_ == 0) {
      log_line(VMAF_LOG_LEVEL_ERROR,
               "picture pool: every preallocated picture is in use (unref one first)");
      return -EINVAL;
    } else {
      --count_;  // a block not made yet
    }
  }
  if (!block) {
    const int err = allocate_picture(pic, pix_fmt_, bpc_, w_, h_, place_, shared_from_this());
    if (err) {
      std::lock_guard lock(mutex_);
      ++count_;
    }
    return err;
  }
  lay_out(pic, pix_fmt_, bpc_, w_, h_);
  return attach(pic, block, block_bytes(pic), place_, shared_from_this());
}

void PicturePool::give_back(void* block) {
  std::lock_guard lock(mutex_);
  free_.push_back(block);
}

}  // namespace exactvq::libvmaf_api

using exactvq::libvmaf_api::PictureMemory;

extern "C" int vmaf_picture_alloc(VmafPicture* pic, VmafPixelFormat pix_fmt, unsigned bpc,
                                  unsigned w, unsigned h) {
  if (!pic) return -EINVAL;
  return exactvq::libvmaf_api::allocate_picture(*pic, pix_fmt, bpc, w, h, {}, nullptr);
}

extern "C" int vmaf_picture_unref(VmafPicture* pic) {
  if (!pic || !pic->ref) return -EINVAL;
  if (pic->ref->count.fetch_sub(1) == 1) {
    auto* memory = static_cast<PictureMemory*>(pic->priv);
    if (memory) {
      if (memory->pool)
        memory->pool->give_back(memory->block);
      else
        exactvq::libvmaf_api::free_block(memory->block, memory->bytes, memory->place);
      delete memory;
    }
    delete pic->ref;
  }
  std::memset(pic, 0, sizeof *pic);
  return 0;
}
