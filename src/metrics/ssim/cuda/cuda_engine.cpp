// The ssim engine on a CUDA device: frames uploaded on several streams once for
// every engine of the run (backends/cuda/batch_runner.h), several frames in
// flight, each plane's exact sum reduced on the GPU; in raster mode the term
// planes stay on the GPU and are added there in raster order
// (backends/cuda/raster_sum.h), and only the sums come back.
#include <algorithm>
#include <vector>

#include "backends/cuda/batch_runner.h"
#include "backends/cuda/cuda_device.h"
#include "backends/cuda/raster_sum.h"
#include "metrics/ssim/cuda/ssim_kernels.h"
#include "metrics/ssim/engine.h"

namespace exactvq::ssim::cuda {

using exactvq::cuda::BatchRunner;
using exactvq::cuda::check;
using exactvq::cuda::CudaDevice;
using exactvq::cuda::DeviceBuffer;
using exactvq::cuda::FrameUploader;
using exactvq::cuda::PinnedBuffer;
using exactvq::cuda::PipelineTuning;
using exactvq::cuda::RasterSumLayout;

namespace {

struct Shape {
  int chunk_frames, batch;
};

// Both modes: the tuning's chunks and batches (raster keeps a chunk's term planes on the
// device, 8 bytes a scored pixel, per lane).
Shape shape_of(const EngineSetup& s, const PipelineTuning& tuning) {
  const VideoFormat& f = s.format;
  const int64_t luma = int64_t{f.width} * f.height;
  return {tuning.chunk_frames(luma), tuning.batch_frames(int64_t(f.frame_bytes()))};
}

class CudaEngine final : public SumEngine, private BatchRunner::Work {
 public:
  CudaEngine(const EngineSetup& s, std::shared_ptr<BatchRunner> runner, bool emulate)
      : SumEngine(s.mode), setup_(s), runner_(std::move(runner)), emulate_(emulate) {
    const VideoFormat& f = s.format;
    planes_ = s.planes;
    for (int p = 0; p < planes_; ++p) {
      pixel_offset_[p] = terms_pixels_;
      plane_pixels_[p] = int64_t{f.plane_width(p)} * f.plane_height(p);
      terms_pixels_ += plane_pixels_[p];
    }
    const Shape shape = shape_of(s, runner_->tuning());
    batch_ = shape.batch;
    chunk_ = shape.chunk_frames;
    runner_->add(this);
  }
  ~CudaEngine() override { runner_->remove(this); }

  int batch_frames() const override { return batch_; }
  bool takes_device_pictures() const override { return true; }

 private:
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

  // BatchRunner::Work
  int planes() const override { return planes_; }
  int chunk_frames() const override { return chunk_; }

  void begin(size_t frames) override {
    allocate();
    if (setup_.mode == SumMode::kExact) fixed_.assign(frames * size_t(planes_), 0);
    else raster_.assign(frames * size_t(planes_), 0.0);
  }

  // Raster: a chunk's term planes in a lane's buffer, plane after plane, each plane's
  // frames one after another (as launch_terms writes them).
  RasterSumLayout raster_layout(int frames) const {
    RasterSumLayout layout;
    layout.frames = frames;
    layout.arrays = planes_;
    for (int p = 0; p < planes_; ++p)
      layout.array[p] = {int64_t(chunk_) * pixel_offset_[p], plane_pixels_[p], plane_pixels_[p]};
    return layout;
  }

  // Device and page-locked buffers, at the first frame (not in the constructor:
  // features are made before the run knows it has frames).
  void allocate() {
    if (setup_.mode == SumMode::kExact && !device_sums_.get()) {
      host_sums_ = PinnedBuffer(size_t(batch_) * planes_ * sizeof(ExactWords));
      device_sums_ = DeviceBuffer(size_t(batch_) * planes_ * sizeof(ExactWords));  // last: the flag
    }
    if (setup_.mode == SumMode::kRaster && lane_terms_.empty()) {
      std::vector<DeviceBuffer> lanes, workspaces;
      const size_t workspace = std::max<size_t>(8, exactvq::cuda::raster_sum_workspace_bytes(raster_layout(chunk_)));
      for (int i = 0; i < FrameUploader::kLanes; ++i) {
        lanes.emplace_back(size_t(chunk_) * size_t(terms_pixels_) * sizeof(double));
        workspaces.emplace_back(workspace);
      }
      host_raster_ = PinnedBuffer(size_t(batch_) * planes_ * sizeof(double));
      device_raster_ = DeviceBuffer(size_t(batch_) * planes_ * sizeof(double));
      lane_workspaces_ = std::move(workspaces);
      lane_terms_ = std::move(lanes);  // last: set only when everything above exists
    }
  }

  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    const bool exact = setup_.mode == SumMode::kExact;
    const cudaStream_t s = chunk.stream;
    for (int p = 0; p < planes_; ++p) {
      const SsimPlanes planes(chunk.planes[p], emulate_);
      if (exact) {
        ExactWords* sums = device_sums_.get<ExactWords>() + size_t(p) * batch_ + chunk.start;
        check(cudaMemsetAsync(sums, 0, size_t(chunk.count) * sizeof(ExactWords), s), "cudaMemsetAsync");
        launch_exact(planes, sums, s);
      } else {
        launch_terms(planes, lane_terms_[size_t(chunk.lane)].get<double>() + int64_t(chunk_) * pixel_offset_[p], s);
      }
    }
    if (exact) return;
    RasterSumLayout layout = raster_layout(chunk.count);
    layout.terms = lane_terms_[size_t(chunk.lane)].get<double>();
    exactvq::cuda::launch_raster_sums(layout, device_raster_.get<double>() + size_t(chunk.start) * planes_,
                             lane_workspaces_[size_t(chunk.lane)].get(), s);
  }

  void finish(size_t base, size_t count, FrameUploader& uploader) override {
    const int n = int(count);
    if (setup_.mode == SumMode::kRaster) {
      check(cudaMemcpyAsync(host_raster_.get(), device_raster_.get(), size_t(batch_) * planes_ * sizeof(double),
                            cudaMemcpyDeviceToHost, uploader.join_lanes()),
            "read-back of the raster sums");
      uploader.synchronize();
      std::copy_n(host_raster_.get<double>(), size_t(n) * planes_, raster_.data() + base * size_t(planes_));
      return;
    }
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
  std::vector<DeviceBuffer> lane_terms_;       // raster: a chunk's term planes per lane
  std::vector<DeviceBuffer> lane_workspaces_;  // raster: launch_raster_sums' workspace per lane
  DeviceBuffer device_raster_;                 // raster: [frame of the batch][plane]
  PinnedBuffer host_raster_;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& d, const EngineSetup& setup) {
  CudaDevice& device = CudaDevice::of(d);
  return std::make_unique<CudaEngine>(setup, device.runner(setup.format),
                                      emulates_fp64(setup.fp64, device.emulate_by_default()));
}

}  // namespace exactvq::ssim::cuda
