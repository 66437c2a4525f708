// The float_ssim engine on a CUDA device: on the frames the device's runner
// uploads once for every engine of the run (backends/cuda/batch_runner.h), the
// conversion, the downscaling (float_ssim's box filter, MS-SSIM's halvings) and
// each scale's windows and terms run on the GPU (float_ssim_kernels.h); the
// raster-order binary64 sums of the terms are one step of their own
// (read_back_terms, add_terms): today the term planes come back and host
// threads add them in the reference's order. Pictures whose (downscaled) plane
// fits no window need no pixels: their means are the definition's constants.
#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "backends/cuda/batch_runner.h"
#include "backends/cuda/cuda_device.h"
#include "core/error.h"
#include "metrics/float_ssim/cuda/float_ssim_kernels.h"
#include "metrics/float_ssim/engine.h"
#include "metrics/ssim/raster_sum.h"

namespace exactvq::float_ssim {

using cuda::BatchRunner;
using cuda::check;
using cuda::CudaDevice;
using cuda::DeviceBuffer;
using cuda::Event;
using cuda::FrameUploader;
using cuda::PinnedBuffer;

namespace {

// Page-locked memory for one batch's term planes.
constexpr int64_t kTermBytes = int64_t{1} << 30;
// Each term plane starts at a multiple of this in a frame's block.
constexpr size_t kAlign = 256;
constexpr size_t kNone = ~size_t{0};

size_t aligned(size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

// One scale: its plane's size, its positions, and where its term planes lie in
// a frame's block (kNone where not wanted).
struct Scale {
  int width = 0, height = 0;
  int ow = 0, oh = 0;
  size_t lcs = kNone, l = kNone, c = kNone, s = kNone;
  size_t positions() const { return size_t(ow) * size_t(oh); }
};

// The four sums of step 5 a scale may have, in SsimMeans' order.
enum Sum { kSsimSum, kLSum, kCSum, kSSum, kSums };

cuda::FsKernel box_kernel(int factor) {
  cuda::FsKernel k;
  k.size = factor;
  for (int i = 0; i < factor * factor; ++i) k.taps[i] = 1.0f / float(factor * factor);
  return k;
}

cuda::FsKernel low_pass_kernel() {
  cuda::FsKernel k;
  k.size = kLowPass;
  const LowPassTable& t = low_pass_table();
  for (int i = 0; i < kLowPass; ++i)
    for (int j = 0; j < kLowPass; ++j) k.taps[i * kLowPass + j] = t[size_t(i)][size_t(j)];
  return k;
}

cuda::FsConstants constants() {
  cuda::FsConstants k;
  for (int t = 0; t < kWindow; ++t) k.window[t] = kWindowTaps[size_t(t)];
  const SsimConstants c = ssim_constants();
  k.c1 = c.c1;
  k.c2 = c.c2;
  k.c3 = c.c3;
  return k;
}

class CudaEngine final : public Engine, private BatchRunner::Work {
 public:
  CudaEngine(const EngineSetup& s, std::shared_ptr<BatchRunner> runner) : setup_(s), runner_(std::move(runner)) {
    const VideoFormat& f = s.format;
    int w = f.width, h = f.height;
    if (!s.multiscale && s.factor > 1) {
      w = decimated_size(w, s.factor);
      h = decimated_size(h, s.factor);
    }
    for (int i = 0; i < (s.multiscale ? kScales : 1); ++i) {
      if (i > 0) {
        w = decimated_size(w, 2);
        h = decimated_size(h, 2);
      }
      Scale sc;
      sc.width = w;
      sc.height = h;
      sc.ow = w - (kWindow - 1);
      sc.oh = h - (kWindow - 1);
      scales_.push_back(sc);
    }
    // Only float_ssim can meet a plane no window fits (MS-SSIM refuses sides under 176).
    no_window_ = scales_[0].ow <= 0 || scales_[0].oh <= 0;
    for (Scale& sc : scales_) {
      if (no_window_) break;
      const size_t n = sc.positions();
      if (s.ssim_mean) sc.lcs = std::exchange(term_bytes_, term_bytes_ + aligned(n * sizeof(double)));
      if (!s.lcs_means) continue;
      sc.l = std::exchange(term_bytes_, term_bytes_ + aligned(n * sizeof(double)));
      sc.c = std::exchange(term_bytes_, term_bytes_ + aligned(n * sizeof(double)));
      sc.s = std::exchange(term_bytes_, term_bytes_ + aligned(n * sizeof(float)));
    }
    const cuda::PipelineTuning& tuning = runner_->tuning();
    chunk_ = tuning.chunk_frames(int64_t{f.width} * f.height);
    const int64_t by_memory = kTermBytes / int64_t(std::max<size_t>(term_bytes_, 1));
    batch_ = int(std::clamp<int64_t>(by_memory, 1, tuning.batch_frames(int64_t(f.frame_bytes()))));
    if (!no_window_) runner_->add(this);
  }
  ~CudaEngine() override {
    if (!no_window_) runner_->remove(this);
  }

  int batch_frames() const override { return no_window_ ? 1 : batch_; }
  // Where a frame's term planes outweigh its picture (no downscaling, MS-SSIM),
  // the host threads adding a batch's planes side by side need whole batches;
  // lighter ones (float_ssim's default downscaling) take the run's short
  // batches of large frames, which start the pipeline sooner.
  bool needs_full_batches() const override {
    return !no_window_ && term_bytes_ >= setup_.format.frame_bytes();
  }

  // Numbered pairs are page-locked and shared with the run's other engines on
  // this device; a loose pair is copied from pageable memory, for this engine alone.
  void means(std::span<const FramePair> frames, std::span<FrameMeans> out) override {
    if (frames.empty()) return;
    if (no_window_) {
      const Scale& sc = scales_[0];
      for (size_t i = 0; i < frames.size(); ++i) out[i].scales[0] = means_of_sums(0.0, 0.0, 0.0, 0.0, sc.ow, sc.oh);
      return;
    }
    runner_->run(this, frames, !frames[0].loose(), !frames[0].loose());
    std::copy_n(means_.begin(), std::min(out.size(), means_.size()), out.begin());
  }

 private:
  struct Lane {
    std::array<DeviceBuffer, kScales> ref, dist;  // each scale's binary32 planes, chunk_ frames
    DeviceBuffer terms;                           // chunk_ frames' term blocks
  };

  size_t plane_bytes(size_t scale) const {
    return size_t(scales_[scale].width) * size_t(scales_[scale].height) * sizeof(float);
  }

  // BatchRunner::Work
  int planes() const override { return 1; }
  int chunk_frames() const override { return chunk_; }

  void begin(size_t frames) override {
    allocate();
    means_.assign(frames, FrameMeans{});
  }

  // Device and page-locked buffers, at the first frame (not in the constructor:
  // features are made before the run knows it has frames).
  void allocate() {
    if (!lanes_.empty()) return;
    std::vector<std::unique_ptr<Lane>> lanes;
    for (int i = 0; i < FrameUploader::kLanes; ++i) {
      auto lane = std::make_unique<Lane>();
      for (size_t sc = 0; sc < scales_.size(); ++sc) {
        lane->ref[sc] = DeviceBuffer(plane_bytes(sc) * size_t(chunk_));
        lane->dist[sc] = DeviceBuffer(plane_bytes(sc) * size_t(chunk_));
      }
      lane->terms = DeviceBuffer(term_bytes_ * size_t(chunk_));
      lanes.push_back(std::move(lane));
    }
    host_terms_ = PinnedBuffer(term_bytes_ * size_t(batch_));
    frame_done_.clear();
    for (int i = 0; i < batch_; ++i) frame_done_.push_back(std::make_unique<Event>());
    lanes_ = std::move(lanes);  // last: set only when everything above exists
  }

  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    const cudaStream_t stream = chunk.stream;
    Lane& lane = *lanes_[size_t(chunk.lane)];
    const cuda::DevicePlanes& luma = chunk.planes[0];
    const cuda::FsPlanes samples{luma.ref,   luma.dist, luma.frame_stride, luma.width,
                                 luma.height, setup_.format.bitdepth, chunk.count};
    // Scale 0: the converted plane, or float_ssim's box-filtered one.
    const cuda::FsFloatOut first{lane.ref[0].get<float>(), lane.dist[0].get<float>(), plane_bytes(0)};
    if (!setup_.multiscale && setup_.factor > 1)
      cuda::launch_fs_decimate(samples, box_kernel(setup_.factor), setup_.factor, scales_[0].width,
                               scales_[0].height, first, stream);
    else
      cuda::launch_fs_convert(samples, first, stream);
    const cuda::FsConstants k = constants();
    for (size_t sc = 0; sc < scales_.size(); ++sc) {
      const Scale& s = scales_[sc];
      const cuda::FsPlanes plane{lane.ref[sc].get(), lane.dist[sc].get(), plane_bytes(sc), s.width, s.height,
                                 0,                  chunk.count};
      if (sc + 1 < scales_.size()) {
        const Scale& next = scales_[sc + 1];
        const cuda::FsFloatOut halved{lane.ref[sc + 1].get<float>(), lane.dist[sc + 1].get<float>(),
                                      plane_bytes(sc + 1)};
        cuda::launch_fs_decimate(plane, low_pass_kernel(), 2, next.width, next.height, halved, stream);
      }
      char* terms = lane.terms.get<char>();
      const auto at = [&](size_t offset) { return offset == kNone ? nullptr : terms + offset; };
      const cuda::FsTerms out{reinterpret_cast<double*>(at(s.lcs)), reinterpret_cast<double*>(at(s.l)),
                              reinterpret_cast<double*>(at(s.c)), reinterpret_cast<float*>(at(s.s)), term_bytes_};
      cuda::launch_fs_terms(plane, k, out, stream);
    }
    read_back_terms(chunk);
  }

  void finish(size_t base, size_t count, FrameUploader&) override { add_terms(base, count); }

  // The sums, step one: the chunk's term blocks to the batch's page-locked
  // buffer, each frame's arrival an event.
  void read_back_terms(const FrameUploader::Chunk& chunk) {
    const Lane& lane = *lanes_[size_t(chunk.lane)];
    char* host = host_terms_.get<char>() + size_t(chunk.start) * term_bytes_;
    check(cudaMemcpyAsync(host, lane.terms.get(), size_t(chunk.count) * term_bytes_, cudaMemcpyDeviceToHost,
                          chunk.stream),
          "read-back of float_ssim's term planes");
    for (int i = 0; i < chunk.count; ++i)
      check(cudaEventRecord(frame_done_[size_t(chunk.start + i)]->get(), chunk.stream), "cudaEventRecord");
  }

  // The sums, step two: each sum of each scale of each frame added on a host
  // thread, one binary64 addition at a time in raster order (the reference's
  // loop), as the frame's terms arrive; then the means.
  void add_terms(size_t base, size_t count) {
    const size_t per_frame = scales_.size() * kSums;
    sums_.assign(count * per_frame, 0.0);
    const int device = runner_->ordinal();
    auto add_one = [&](int task) {
      const size_t i = size_t(task) / per_frame, sc = size_t(task) % per_frame / kSums;
      const int which = task % kSums;
      const Scale& s = scales_[sc];
      const size_t offset = which == kSsimSum ? s.lcs : which == kLSum ? s.l : which == kCSum ? s.c : s.s;
      if (offset == kNone) return;
      check(cudaSetDevice(device), "cudaSetDevice");
      check(cudaEventSynchronize(frame_done_[i]->get()), "float_ssim terms on the GPU");
      const char* block = host_terms_.get<char>() + i * term_bytes_ + offset;
      double sum = 0.0;
      if (which == kSSum) {
        const float* t = reinterpret_cast<const float*>(block);
        for (size_t k = 0; k < s.positions(); ++k) sum += double(t[k]);
      } else {
        sum = ssim::add_in_raster_order(0.0, reinterpret_cast<const double*>(block), s.positions());
      }
      sums_[size_t(task)] = sum;
    };
    parallel_for(setup_.pool, int(count * per_frame), add_one);
    for (size_t i = 0; i < count; ++i)
      for (size_t sc = 0; sc < scales_.size(); ++sc) {
        const double* s = sums_.data() + (i * scales_.size() + sc) * kSums;
        means_[base + i].scales[sc] = means_of_sums(s[kSsimSum], s[kLSum], s[kCSum], s[kSSum], scales_[sc].ow,
                                                    scales_[sc].oh);
      }
  }

  EngineSetup setup_;
  std::shared_ptr<BatchRunner> runner_;
  std::vector<Scale> scales_;
  bool no_window_ = false;
  size_t term_bytes_ = 0;  // one frame's term block
  int batch_ = 1;
  int chunk_ = 1;
  std::vector<FrameMeans> means_;  // the run's, [frame]
  std::vector<double> sums_;       // a batch's, [frame][scale][sum]
  std::vector<std::unique_ptr<Lane>> lanes_;
  PinnedBuffer host_terms_;  // [frame of the batch][term block]
  std::vector<std::unique_ptr<Event>> frame_done_;
};

}  // namespace

std::unique_ptr<Engine> make_cuda_engine(CudaDevice& device, const EngineSetup& setup) {
  if (setup.fp64 == ssim::Fp64Mode::kEmulate)
    throw UsageError(fmt::format(
        "feature {}: fp64=emulate is not available on CUDA yet (its windows and decimation add in binary64 as "
        "well as its terms, and only the terms have a softfp form so far); use fp64=native or fp64=auto ({})",
        setup.multiscale ? "float_ms_ssim" : "float_ssim", device.description()));
  return std::make_unique<CudaEngine>(setup, device.runner(setup.format));
}

}  // namespace exactvq::float_ssim
