// The ssim engine on a CUDA device: frames uploaded on several streams once for
// every engine of the run (backends/cuda/batch_runner.h), several frames in
// flight, each plane's exact sum reduced on the GPU; in raster mode the term
// planes come back and host threads add them in raster order.
#include <algorithm>
#include <vector>

#include "backends/cuda/batch_runner.h"
#include "backends/cuda/cuda_device.h"
#include "metrics/ssim/cuda/ssim_kernels.h"
#include "metrics/ssim/engine.h"
#include "metrics/ssim/raster_sum.h"

namespace exactvq::ssim {

using cuda::BatchRunner;
using cuda::check;
using cuda::CudaDevice;
using cuda::DeviceBuffer;
using cuda::DevicePlanes;
using cuda::Event;
using cuda::ExactWords;
using cuda::FrameUploader;
using cuda::PinnedBuffer;
using cuda::PipelineTuning;

namespace {

// Page-locked memory for the term planes of one raster batch: the host adds a
// 4K plane in ~9 ms, so many frames must be in flight to keep the GPU fed.
constexpr int64_t kRasterBytes = int64_t{2} << 30;

struct Shape {
  int chunk_frames, batch;
};

Shape shape_of(const EngineSetup& s, int64_t scored_pixels, const PipelineTuning& tuning) {
  const VideoFormat& f = s.format;
  const int64_t luma = int64_t{f.width} * f.height;
  if (s.mode == SumMode::kExact) {
    return {tuning.chunk_frames(luma), tuning.batch_frames(int64_t(f.frame_bytes()))};
  }
  const int threads = s.pool ? s.pool->size() : 1;
  const int64_t by_memory = std::max<int64_t>(1, kRasterBytes / (scored_pixels * 8));
  return {1, int(std::clamp<int64_t>(by_memory, 1, std::max(2 * threads, FrameUploader::kLanes)))};
}

class CudaEngine final : public Engine, private BatchRunner::Work {
 public:
  CudaEngine(const EngineSetup& s, std::shared_ptr<BatchRunner> runner, bool emulate)
      : setup_(s), runner_(std::move(runner)), emulate_(emulate) {
    const VideoFormat& f = s.format;
    planes_ = s.planes;
    for (int p = 0; p < planes_; ++p) {
      pixel_offset_[p] = terms_pixels_;
      plane_pixels_[p] = int64_t{f.plane_width(p)} * f.plane_height(p);
      terms_pixels_ += plane_pixels_[p];
    }
    const Shape shape = shape_of(s, terms_pixels_, runner_->tuning());
    batch_ = shape.batch;
    chunk_ = shape.chunk_frames;
    runner_->add(this);
  }
  ~CudaEngine() override { runner_->remove(this); }

  int batch_frames() const override { return batch_; }
  // Raster: the host threads add a batch's term planes side by side.
  bool needs_full_batches() const override { return setup_.mode == SumMode::kRaster; }
  bool takes_device_pictures() const override { return true; }

  // Numbered pairs are page-locked and shared with the run's other engines on
  // this device; a loose pair is copied from pageable memory, for this engine alone.
  void exact_sums(std::span<const FramePair> frames, std::span<int128> out) override {
    if (frames.empty()) return;
    runner_->run(this, frames, !frames[0].loose(), !frames[0].loose());
    std::copy_n(fixed_.begin(), std::min(out.size(), fixed_.size()), out.begin());
  }

  void raster_sums(std::span<const FramePair> frames, std::span<double> out) override {
    if (frames.empty()) return;
    runner_->run(this, frames, !frames[0].loose(), !frames[0].loose());
    std::copy_n(raster_.begin(), std::min(out.size(), raster_.size()), out.begin());
  }

 private:
  // BatchRunner::Work
  int planes() const override { return planes_; }
  int chunk_frames() const override { return chunk_; }

  void begin(size_t frames) override {
    allocate();
    if (setup_.mode == SumMode::kExact) fixed_.assign(frames * size_t(planes_), 0);
    else raster_.assign(frames * size_t(planes_), 0.0);
  }

  // Device and page-locked buffers, at the first frame (not in the constructor:
  // features are made before the run knows it has frames).
  void allocate() {
    if (setup_.mode == SumMode::kExact && !device_sums_.get()) {
      host_sums_ = PinnedBuffer(size_t(batch_) * planes_ * sizeof(ExactWords));
      device_sums_ = DeviceBuffer(size_t(batch_) * planes_ * sizeof(ExactWords));  // last: the flag
    }
    if (setup_.mode == SumMode::kRaster && lane_terms_.empty()) {
      std::vector<DeviceBuffer> lanes;
      for (int i = 0; i < FrameUploader::kLanes; ++i)
        lanes.emplace_back(size_t(terms_pixels_) * sizeof(double));
      host_terms_ = PinnedBuffer(size_t(batch_) * size_t(terms_pixels_) * sizeof(double));
      frame_done_.clear();
      for (int i = 0; i < batch_; ++i) frame_done_.push_back(std::make_unique<Event>());
      lane_terms_ = std::move(lanes);  // last: set only when everything above exists
    }
  }

  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    const bool exact = setup_.mode == SumMode::kExact;
    const cudaStream_t s = chunk.stream;
    for (int p = 0; p < planes_; ++p) {
      DevicePlanes planes = chunk.planes[p];
      planes.emulate_fp64 = emulate_;
      if (exact) {
        ExactWords* sums = device_sums_.get<ExactWords>() + size_t(p) * batch_ + chunk.start;
        check(cudaMemsetAsync(sums, 0, size_t(chunk.count) * sizeof(ExactWords), s), "cudaMemsetAsync");
        launch_exact(planes, sums, s);
      } else {  // chunks of one frame
        double* terms = lane_terms_[size_t(chunk.lane)].get<double>() + pixel_offset_[p];
        launch_terms(planes, terms, s);
        double* host = host_terms_.get<double>() + size_t(chunk.start) * terms_pixels_ + pixel_offset_[p];
        check(cudaMemcpyAsync(host, terms, size_t(plane_pixels_[p]) * sizeof(double),
                              cudaMemcpyDeviceToHost, s),
              "read-back of a term plane");
      }
    }
    if (!exact) check(cudaEventRecord(frame_done_[size_t(chunk.start)]->get(), s), "cudaEventRecord");
  }

  void finish(size_t base, size_t count, FrameUploader& uploader) override {
    const int n = int(count);
    if (setup_.mode == SumMode::kExact) {
      int128* out = fixed_.data() + base * size_t(planes_);
      // One read-back for the batch, after every lane's work.
      check(cudaMemcpyAsync(host_sums_.get(), device_sums_.get(), size_t(batch_) * planes_ * sizeof(ExactWords),
                            cudaMemcpyDeviceToHost, uploader.join_lanes()),
            "read-back of the sums");
      uploader.synchronize();
      const auto* hsums = host_sums_.get<ExactWords>();
      for (int i = 0; i < n; ++i)
        for (int p = 0; p < planes_; ++p) {
          const ExactWords& w = hsums[size_t(p) * batch_ + i];
          out[size_t(i * planes_ + p)] = static_cast<int128>((static_cast<uint128>(w.hi) << 64) | w.lo);
        }
      return;
    }
    // Raster: each frame's planes are added on host threads, in raster order,
    // as they arrive.
    double* out = raster_.data() + base * size_t(planes_);
    const int device = runner_->ordinal();
    auto add_plane = [&](int task) {
      const int i = task / planes_, p = task % planes_;
      check(cudaSetDevice(device), "cudaSetDevice");
      check(cudaEventSynchronize(frame_done_[size_t(i)]->get()), "SSIM terms on the GPU");
      const double* t = host_terms_.get<double>() + size_t(i) * terms_pixels_ + pixel_offset_[p];
      out[size_t(task)] = add_in_raster_order(0.0, t, size_t(plane_pixels_[p]));
    };
    if (setup_.pool) setup_.pool->parallel_for(n * planes_, add_plane);
    else for (int task = 0; task < n * planes_; ++task) add_plane(task);
  }

  EngineSetup setup_;
  std::shared_ptr<BatchRunner> runner_;
  bool emulate_;
  int planes_ = 1;
  int64_t pixel_offset_[3] = {};  // in a frame's terms
  int64_t plane_pixels_[3] = {};
  int64_t terms_pixels_ = 0;  // all scored planes of one frame
  int batch_ = 1;
  int chunk_ = 1;
  std::vector<int128> fixed_;   // exact: the run's sums, [frame][plane]
  std::vector<double> raster_;  // raster: the run's sums, [frame][plane]
  DeviceBuffer device_sums_;  // exact: [plane][frame of the batch]
  PinnedBuffer host_sums_;
  std::vector<DeviceBuffer> lane_terms_;  // raster: one frame's terms per lane
  PinnedBuffer host_terms_;               // raster: [frame of the batch][scored pixels]
  std::vector<std::unique_ptr<Event>> frame_done_;
};

}  // namespace

std::unique_ptr<Engine> make_cuda_engine(CudaDevice& device, const EngineSetup& setup) {
  const bool emulate = setup.fp64 == Fp64Mode::kEmulate ||
                       (setup.fp64 == Fp64Mode::kAuto && device.emulate_by_default());
  return std::make_unique<CudaEngine>(setup, device.runner(setup.format), emulate);
}

}  // namespace exactvq::ssim
