// The float_ssim engine on a CUDA device: on the frames the device's runner
// uploads once for every engine of the run (backends/cuda/batch_runner.h), the
// conversion, the downscaling (float_ssim's box filter, MS-SSIM's halvings) and
// each scale's windows and terms run on the GPU (float_ssim_kernels.h), and so
// do the raster-order binary64 sums of the terms (backends/cuda/raster_sum.h):
// a chunk's term planes of every scale stay on the device, laid out as
// device_term_layout.h says, and one launch adds them all; only the sums come
// back, once a batch. Pictures whose (downscaled) plane fits no window need no
// pixels: their means are the definition's constants.
#include <array>
#include <optional>
#include <utility>
#include <vector>

#include "backends/cuda/cuda_device.h"
#include "backends/cuda/raster_sum.h"
#include "backends/cuda/runner_engine.h"
#include "metrics/float_ssim/cuda/float_ssim_kernels.h"
#include "metrics/float_ssim/device_term_layout.h"
#include "metrics/float_ssim/engine.h"

namespace exactvq::float_ssim::cuda {

using namespace exactvq::cuda;  // the backend's plumbing that every engine uses

namespace {

using Scale = ScaleGeometry;

FsKernel box_kernel(int factor) {
  FsKernel k;
  k.size = factor;
  for (int i = 0; i < factor * factor; ++i) k.taps[i] = 1.0f / float(factor * factor);
  return k;
}

FsKernel low_pass_kernel() {
  FsKernel k;
  k.size = kLowPass;
  const LowPassTable& t = low_pass_table();
  for (int i = 0; i < kLowPass; ++i)
    for (int j = 0; j < kLowPass; ++j) k.taps[i * kLowPass + j] = t[size_t(i)][size_t(j)];
  return k;
}

FsConstants constants() {
  FsConstants k;
  for (int t = 0; t < kWindow; ++t) k.window[t] = kWindowTaps[size_t(t)];
  const SsimConstants c = ssim_constants();
  k.c1 = c.c1;
  k.c2 = c.c2;
  k.c3 = c.c3;
  return k;
}

// Sums [frame of the batch][term][scale] (layout_).
class CudaEngine final : public RunnerEngine<Engine, double> {
 public:
  CudaEngine(const EngineSetup& s, CudaDevice& device)
      : RunnerEngine(device, s.format, 1, 1, "float_ssim's sums"),
        setup_(s),
        emulate_fp64_(emulates_fp64(s.fp64, device.emulate_by_default())) {
    scales_ = scale_geometry(s);
    // Only float_ssim can meet a plane no window fits (MS-SSIM refuses sides under 176).
    no_window_ = scales_[0].ow <= 0 || scales_[0].oh <= 0;
    if (no_window_) return;
    std::vector<DeviceTermLayout::Positions> positions;
    for (const Scale& sc : scales_) positions.push_back({sc.ow, sc.oh});
    layout_.emplace(positions, s.ssim_mean, s.lcs_means, chunk_frames());
    join(layout_->sums_per_frame());
  }

  void score(std::span<const FramePair> frames, std::span<FrameMeans> out) override {
    if (!no_window_) return RunnerEngine::score(frames, out);
    const Scale& sc = scales_[0];
    for (size_t i = 0; i < frames.size(); ++i)
      out[i].scales[0] = means_of_sums(0.0, 0.0, 0.0, 0.0, sc.ow, sc.oh);
  }

 private:
  // Each scale's binary32 planes, chunk_frames() frames.
  struct Lane {
    std::array<DeviceBuffer, kScales> ref, dist;
  };

  size_t plane_bytes(size_t scale) const {
    return size_t(scales_[scale].width) * size_t(scales_[scale].height) * sizeof(float);
  }

  void allocate() override {
    // The workspace of a whole chunk is the largest (it grows with the frames).
    const RasterSumLayout whole =
        raster_layout<const double*>(layout_->sum_layout(chunk_frames()), nullptr);
    std::vector<std::unique_ptr<Lane>> lanes;
    for (int i = 0; i < FrameUploader::kLanes; ++i) {
      auto lane = std::make_unique<Lane>();
      for (size_t sc = 0; sc < scales_.size(); ++sc) {
        lane->ref[sc] = DeviceBuffer(plane_bytes(sc) * size_t(chunk_frames()));
        lane->dist[sc] = DeviceBuffer(plane_bytes(sc) * size_t(chunk_frames()));
      }
      lanes.push_back(std::move(lane));
    }
    lanes_ = std::move(lanes);
    sum_lanes_ = allocate_raster_sum_lanes(FrameUploader::kLanes, layout_->chunk_bytes(), whole);
  }

  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    const cudaStream_t stream = chunk.stream;
    Lane& lane = *lanes_[size_t(chunk.lane)];
    const RasterSumLane& sums_lane = sum_lanes_[size_t(chunk.lane)];
    const DevicePlanes& luma = chunk.planes[0];
    const FsPlanes samples{luma.ref,   luma.dist,   luma.frame_stride,
                           luma.width, luma.height, setup_.format.bitdepth,
                           chunk.count};
    // Scale 0: the converted plane, or float_ssim's box-filtered one.
    const FsFloatOut first{lane.ref[0].get<float>(), lane.dist[0].get<float>(), plane_bytes(0)};
    if (!setup_.multiscale && setup_.factor > 1)
      launch_fs_decimate(samples, box_kernel(setup_.factor), setup_.factor, scales_[0].width,
                         scales_[0].height, first, emulate_fp64_, stream);
    else
      launch_fs_convert(samples, first, stream);
    const FsConstants k = constants();
    for (size_t sc = 0; sc < scales_.size(); ++sc) {
      const Scale& s = scales_[sc];
      const FsPlanes plane{
          lane.ref[sc].get(), lane.dist[sc].get(), plane_bytes(sc), s.width, s.height, 0,
          chunk.count};
      if (sc + 1 < scales_.size()) {
        const Scale& next = scales_[sc + 1];
        const FsFloatOut halved{lane.ref[sc + 1].get<float>(), lane.dist[sc + 1].get<float>(),
                                plane_bytes(sc + 1)};
        launch_fs_decimate(plane, low_pass_kernel(), 2, next.width, next.height, halved,
                           emulate_fp64_, stream);
      }
      const DeviceTermLayout::ScalePlanes where = layout_->planes(int(sc));
      char* terms = sums_lane.terms.get<char>();
      const auto at = [&](size_t offset) {
        return offset == DeviceTermLayout::kNone ? nullptr
                                                 : reinterpret_cast<double*>(terms + offset);
      };
      const FsTerms out{at(where.lcs), at(where.l), at(where.c), at(where.s), where.frame_stride};
      launch_fs_terms(plane, k, out, emulate_fp64_, stream);
    }
    // Every term plane of the chunk summed in raster order, each frame's sums
    // at its place in the batch's.
    const RasterSumLayout sums = raster_layout<const double*>(layout_->sum_layout(chunk.count),
                                                              sums_lane.terms.get<double>());
    exactvq::cuda::launch_raster_sums(
        sums, device_words() + size_t(chunk.start) * layout_->sums_per_frame(),
        sums_lane.workspace.get(), stream);
  }

  // The means of each frame from its sums.
  void to_values(const double* words, size_t count, FrameMeans* out) override {
    const size_t per_frame = layout_->sums_per_frame();
    for (size_t i = 0; i < count; ++i) out[i].scales = layout_->means(words + i * per_frame);
  }

  EngineSetup setup_;
  bool emulate_fp64_ = false;  // every binary64 step on softfp
  std::vector<Scale> scales_;
  bool no_window_ = false;
  std::optional<DeviceTermLayout> layout_;  // where a chunk's terms lie (not with no_window_)
  std::vector<std::unique_ptr<Lane>> lanes_;
  // A chunk's term planes (layout_) and their sums' workspace, lane by lane.
  std::vector<RasterSumLane> sum_lanes_;
};

}  // namespace

std::unique_ptr<Engine> make_engine(Device& device, const EngineSetup& setup) {
  return std::make_unique<CudaEngine>(setup, CudaDevice::of(device));
}

}  // namespace exactvq::float_ssim::cuda
