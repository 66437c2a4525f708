#include "metrics/ssim/cuda/cuda_ssim_feature.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "backends/cuda/batch_runner.h"
#include "metrics/ssim/decibels.h"
#include "metrics/ssim/fixed_point.h"
#include "metrics/ssim/taps.h"

namespace exactvq::cuda {

namespace {

// Host memory the frames of one batch may take (the reader holds two batches):
// large batches keep the copy engine busy across the gap between batches.
constexpr int64_t kBatchBytes = int64_t{512} << 20;
// Page-locked memory for the term planes of one raster batch: the host adds a
// 4K plane in ~9 ms, so many frames must be in flight to keep the GPU fed.
constexpr int64_t kRasterBytes = int64_t{2} << 30;

uint64_t line_weight(int size) {
  uint64_t sum = 0;
  for (int i = 0; i < size; ++i) sum += ssim::kept_weight(i, size);
  return sum;
}

struct Shape {
  int chunk_frames, batch;
};

Shape shape_of(const SsimOptions& o, const FeatureContext& ctx, int64_t scored_pixels,
               const PipelineTuning& tuning) {
  const VideoFormat& f = ctx.format;
  const int64_t luma = int64_t{f.width} * f.height;
  if (o.mode == SumMode::kExact) {
    const int64_t by_memory = kBatchBytes / (2 * int64_t(f.frame_bytes()));
    return {tuning.chunk_frames(luma),
            int(std::clamp<int64_t>(by_memory, FrameUploader::kLanes, tuning.max_batch))};
  }
  const int threads = ctx.pool ? ctx.pool->size() : 1;
  const int64_t by_memory = std::max<int64_t>(1, kRasterBytes / (scored_pixels * 8));
  return {1, int(std::clamp<int64_t>(by_memory, 1, std::max(2 * threads, FrameUploader::kLanes)))};
}

class CudaSsimFeature final : public Feature, private BatchRunner::Work {
 public:
  CudaSsimFeature(const SsimOptions& o, const FeatureContext& ctx,
                  std::shared_ptr<BatchRunner> runner, bool emulate)
      : options_(o), ctx_(ctx), runner_(std::move(runner)), emulate_(emulate) {
    const VideoFormat& f = ctx.format;
    planes_ = o.chroma ? 3 : 1;
    static const char* const kNames[] = {"ssim", "ssim_cb", "ssim_cr"};
    for (int p = 0; p < planes_; ++p) {
      names_.emplace_back(kNames[p]);
      max_db_[p] = o.clip_db ? ssim::clip_db_limit(f.max_sample(), f.plane_width(p),
                                                   f.plane_height(p))
                             : std::numeric_limits<double>::infinity();
      // Every window weight is column weight x row weight, so Wsum factors (and
      // stays below 2^53, so raster's sum of weights is this integer too).
      weight_sum_[p] = line_weight(f.plane_width(p)) * line_weight(f.plane_height(p));
      pixel_offset_[p] = terms_pixels_;
      plane_pixels_[p] = int64_t{f.plane_width(p)} * f.plane_height(p);
      terms_pixels_ += plane_pixels_[p];
    }
    const Shape shape = shape_of(o, ctx, terms_pixels_, runner_->tuning());
    batch_ = shape.batch;
    chunk_ = shape.chunk_frames;
    runner_->add(this);
  }
  ~CudaSsimFeature() override { runner_->remove(this); }

  const std::vector<std::string>& outputs() const override { return names_; }
  int batch_frames() const override { return batch_; }

  void extract(const Picture& ref, const Picture& dist, std::span<double> out) override {
    const FramePair pair{&ref, &dist, 0};
    runner_->run(this, std::span<const FramePair>(&pair, 1), out, /*pin=*/false, /*shared=*/false);
  }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    runner_->run(this, frames, out, /*pin=*/true, /*shared=*/true);
  }

 private:
  // BatchRunner::Work
  int planes() const override { return planes_; }
  int chunk_frames() const override { return chunk_; }

  void begin(size_t frames) override {
    allocate();
    values_.assign(frames * size_t(planes_), 0.0);
  }

  // Device and page-locked buffers, at the first frame (not in the constructor:
  // features are made before the run knows it has frames).
  void allocate() {
    if (options_.mode == SumMode::kExact && !device_sums_.get()) {
      host_sums_ = PinnedBuffer(size_t(batch_) * planes_ * sizeof(ExactWords));
      device_sums_ = DeviceBuffer(size_t(batch_) * planes_ * sizeof(ExactWords));  // last: the flag
    }
    if (options_.mode == SumMode::kRaster && lane_terms_.empty()) {
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
    const bool exact = options_.mode == SumMode::kExact;
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
    double* out = values_.data() + base * size_t(planes_);
    if (options_.mode == SumMode::kExact) {
      // One read-back for the batch, after every lane's work.
      check(cudaMemcpyAsync(host_sums_.get(), device_sums_.get(), size_t(batch_) * planes_ * sizeof(ExactWords),
                            cudaMemcpyDeviceToHost, uploader.join_lanes()),
            "read-back of the sums");
      uploader.synchronize();
      const auto* hsums = host_sums_.get<ExactWords>();
      for (int i = 0; i < n; ++i)
        for (int p = 0; p < planes_; ++p) {
          const ExactWords& w = hsums[size_t(p) * batch_ + i];
          ssim::ExactSum sum;
          sum.sum_q = static_cast<ssim::int128>((static_cast<ssim::uint128>(w.hi) << 64) | w.lo);
          sum.sum_w = weight_sum_[p];
          out[size_t(i * planes_ + p)] = finish_score(sum.score(), p);
        }
      return;
    }
    // Raster: each frame's planes are added on host threads, in raster order,
    // as they arrive.
    const int device = runner_->ordinal();
    auto add_plane = [&](int task) {
      const int i = task / planes_, p = task % planes_;
      check(cudaSetDevice(device), "cudaSetDevice");
      check(cudaEventSynchronize(frame_done_[size_t(i)]->get()), "SSIM terms on the GPU");
      const double* t = host_terms_.get<double>() + size_t(i) * terms_pixels_ + pixel_offset_[p];
      double sum = 0.0;
      for (int64_t k = 0; k < plane_pixels_[p]; ++k) sum += t[k];
      out[size_t(task)] = finish_score(sum / static_cast<double>(weight_sum_[p]), p);
    };
    if (ctx_.pool) ctx_.pool->parallel_for(n * planes_, add_plane);
    else for (int task = 0; task < n * planes_; ++task) add_plane(task);
  }

  void take(std::span<double> out) override {
    std::copy(values_.begin(), values_.begin() + ptrdiff_t(std::min(out.size(), values_.size())),
              out.begin());
  }

  double finish_score(double score, int plane) const {
    return options_.enable_db ? ssim::to_db(score, max_db_[plane]) : score;
  }

  SsimOptions options_;
  FeatureContext ctx_;
  std::shared_ptr<BatchRunner> runner_;
  bool emulate_;
  int planes_ = 1;
  std::vector<std::string> names_;
  double max_db_[3] = {};
  uint64_t weight_sum_[3] = {};
  int64_t pixel_offset_[3] = {};  // in a frame's terms
  int64_t plane_pixels_[3] = {};
  int64_t terms_pixels_ = 0;  // all scored planes of one frame
  int batch_ = 1;
  int chunk_ = 1;
  std::vector<double> values_;  // the run's values, [frame][plane]
  DeviceBuffer device_sums_;  // exact: [plane][frame of the batch]
  PinnedBuffer host_sums_;
  std::vector<DeviceBuffer> lane_terms_;  // raster: one frame's terms per lane
  PinnedBuffer host_terms_;               // raster: [frame of the batch][scored pixels]
  std::vector<std::unique_ptr<Event>> frame_done_;
};

}  // namespace

std::unique_ptr<Feature> make_cuda_ssim_feature(const SsimOptions& options,
                                                const FeatureContext& ctx,
                                                std::shared_ptr<BatchRunner> runner,
                                                bool emulate_fp64) {
  return std::make_unique<CudaSsimFeature>(options, ctx, std::move(runner), emulate_fp64);
}

}  // namespace exactvq::cuda
