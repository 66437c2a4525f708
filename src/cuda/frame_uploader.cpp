#include "cuda/frame_uploader.h"

#include <algorithm>

namespace exactvq::cuda {

FrameUploader::FrameUploader(const VideoFormat& format, int planes, int chunk_frames,
                             int batch_frames, bool background_pin, int ordinal)
    : format_(format),
      planes_(planes),
      chunk_frames_(chunk_frames),
      // both batches of the reader, reference and distorted, every plane
      registry_(size_t(4 * batch_frames * planes), background_pin, ordinal) {
  size_t offset = 0;
  for (int p = 0; p < planes_; ++p) {
    plane_offset_[p] = offset;
    offset += size_t(chunk_frames_) * format_.plane_bytes(p);
  }
}

void FrameUploader::upload(std::span<const FramePair> frames, bool pin,
                           const std::function<void(const Chunk&)>& work) {
  if (lanes_.empty()) {
    size_t bytes = 0;
    for (int p = 0; p < planes_; ++p) bytes += size_t(chunk_frames_) * format_.plane_bytes(p);
    // All lanes or none: a failed allocation leaves the uploader as it was.
    std::vector<std::unique_ptr<Lane>> lanes;
    for (int i = 0; i < kLanes; ++i) {
      auto lane = std::make_unique<Lane>();
      lane->ref = DeviceBuffer(bytes);
      lane->dist = DeviceBuffer(bytes);
      lanes.push_back(std::move(lane));
    }
    lanes_ = std::move(lanes);
  }
  if (pin)
    for (const FramePair& fp : frames)
      for (int p = 0; p < planes_; ++p) {
        registry_.pin(fp.ref->planes[p].data(), format_.plane_bytes(p));
        registry_.pin(fp.dist->planes[p].data(), format_.plane_bytes(p));
      }
  const int n = int(frames.size());
  int chunk_index = 0;
  for (int start = 0; start < n; ++chunk_index) {
    Chunk chunk;
    chunk.start = start;
    chunk.count = std::min(chunk_frames_, n - start);
    // Large frames only (chunks of a few): small ones are cheap to finish and
    // would cost a launch each.
    if (short_tail_ && chunk_frames_ <= 8 && n - start <= chunk_frames_) chunk.count = 1;
    chunk.lane = chunk_index % kLanes;
    chunk.first_index = frames[size_t(start)].index;
    if (frame_hook_)
      for (int i = 0; i < chunk.count; ++i) frame_hook_(frames[size_t(start + i)].index);
    Lane& lane = *lanes_[size_t(chunk.lane)];
    chunk.stream = lane.stream.get();
    for (int p = 0; p < planes_; ++p) {
      const size_t bytes = format_.plane_bytes(p);
      for (int i = 0; i < chunk.count; ++i) {
        const FramePair& fp = frames[size_t(start + i)];
        const size_t at = plane_offset_[p] + size_t(i) * bytes;
        check(cudaMemcpyAsync(lane.ref.get() + at, fp.ref->planes[p].data(), bytes,
                              cudaMemcpyHostToDevice, chunk.stream),
              "upload of a reference plane");
        check(cudaMemcpyAsync(lane.dist.get() + at, fp.dist->planes[p].data(), bytes,
                              cudaMemcpyHostToDevice, chunk.stream),
              "upload of a distorted plane");
      }
      DevicePlanes& d = chunk.planes[p];
      d.ref = lane.ref.get() + plane_offset_[p];
      d.dist = lane.dist.get() + plane_offset_[p];
      d.frame_stride = bytes;
      d.width = format_.plane_width(p);
      d.height = format_.plane_height(p);
      d.bitdepth = format_.bitdepth;
      d.frames = chunk.count;
    }
    work(chunk);
    start += chunk.count;
  }
}

void FrameUploader::synchronize() {
  for (auto& lane : lanes_) check(cudaStreamSynchronize(lane->stream.get()), "work on the GPU");
}

}  // namespace exactvq::cuda
