// The psnr engine on a CUDA device: the SSE of each plane on the GPU, on the
// frames the device's runner uploads once for every engine of the run.
#include <algorithm>
#include <vector>

#include "backends/cuda/batch_runner.h"
#include "backends/cuda/cuda_device.h"
#include "metrics/psnr/cuda/sse_kernel.h"
#include "metrics/psnr/engine.h"

namespace exactvq::psnr::cuda {

using exactvq::cuda::BatchRunner;
using exactvq::cuda::check;
using exactvq::cuda::CudaDevice;
using exactvq::cuda::DeviceBuffer;
using exactvq::cuda::DevicePlanes;
using exactvq::cuda::FrameUploader;
using exactvq::cuda::PinnedBuffer;

namespace {


class CudaEngine final : public Engine, private BatchRunner::Work {
 public:
  CudaEngine(const EngineSetup& s, std::shared_ptr<BatchRunner> runner)
      : planes_(s.planes), runner_(std::move(runner)) {
    const VideoFormat& f = s.format;
    batch_ = runner_->tuning().batch_frames(int64_t(f.frame_bytes()));
    chunk_ = runner_->tuning().chunk_frames(int64_t{f.width} * f.height);
    runner_->add(this);
  }
  ~CudaEngine() override { runner_->remove(this); }

  int batch_frames() const override { return batch_; }
  bool takes_device_pictures() const override { return true; }

  // Numbered pairs are page-locked and shared with the run's other engines on
  // this device; a loose pair is copied from pageable memory, for this engine alone.
  void score(std::span<const FramePair> frames, std::span<uint64_t> out) override {
    if (frames.empty()) return;
    runner_->run(this, frames, !frames[0].loose(), !frames[0].loose());
    std::copy_n(sse_.begin(), std::min(out.size(), sse_.size()), out.begin());
  }

 private:
  // BatchRunner::Work
  int planes() const override { return planes_; }
  int chunk_frames() const override { return chunk_; }

  void begin(size_t frames) override {
    if (!device_sse_.get()) {
      host_sse_ = PinnedBuffer(size_t(batch_) * planes_ * sizeof(uint64_t));
      device_sse_ = DeviceBuffer(size_t(batch_) * planes_ * sizeof(uint64_t));  // last: the flag
    }
    sse_.assign(frames * size_t(planes_), 0);
  }

  // [frame][plane], as the engine's output.
  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    uint64_t* sums = device_sse_.get<uint64_t>() + size_t(chunk.start) * planes_;
    const size_t bytes = size_t(chunk.count) * planes_ * sizeof(uint64_t);
    check(cudaMemsetAsync(sums, 0, bytes, chunk.stream), "cudaMemsetAsync");
    for (int p = 0; p < planes_; ++p)
      for (int i = 0; i < chunk.count; ++i) {
        DevicePlanes one = chunk.planes[p];
        one.ref = static_cast<const unsigned char*>(one.ref) + size_t(i) * one.frame_stride;
        one.dist = static_cast<const unsigned char*>(one.dist) + size_t(i) * one.frame_stride;
        one.frames = 1;
        launch_sse(one, sums + size_t(i) * planes_ + p, chunk.stream);
      }
  }

  void finish(size_t base, size_t count, FrameUploader& uploader) override {
    const size_t planes = size_t(planes_);
    // One read-back for the batch, after every lane's work.
    check(cudaMemcpyAsync(host_sse_.get(), device_sse_.get(), count * planes * sizeof(uint64_t),
                          cudaMemcpyDeviceToHost, uploader.join_lanes()),
          "read-back of the SSE");
    uploader.synchronize();
    std::copy_n(host_sse_.get<uint64_t>(), count * planes, sse_.begin() + ptrdiff_t(base * planes));
  }

  int planes_ = 1;
  std::shared_ptr<BatchRunner> runner_;
  int batch_ = 1;
  int chunk_ = 1;
  std::vector<uint64_t> sse_;  // the run's SSE, [frame][plane]
  DeviceBuffer device_sse_;    // [frame of the batch][plane]
  PinnedBuffer host_sse_;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<CudaEngine>(setup, CudaDevice::of(device).runner(setup.format));
}

}  // namespace exactvq::psnr::cuda
