// The motion engine on a CUDA device: each frame's SAD on the GPU, on the
// frames the device's runner uploads once for every engine of the run. The
// reference pictures a frame compares with stay on the device: inside a chunk
// they are the chunk's own frames; before it, a ring of the last
// frame_distance() reference pictures, which each chunk reads and then
// refills. Chunks run on several streams, so each chunk's motion work waits
// for the previous chunk's (an event): the ring changes in the run's order.
#include <algorithm>
#include <vector>

#include "backends/cuda/cuda_device.h"
#include "backends/cuda/runner_engine.h"
#include "metrics/motion/cuda/sad_kernel.h"
#include "metrics/motion/engine.h"

namespace exactvq::motion::cuda {

using namespace exactvq::cuda;  // the backend's plumbing that every engine uses

namespace {

// SADs [frame of the batch].
class CudaEngine final : public RunnerEngine<Engine, uint64_t> {
 public:
  CudaEngine(const EngineSetup& s, CudaDevice& device)
      : RunnerEngine(device, s.format, 1, 1, "the motion SADs"),
        setup_(s),
        distance_(frame_distance(s.options)) {
    const VideoFormat& f = s.format;
    plane_bytes_ = size_t(f.width) * size_t(f.height) * (f.bitdepth > 8 ? 2 : 1);
    join(1);
  }

  void hold(std::span<const FramePair> before) override {
    check(cudaSetDevice(runner().ordinal()), "cudaSetDevice");
    ensure_buffers();
    held_count_ = 0;
    const size_t row_bytes = size_t(setup_.format.width) * (setup_.format.bitdepth > 8 ? 2 : 1);
    const size_t first = before.size() > size_t(distance_) ? before.size() - size_t(distance_) : 0;
    for (size_t i = first; i < before.size(); ++i) {
      const PlaneView p = before[i].ref->plane(0);
      // The ring's last entries hold the given pictures, the last one last.
      const size_t slot = size_t(distance_) - (before.size() - i);
      check(cudaMemcpy2D(ring_.get() + slot * plane_bytes_, row_bytes, p.data, size_t(p.stride),
                         row_bytes, size_t(p.height), cudaMemcpyDefault),
            "upload of the pictures motion compares with");
      ++held_count_;
    }
    // Pageable copies may still be in flight, and the engine's stream does not wait for them.
    check(cudaDeviceSynchronize(), "upload of the pictures motion compares with");
  }

 private:
  void allocate() override {
    ring_ = DeviceBuffer(plane_bytes_ * size_t(distance_));
    chain_ = std::make_unique<Event>();
  }

  bool joins_others() const override { return false; }

  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    cudaStream_t stream = chunk.stream;
    if (chained_) check(cudaStreamWaitEvent(stream, chain_->get(), 0), "cudaStreamWaitEvent");
    uint64_t* sads = cleared_rows(chunk);
    const DevicePlanes& luma = chunk.planes[0];
    const auto frame = [&](int i) {
      return static_cast<const unsigned char*>(luma.ref) + size_t(i) * luma.frame_stride;
    };
    const VideoFormat& f = setup_.format;
    for (int i = 0; i < chunk.count; ++i) {
      const int back = i - distance_;
      // Ring slot distance_ + back holds the picture -back frames before the chunk.
      if (back < 0 && distance_ + back < distance_ - held_count_) continue;
      const void* prev =
          back >= 0 ? frame(back) : ring_.get() + size_t(distance_ + back) * plane_bytes_;
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
      check(cudaMemcpyAsync(ring + size_t(slot) * plane_bytes_, frame(i), plane_bytes_,
                            cudaMemcpyDeviceToDevice, stream),
            "motion ring copy");
    }
    held_count_ = std::min(distance_, held_count_ + chunk.count);
    check(cudaEventRecord(chain_->get(), stream), "cudaEventRecord");
    chained_ = true;
  }

  void to_values(const uint64_t* words, size_t count, uint64_t* out) override {
    std::copy_n(words, count, out);
  }

  EngineSetup setup_;
  int distance_;
  size_t plane_bytes_ = 0;
  int held_count_ = 0;  // valid pictures at the end of the ring
  bool chained_ = false;
  DeviceBuffer ring_;             // distance_ reference pictures, oldest first
  std::unique_ptr<Event> chain_;  // the last chunk's motion work done
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<CudaEngine>(setup, CudaDevice::of(device));
}

}  // namespace exactvq::motion::cuda
