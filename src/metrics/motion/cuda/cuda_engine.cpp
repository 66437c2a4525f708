// The motion engine on a CUDA device: each frame's SAD on the GPU, on the
// frames the device's runner uploads once for every engine of the run. The
// reference pictures a frame compares with stay on the device: inside a chunk
// they are the chunk's own frames; before it, a ring of the last
// frame_distance() reference pictures, which each chunk reads and then
// refills. Chunks run on several streams, so each chunk's motion work waits
// for the previous chunk's (an event): the ring changes in the run's order.
#include <algorithm>
#include <vector>

#include "backends/cuda/batch_runner.h"
#include "backends/cuda/cuda_device.h"
#include "metrics/motion/cuda/sad_kernel.h"
#include "metrics/motion/engine.h"

namespace exactvq::motion::cuda {

using exactvq::cuda::BatchRunner;
using exactvq::cuda::check;
using exactvq::cuda::CudaDevice;
using exactvq::cuda::DeviceBuffer;
using exactvq::cuda::Event;
using exactvq::cuda::FrameUploader;
using exactvq::cuda::PinnedBuffer;

namespace {


class CudaEngine final : public Engine, private BatchRunner::Work {
 public:
  CudaEngine(const EngineSetup& s, std::shared_ptr<BatchRunner> runner)
      : setup_(s), runner_(std::move(runner)), distance_(frame_distance(s.options)) {
    const VideoFormat& f = s.format;
    batch_ = runner_->tuning().batch_frames(int64_t(f.frame_bytes()));
    chunk_ = runner_->tuning().chunk_frames(int64_t{f.width} * f.height);
    plane_bytes_ = size_t(f.width) * size_t(f.height) * (f.bitdepth > 8 ? 2 : 1);
    runner_->add(this);
  }
  ~CudaEngine() override { runner_->remove(this); }

  int batch_frames() const override { return batch_; }
  bool takes_device_pictures() const override { return true; }

  void hold(std::span<const FramePair> before) override {
    check(cudaSetDevice(runner_->ordinal()), "cudaSetDevice");
    allocate();
    held_count_ = 0;
    const size_t row_bytes = size_t(setup_.format.width) * (setup_.format.bitdepth > 8 ? 2 : 1);
    const size_t first = before.size() > size_t(distance_) ? before.size() - size_t(distance_) : 0;
    for (size_t i = first; i < before.size(); ++i) {
      const PlaneView p = before[i].ref->plane(0);
      // The ring's last entries hold the given pictures, the last one last.
      const size_t slot = size_t(distance_) - (before.size() - i);
      check(cudaMemcpy2D(ring_.get() + slot * plane_bytes_, row_bytes, p.data, size_t(p.stride), row_bytes,
                         size_t(p.height), cudaMemcpyDefault),
            "upload of the pictures motion compares with");
      ++held_count_;
    }
  }

  void score(std::span<const FramePair> frames, std::span<uint64_t> out) override {
    if (frames.empty()) return;
    runner_->run(this, frames, !frames[0].loose(), !frames[0].loose());
    std::copy_n(sads_.begin(), std::min(out.size(), sads_.size()), out.begin());
  }

 private:
  void allocate() {
    if (ring_.get()) return;
    ring_ = DeviceBuffer(plane_bytes_ * size_t(distance_));
    device_sads_ = DeviceBuffer(size_t(batch_) * sizeof(uint64_t));
    host_sads_ = PinnedBuffer(size_t(batch_) * sizeof(uint64_t));
    chain_ = std::make_unique<Event>();
  }

  // BatchRunner::Work
  int planes() const override { return 1; }
  int chunk_frames() const override { return chunk_; }
  bool joins_others() const override { return false; }

  void begin(size_t frames) override {
    allocate();
    sads_.assign(frames, 0);
  }

  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    cudaStream_t stream = chunk.stream;
    if (chained_) check(cudaStreamWaitEvent(stream, chain_->get(), 0), "cudaStreamWaitEvent");
    uint64_t* sads = device_sads_.get<uint64_t>() + chunk.start;
    check(cudaMemsetAsync(sads, 0, size_t(chunk.count) * sizeof(uint64_t), stream), "cudaMemsetAsync");
    const exactvq::cuda::DevicePlanes& luma = chunk.planes[0];
    const auto frame = [&](int i) {
      return static_cast<const unsigned char*>(luma.ref) + size_t(i) * luma.frame_stride;
    };
    const VideoFormat& f = setup_.format;
    for (int i = 0; i < chunk.count; ++i) {
      const int back = i - distance_;
      // Ring slot distance_ + back holds the picture -back frames before the chunk.
      if (back < 0 && distance_ + back < distance_ - held_count_) continue;
      const void* prev = back >= 0 ? frame(back) : ring_.get() + size_t(distance_ + back) * plane_bytes_;
      launch_motion_sad(prev, frame(i), f.width, f.height, f.bitdepth, sads + i, stream);
    }
    // The ring keeps the last distance_ pictures of the run so far.
    unsigned char* ring = ring_.get();
    const int keep_old = std::max(0, distance_ - chunk.count);
    if (keep_old > 0)
      check(cudaMemcpyAsync(ring, ring + size_t(distance_ - keep_old) * plane_bytes_,
                            size_t(keep_old) * plane_bytes_, cudaMemcpyDeviceToDevice, stream),
            "motion ring shift");
    for (int slot = keep_old; slot < distance_; ++slot) {
      const int i = chunk.count - (distance_ - slot);
      check(cudaMemcpyAsync(ring + size_t(slot) * plane_bytes_, frame(i), plane_bytes_, cudaMemcpyDeviceToDevice,
                            stream),
            "motion ring copy");
    }
    held_count_ = std::min(distance_, held_count_ + chunk.count);
    check(cudaEventRecord(chain_->get(), stream), "cudaEventRecord");
    chained_ = true;
  }

  void finish(size_t base, size_t count, FrameUploader& uploader) override {
    check(cudaMemcpyAsync(host_sads_.get(), device_sads_.get(), count * sizeof(uint64_t), cudaMemcpyDeviceToHost,
                          uploader.join_lanes()),
          "read-back of the motion SADs");
    uploader.synchronize();
    std::copy_n(host_sads_.get<uint64_t>(), count, sads_.begin() + ptrdiff_t(base));
  }

  EngineSetup setup_;
  std::shared_ptr<BatchRunner> runner_;
  int distance_;
  int batch_ = 1;
  int chunk_ = 1;
  size_t plane_bytes_ = 0;
  int held_count_ = 0;  // valid pictures at the end of the ring
  bool chained_ = false;
  std::vector<uint64_t> sads_;  // the run's, [frame]
  DeviceBuffer ring_;           // distance_ reference pictures, oldest first
  DeviceBuffer device_sads_;    // [frame of the batch]
  PinnedBuffer host_sads_;
  std::unique_ptr<Event> chain_;  // the last chunk's motion work done
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& d, const EngineSetup& setup) {
  CudaDevice& device = CudaDevice::of(d);
  return std::make_unique<CudaEngine>(setup, device.runner(setup.format));
}

}  // namespace exactvq::motion::cuda
