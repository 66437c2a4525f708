#include "libvmaf_api/block_cache.h"

#include <cstdlib>
#include <mutex>
#include <vector>

namespace exactvq::libvmaf_api {

namespace {

class BlockCache {
 public:
  void* take(size_t bytes) {
    std::lock_guard lock(mutex_);
    for (Bin& bin : bins_)
      if (bin.bytes == bytes && !bin.blocks.empty()) {
        void* block = bin.blocks.back();
        bin.blocks.pop_back();
        kept_bytes_ -= bytes;
        --kept_blocks_;
        return block;
      }
    return nullptr;
  }

  bool would_keep(size_t bytes) {
    std::lock_guard lock(mutex_);
    return room_for(bytes);
  }

  bool keep(void* block, size_t bytes) {
    std::lock_guard lock(mutex_);
    if (!room_for(bytes)) return false;
    try {
      bin_of(bytes).blocks.push_back(block);
    } catch (...) {
      return false;  // out of memory for the list: the block is freed instead
    }
    kept_bytes_ += bytes;
    ++kept_blocks_;
    return true;
  }

  void add_user() {
    std::lock_guard lock(mutex_);
    ++users_;
  }

  void remove_user() {
    std::lock_guard lock(mutex_);
    if (--users_ == 0) free_all();
  }

  void unload() {
    std::lock_guard lock(mutex_);
    unloaded_ = true;
    free_all();
  }

 private:
  struct Bin {
    size_t bytes = 0;
    std::vector<void*> blocks;
  };

  bool room_for(size_t bytes) const {
    return users_ > 0 && !unloaded_ && kept_blocks_ < kMaxKeptBlocks &&
           bytes <= kMaxKeptBytes - kept_bytes_;
  }

  // A program uses one or two picture sizes: a short list, searched in order.
  Bin& bin_of(size_t bytes) {
    for (Bin& bin : bins_)
      if (bin.bytes == bytes) return bin;
    // An empty bin of another size is taken over before the list grows.
    for (Bin& bin : bins_)
      if (bin.blocks.empty()) {
        bin.bytes = bytes;
        return bin;
      }
    bins_.push_back({bytes, {}});
    return bins_.back();
  }

  void free_all() {
    for (Bin& bin : bins_)
      for (void* block : bin.blocks) std::free(block);
    bins_.clear();
    kept_bytes_ = 0;
    kept_blocks_ = 0;
  }

  std::mutex mutex_;
  std::vector<Bin> bins_;
  size_t kept_bytes_ = 0, kept_blocks_ = 0;
  long users_ = 0;
  bool unloaded_ = false;
};

// Never destroyed, so that a picture given back during the program's exit
// (after static destructors ran) still finds it; its blocks are freed at unload.
BlockCache& cache() {
  static auto* const c = new BlockCache;
  return *c;
}

[[gnu::destructor]] void free_kept_blocks_at_unload() { cache().unload(); }

}  // namespace

void* take_kept_block(size_t bytes) { return cache().take(bytes); }

bool would_keep_block(size_t bytes) { return cache().would_keep(bytes); }

bool keep_block(void* block, size_t bytes) { return cache().keep(block, bytes); }

BlockCacheUse::BlockCacheUse() { cache().add_user(); }

BlockCacheUse::~BlockCacheUse() { cache().remove_user(); }

}  // namespace exactvq::libvmaf_api
