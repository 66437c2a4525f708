#include "backends/cuda/frame_uploader.h"

#include <algorithm>

namespace exactvq::cuda {

FrameUploader::FrameUploader(const VideoFormat& format, int planes, int chunk_frames,
                             int batch_frames, bool background_pin, int ordinal)
    : format_(format),
      planes_(planes),
      chunk_frames_(chunk_frames),
      // both batches of the reader, reference and distorted, every plane
      registry_(size_t(4 * batch_frames * planes), background_pin, ordinal) {
  if (CopyTrace::enabled()) trace_ = std::make_unique<CopyTrace>();
  // A frame's scored planes as a Picture holds them, so that a picture's go in
  // one copy; frames 64-byte aligned.
  frame_bytes_ = Picture::span_bytes(format_, planes_);
  frame_stride_ = (frame_bytes_ + 63) / 64 * 64;
  for (int p = 0; p < planes_; ++p) plane_offset_[p] = Picture::plane_offset(format_, p);
}

bool FrameUploader::one_copy(const Picture& picture) const {
  if (picture.format != format_) return false;
  for (int p = 1; p < planes_; ++p)
    if (picture.planes[p].data() != picture.planes[0].data() + plane_offset_[p]) return false;
  return true;
}

void FrameUploader::add_copies(uint8_t* lane_frame, const Picture& picture) {
  if (picture.on_device()) copies_from_device_ = true;
  if (one_copy(picture)) {
    copy_dst_.push_back(lane_frame);
    copy_src_.push_back(picture.planes[0].data());
    copy_bytes_.push_back(frame_bytes_);
    return;
  }
  for (int p = 0; p < planes_; ++p) {
    copy_dst_.push_back(lane_frame + plane_offset_[p]);
    copy_src_.push_back(picture.planes[p].data());
    copy_bytes_.push_back(format_.plane_bytes(p));
  }
}

void FrameUploader::upload(std::span<const FramePair> frames, bool pin,
                           const std::function<void(const Chunk&)>& work) {
  if (lanes_.empty()) {
    const size_t bytes = size_t(chunk_frames_) * frame_stride_;
    // All lanes or none: a failed allocation leaves the uploader as it was.
    std::vector<std::unique_ptr<Lane>> lanes;
    for (int i = 0; i < kLanes; ++i) {
      auto lane = std::make_unique<Lane>();
      lane->ref = DeviceBuffer(bytes);
      lane->dist = DeviceBuffer(bytes);
      lanes.push_back(std::move(lane));
    }
    auto copies = std::make_unique<Stream>();
    lanes_ = std::move(lanes);
    copies_ = std::move(copies);
  }
  if (trace_) trace_->upload_begin();
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
    // Each chunk's pictures are registered just before its copies, so that
    // the first copy of an upload starts as soon as it can.
    if (pin)
      for (int i = 0; i < chunk.count; ++i) {
        const FramePair& fp = frames[size_t(start + i)];
        if (!fp.ref->on_device()) registry_.pin(fp.ref->storage().data(), fp.ref->storage().size());
        if (!fp.dist->on_device())
          registry_.pin(fp.dist->storage().data(), fp.dist->storage().size());
      }
    if (trace_ && chunk_index == 0) trace_->pinned();
    Lane& lane = *lanes_[size_t(chunk.lane)];
    chunk.stream = lane.stream.get();
    copy_dst_.clear();
    copy_src_.clear();
    copy_bytes_.clear();
    copies_from_device_ = false;
    for (int i = 0; i < chunk.count; ++i) {
      const FramePair& fp = frames[size_t(start + i)];
      add_copies(lane.ref.get() + size_t(i) * frame_stride_, *fp.ref);
      add_copies(lane.dist.get() + size_t(i) * frame_stride_, *fp.dist);
    }
    if (copy_stream_on_) {
      // The copy waits until the lane's last chunk is done with its buffers (an
      // event never recorded: no wait); the lane's work waits for the copy.
      check(cudaStreamWaitEvent(copies_->get(), lane.released.get(), 0), "cudaStreamWaitEvent");
      if (trace_) trace_->copies_begin(copies_->get());
      enqueue_copies(copies_->get());
      if (trace_) {
        size_t bytes = 0;
        for (size_t b : copy_bytes_) bytes += b;
        trace_->copies_end(copies_->get(), bytes);
      }
      check(cudaEventRecord(lane.copied.get(), copies_->get()), "cudaEventRecord");
      check(cudaStreamWaitEvent(chunk.stream, lane.copied.get(), 0), "cudaStreamWaitEvent");
    } else {
      enqueue_copies(chunk.stream);
    }
    for (int p = 0; p < planes_; ++p) {
      DevicePlanes& d = chunk.planes[p];
      d.ref = lane.ref.get() + plane_offset_[p];
      d.dist = lane.dist.get() + plane_offset_[p];
      d.frame_stride = frame_stride_;
      d.width = format_.plane_width(p);
      d.height = format_.plane_height(p);
      d.bitdepth = format_.bitdepth;
      d.frames = chunk.count;
    }
    if (trace_ && copy_stream_on_) trace_->work_begin(chunk.stream);
    work(chunk);
    if (trace_ && copy_stream_on_) trace_->work_end(chunk.stream);
    if (copy_stream_on_)
      check(cudaEventRecord(lane.released.get(), chunk.stream), "cudaEventRecord");
    start += chunk.count;
    last_lane_ = chunk.lane;
  }
  if (trace_) trace_->upload_end();
}

void FrameUploader::enqueue_copies(cudaStream_t stream) {
  const size_t n = copy_dst_.size();
  if (copies_from_device_) {
    // Pictures in device memory (some or all of the chunk's): the driver tells
    // each copy's direction from its pointers.
    for (size_t i = 0; i < n; ++i)
      check(cudaMemcpyAsync(copy_dst_[i], copy_src_[i], copy_bytes_[i], cudaMemcpyDefault, stream),
            "copy of a plane");
    return;
  }
  if (batched_copies_ && n > 1) {
    // One submission for the chunk: each cudaMemcpyAsync costs the copy engine
    // time of its own, a few percent of a 1080p plane's copy.
    cudaMemcpyAttributes attr{};
    attr.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    size_t first = 0;
    const cudaError_t e = cudaMemcpyBatchAsync(copy_dst_.data(), copy_src_.data(),
                                               copy_bytes_.data(), n, &attr, &first, 1, stream);
    if (e == cudaSuccess) return;
    // Refused: this chunk goes one copy per plane, and every chunk from now on
    // if the driver lacks the call (before 12.8). A real fault (a bad pointer,
    // a lost device) fails those copies too and is reported there.
    cudaGetLastError();
    ++refused_batches_;
    if (e == cudaErrorNotSupported || e == cudaErrorCallRequiresNewerDriver)
      batched_copies_ = false;
  }
  for (size_t i = 0; i < n; ++i)
    check(
        cudaMemcpyAsync(copy_dst_[i], copy_src_[i], copy_bytes_[i], cudaMemcpyHostToDevice, stream),
        "upload of a plane");
}

cudaStream_t FrameUploader::join_lanes() {
  if (lanes_.empty()) return nullptr;
  const cudaStream_t last = lanes_[size_t(last_lane_)]->stream.get();
  for (size_t i = 0; i < lanes_.size(); ++i) {
    if (int(i) == last_lane_) continue;
    Lane& lane = *lanes_[i];
    check(cudaEventRecord(lane.joined.get(), lane.stream.get()), "cudaEventRecord");
    check(cudaStreamWaitEvent(last, lane.joined.get(), 0), "cudaStreamWaitEvent");
  }
  return last;
}

void FrameUploader::synchronize() {
  if (trace_) trace_->sync_begin();
  if (copies_) check(cudaStreamSynchronize(copies_->get()), "uploads to the GPU");
  for (auto& lane : lanes_) check(cudaStreamSynchronize(lane->stream.get()), "work on the GPU");
  if (trace_) trace_->fold();
}

}  // namespace exactvq::cuda
