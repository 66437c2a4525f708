// Host picture blocks kept for reuse. A program that allocates a picture per
// frame and gives it back a few frames later (FFmpeg's libvmaf filter) would
// otherwise get fresh pages from the system for every picture and fault them
// in on its own thread; a block given back is kept here instead and handed to
// the next allocation of the same size.
//
// Blocks are kept only while a context is open, and at most kMaxKeptBytes and
// kMaxKeptBlocks of them; every kept block is freed when the last context
// closes and when the library is unloaded. A block is made only when none of
// its size is kept, so the blocks kept and in use together never outnumber the
// most that were in use at once.
#pragma once

#include <cstddef>

namespace exactvq::libvmaf_api {

inline constexpr size_t kMaxKeptBytes = size_t{1} << 30;
inline constexpr size_t kMaxKeptBlocks = 256;

// A kept block of exactly `bytes`, zeroed (the most recently kept: its pages
// are the likeliest to be in cache), or null.
void* take_kept_block(size_t bytes);

// Whether a block of `bytes` given back now would be kept (so that the caller
// prepares it, zeroing it, only then).
bool would_keep_block(size_t bytes);

// Keeps a host block of `bytes` (from std::aligned_alloc, zeroed) for
// take_kept_block; false when it is not kept (no context open, or the limits
// reached): the caller frees it.
bool keep_block(void* block, size_t bytes);

// Blocks are kept while one of these lives (a member of every VmafContext);
// the last one to go frees every kept block.
class BlockCacheUse {
 public:
  BlockCacheUse();
  ~BlockCacheUse();
  BlockCacheUse(const BlockCacheUse&) = delete;
  BlockCacheUse& operator=(const BlockCacheUse&) = delete;
};

}  // namespace exactvq::libvmaf_api
