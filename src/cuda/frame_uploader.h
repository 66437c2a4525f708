// Uploads the scored planes of a batch of frame pairs to the GPU on several
// streams ("lanes"), a few frames per chunk, so that one lane's copies overlap
// another lane's kernels. Features enqueue their work on each chunk's stream.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "cuda/cuda_resources.h"
#include "cuda/pinned_registry.h"
#include "cuda/ssim_kernels.h"
#include "features/feature.h"

namespace exactvq::cuda {

class FrameUploader {
 public:
  static constexpr int kLanes = 3;

  // Planes 0 .. planes-1 of `format`; chunks of at most `chunk_frames` frames.
  // `background_pin`, `ordinal`: see PinnedRegistry.
  FrameUploader(const VideoFormat& format, int planes, int chunk_frames, int batch_frames,
                bool background_pin = false, int ordinal = 0);

  int planes() const { return planes_; }
  int chunk_frames() const { return chunk_frames_; }
  // Splits the last chunk_frames() frames of each upload into chunks of one
  // (when chunks hold at most 8 frames, i.e. frames of 1 Mpixel or more), so
  // the GPU's work after the last copy (before the caller can wait and go on)
  // is one frame's.
  void set_short_tail(bool on) { short_tail_ = on; }
  // Asked before each frame is uploaded (fault injection); may be null.
  void set_frame_hook(std::function<void(int64_t frame)> hook) { frame_hook_ = std::move(hook); }

  struct Chunk {
    int start = 0;  // index in the batch of the chunk's first frame
    int count = 0;
    int lane = 0;
    int64_t first_index = 0;  // FramePair::index of the chunk's first frame
    cudaStream_t stream = nullptr;
    DevicePlanes planes[3];  // the chunk's frames, plane by plane, on the device
  };

  // Uploads `frames` chunk by chunk, calling work(chunk) after each chunk's
  // copies are enqueued on its stream. With `pin`, the pictures' storage is
  // page-locked and kept so (it must stay allocated and in place while this
  // uploader lives: FrameBatch pictures do).
  void upload(std::span<const FramePair> frames, bool pin,
              const std::function<void(const Chunk&)>& work);
  // Waits for everything enqueued on every lane.
  void synchronize();

 private:
  struct Lane {
    Stream stream;
    DeviceBuffer ref, dist;
  };

  VideoFormat format_;
  int planes_;
  int chunk_frames_;
  bool short_tail_ = false;
  size_t plane_offset_[3] = {};  // in a lane's buffers: where plane p's frames start
  std::function<void(int64_t)> frame_hook_;
  PinnedRegistry registry_;
  std::vector<std::unique_ptr<Lane>> lanes_;
};

}  // namespace exactvq::cuda
