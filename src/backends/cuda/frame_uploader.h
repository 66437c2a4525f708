// Uploads the scored planes of a batch of frame pairs to the GPU, a few frames
// per chunk, into the buffers of several streams ("lanes"), so that one chunk's
// copies overlap another lane's kernels. A picture's scored planes go in one
// copy (they lie back to back in a Picture), frame after frame in a lane's
// buffers. Features enqueue their work on each chunk's stream.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "backends/cuda/copy_trace.h"
#include "backends/cuda/cuda_resources.h"
#include "backends/cuda/pinned_registry.h"
#include "backends/cuda/device_planes.h"
#include "metrics/feature.h"

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
  // With `on` (the default), each chunk's host-to-device copies go to the
  // driver in one cudaMemcpyBatchAsync call where the driver has it (CUDA 12.8
  // and later), else one cudaMemcpyAsync per plane.
  void set_batched_copies(bool on) { batched_copies_ = on; }
  bool batched_copies() const { return batched_copies_; }
  // With `on` (the default), the chunks' copies go in order on one stream of
  // their own and a lane's work waits for its chunk's copies by an event, so
  // chunks arrive one after another in the order the lanes need them; off,
  // each chunk is copied on its lane and lanes' copies may share the link.
  // Measured end to end on an H200: the two within 0.3% of each other.
  void set_copy_stream(bool on) { copy_stream_on_ = on; }
  int64_t refused_batches() const { return refused_batches_; }  // chunks copied one by one instead
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
  // Waits for every copy and everything enqueued on every lane.
  void synchronize();
  // A lane's stream on which what is enqueued next runs after everything
  // enqueued so far on every lane (one read-back for a whole upload).
  cudaStream_t join_lanes();

 private:
  struct Lane {
    Stream stream;
    DeviceBuffer ref, dist;
    Event copied;    // the lane's chunk is on the device (recorded on the copy stream)
    Event released;  // the lane's work no longer reads its buffers
    Event joined;    // join_lanes(): the lane's work so far is done
  };

  // Enqueues the copies gathered in copy_dst_/copy_src_/copy_bytes_ on `stream`.
  void enqueue_copies(cudaStream_t stream);
  // Whether `picture`'s scored planes lie as Picture lays them out (format_'s
  // plane offsets from plane 0), so that one copy takes them all.
  bool one_copy(const Picture& picture) const;
  // Gathers the copies of `picture`'s scored planes to a lane frame's place.
  void add_copies(uint8_t* lane_frame, const Picture& picture);

  VideoFormat format_;
  int planes_;
  int chunk_frames_;
  bool short_tail_ = false;
  bool batched_copies_ = true;  // cleared for good if the driver lacks the batch call
  bool copy_stream_on_ = true;
  int64_t refused_batches_ = 0;
  std::vector<void*> copy_dst_;  // one chunk's copies, reused chunk after chunk
  std::vector<const void*> copy_src_;
  std::vector<size_t> copy_bytes_;
  bool copies_from_device_ = false;  // the chunk has pictures in device memory
  // A lane's buffers hold chunk_frames_ frames, frame_stride_ bytes apart;
  // plane p at plane_offset_[p] in each (as in a Picture); frame_bytes_ from
  // plane 0's start to the last scored plane's end.
  size_t frame_bytes_ = 0, frame_stride_ = 0;
  size_t plane_offset_[3] = {};
  std::function<void(int64_t)> frame_hook_;
  PinnedRegistry registry_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  std::unique_ptr<Stream> copies_;  // with the lanes
  int last_lane_ = 0;               // the lane of the last chunk uploaded
  std::unique_ptr<CopyTrace>
      trace_;  // EXACTVQ_CUDA_TRACE: the copy stream's timeline (copy_trace.h)
};

}  // namespace exactvq::cuda
