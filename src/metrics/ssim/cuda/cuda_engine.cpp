// The ssim engine on a CUDA device: frames uploaded on several streams once for
// every engine of the run (backends/cuda/batch_runner.h), several frames in
// flight, each plane's exact sum reduced on the GPU; in raster mode the term
// planes stay on the GPU and are added there in raster order
// (backends/cuda/raster_sum.h), and only the sums come back.
#include <memory>
#include <vector>

#include "backends/cuda/cuda_device.h"
#include "backends/cuda/raster_sum.h"
#include "backends/cuda/runner_engine.h"
#include "metrics/ssim/cuda/ssim_kernels.h"
#include "metrics/ssim/engine.h"

namespace exactvq::ssim::cuda {

using namespace exactvq::cuda;  // the backend's plumbing that every engine uses

namespace {

// Exact mode: each plane's sum [plane][frame of the batch], the whole batch
// read back.
class ExactEngine final : public RunnerEngine<Engine, ExactWords> {
 public:
  ExactEngine(const EngineSetup& s, CudaDevice& device)
      : RunnerEngine(device, s.format, s.planes, size_t(s.planes), "the sums"),
        emulate_(emulates_fp64(s.fp64, device.emulate_by_default())) {
    join(size_t(s.planes));
  }

 private:
  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    for (int p = 0; p < planes(); ++p) {
      const SsimPlanes plane(chunk.planes[p], emulate_);
      ExactWords* sums = device_words() + size_t(p) * batch_frames() + chunk.start;
      check(cudaMemsetAsync(sums, 0, size_t(chunk.count) * sizeof(ExactWords), chunk.stream),
            "cudaMemsetAsync");
      launch_exact(plane, sums, chunk.stream);
    }
  }

  size_t words_read_back(size_t) const override {
    return size_t(batch_frames()) * size_t(planes());
  }

  void to_values(const ExactWords* words, size_t count, PlaneSum* out) override {
    const int n = int(count);
    for (int i = 0; i < n; ++i)
      for (int p = 0; p < planes(); ++p) {
        const ExactWords& w = words[size_t(p) * batch_frames() + i];
        out[size_t(i * planes() + p)].exact =
            static_cast<int128>((static_cast<uint128>(w.hi) << 64) | w.lo);
      }
  }

  bool emulate_;
};

// Raster mode: a chunk's term planes in a lane's buffer, summed there in
// raster order into [frame of the batch][plane], the whole batch read back.
class RasterEngine final : public RunnerEngine<Engine, double> {
 public:
  RasterEngine(const EngineSetup& s, CudaDevice& device)
      : RunnerEngine(device, s.format, s.planes, size_t(s.planes), "the raster sums"),
        emulate_(emulates_fp64(s.fp64, device.emulate_by_default())) {
    const VideoFormat& f = s.format;
    for (int p = 0; p < s.planes; ++p) {
      pixel_offset_[p] = terms_pixels_;
      plane_pixels_[p] = int64_t{f.plane_width(p)} * f.plane_height(p);
      terms_pixels_ += plane_pixels_[p];
    }
    join(size_t(s.planes));
  }

 private:
  // Plane after plane, each plane's frames one after another (as launch_terms
  // writes them).
  RasterSumLayout raster_layout(int frames) const {
    RasterSumLayout layout;
    layout.frames = frames;
    layout.arrays = planes();
    for (int p = 0; p < planes(); ++p)
      layout.array[p] = {int64_t(chunk_frames()) * pixel_offset_[p], plane_pixels_[p],
                         plane_pixels_[p]};
    return layout;
  }

  // Each lane's term planes (8 bytes a scored pixel) and launch_raster_sums' workspace.
  void allocate() override {
    lanes_ = allocate_raster_sum_lanes(
        FrameUploader::kLanes, size_t(chunk_frames()) * size_t(terms_pixels_) * sizeof(double),
        raster_layout(chunk_frames()));
  }

  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    const cudaStream_t s = chunk.stream;
    const RasterSumLane& lane = lanes_[size_t(chunk.lane)];
    double* terms = lane.terms.get<double>();
    for (int p = 0; p < planes(); ++p)
      launch_terms(SsimPlanes(chunk.planes[p], emulate_),
                   terms + int64_t(chunk_frames()) * pixel_offset_[p], s);
    RasterSumLayout layout = raster_layout(chunk.count);
    layout.terms = terms;
    exactvq::cuda::launch_raster_sums(layout, device_words() + size_t(chunk.start) * planes(),
                                      lane.workspace.get(), s);
  }

  size_t words_read_back(size_t) const override {
    return size_t(batch_frames()) * size_t(planes());
  }

  void to_values(const double* words, size_t count, PlaneSum* out) override {
    for (size_t i = 0; i < count * size_t(planes()); ++i) out[i].raster = words[i];
  }

  bool emulate_;
  int64_t pixel_offset_[3] = {};  // in a frame's terms
  int64_t plane_pixels_[3] = {};
  int64_t terms_pixels_ = 0;          // all scored planes of one frame
  std::vector<RasterSumLane> lanes_;  // a chunk's term planes and their sums' workspace per lane
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  if (setup.mode == SumMode::kExact)
    return std::make_unique<ExactEngine>(setup, CudaDevice::of(device));
  return std::make_unique<RasterEngine>(setup, CudaDevice::of(device));
}

}  // namespace exactvq::ssim::cuda
