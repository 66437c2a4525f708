#include "cuda/cuda_ssim_feature.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "cuda/cuda_resources.h"
#include "cuda/pinned_registry.h"
#include "cuda/ssim_kernels.h"
#include "ssim/decibels.h"
#include "ssim/fixed_point.h"
#include "ssim/taps.h"

namespace exactvq::cuda {

namespace {

constexpr int kLanes = 3;  // streams: one uploads while others compute
// Frames a lane scores per launch: enough pixels to fill the GPU in one launch.
constexpr int64_t kLaunchPixels = int64_t{8} << 20;
// Host memory the frames of one batch may take (the reader holds two batches).
constexpr int64_t kBatchBytes = int64_t{256} << 20;
// Page-locked memory for the term planes of one raster batch.
constexpr int64_t kRasterBytes = int64_t{1} << 30;

uint64_t line_weight(int size) {
  uint64_t sum = 0;
  for (int i = 0; i < size; ++i) sum += ssim::kept_weight(i, size);
  return sum;
}

class CudaSsimFeature final : public Feature {
 public:
  CudaSsimFeature(const SsimOptions& o, const FeatureContext& ctx, int device)
      : options_(o), ctx_(ctx), device_(device), registry_(0) {
    const VideoFormat& f = ctx.format;
    planes_ = o.chroma ? 3 : 1;
    static const char* const kNames[] = {"ssim", "ssim_cb", "ssim_cr"};
    int64_t scored_pixels = 0;
    for (int p = 0; p < planes_; ++p) {
      names_.emplace_back(kNames[p]);
      max_db_[p] = o.clip_db ? ssim::clip_db_limit(f.max_sample(), f.plane_width(p),
                                                   f.plane_height(p))
                             : std::numeric_limits<double>::infinity();
      // Every window weight is column weight x row weight, so Wsum factors (and
      // stays below 2^53, so raster's sum of weights is this integer too).
      weight_sum_[p] = line_weight(f.plane_width(p)) * line_weight(f.plane_height(p));
      pixel_offset_[p] = scored_pixels;
      plane_pixels_[p] = int64_t{f.plane_width(p)} * f.plane_height(p);
      scored_pixels += plane_pixels_[p];
    }
    const int64_t frame_pixels = plane_pixels_[0];
    if (o.mode == SumMode::kExact) {
      lane_frames_ = int(std::clamp<int64_t>(kLaunchPixels / frame_pixels, 1, 64));
      const int64_t by_memory = std::max<int64_t>(1, kBatchBytes / (2 * int64_t(f.frame_bytes())));
      batch_ = int(std::clamp<int64_t>(by_memory, kLanes, int64_t{kLanes} * lane_frames_ * 4));
    } else {
      lane_frames_ = 1;
      const int threads = ctx.pool ? ctx.pool->size() : 1;
      const int64_t by_memory = std::max<int64_t>(1, kRasterBytes / (scored_pixels * 8));
      batch_ = int(std::clamp<int64_t>(by_memory, 1, std::max(2 * threads, kLanes)));
    }
    for (int p = 0; p < planes_; ++p) {
      plane_offset_[p] = 0;
      for (int q = 0; q < p; ++q)
        plane_offset_[p] += size_t(lane_frames_) * f.plane_bytes(q);
    }
    registry_.set_capacity(size_t(4 * batch_ * 2 * planes_));  // both batches of the reader
    terms_pixels_ = scored_pixels;
  }

  const std::vector<std::string>& outputs() const override { return names_; }
  int batch_frames() const override { return batch_; }

  void extract(const Picture& ref, const Picture& dist, std::span<double> out) override {
    const FramePair pair{&ref, &dist, 0};
    score(std::span<const FramePair>(&pair, 1), out, /*pin=*/false);
  }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    for (size_t start = 0; start < frames.size(); start += size_t(batch_)) {
      const size_t n = std::min(frames.size() - start, size_t(batch_));
      score(frames.subspan(start, n), out.subspan(start * size_t(planes_), n * size_t(planes_)),
            /*pin=*/true);
    }
  }

 private:
  struct Lane {
    Stream stream;
    DeviceBuffer ref, dist, terms;
    Event done;
  };

  void allocate() {
    if (!lanes_.empty()) return;
    const VideoFormat& f = ctx_.format;
    size_t lane_bytes = 0;
    for (int p = 0; p < planes_; ++p) lane_bytes += size_t(lane_frames_) * f.plane_bytes(p);
    for (int i = 0; i < kLanes; ++i) {
      auto lane = std::make_unique<Lane>();
      lane->ref = DeviceBuffer(lane_bytes);
      lane->dist = DeviceBuffer(lane_bytes);
      if (options_.mode == SumMode::kRaster)
        lane->terms = DeviceBuffer(size_t(terms_pixels_) * sizeof(double));
      lanes_.push_back(std::move(lane));
    }
    if (options_.mode == SumMode::kExact) {
      device_sums_ = DeviceBuffer(size_t(batch_) * planes_ * sizeof(ExactWords));
      host_sums_ = PinnedBuffer(size_t(batch_) * planes_ * sizeof(ExactWords));
    } else {
      host_terms_ = PinnedBuffer(size_t(batch_) * size_t(terms_pixels_) * sizeof(double));
      chunk_done_.resize(size_t(batch_));
      for (auto& e : chunk_done_) e = std::make_unique<Event>();
    }
  }

  // Scores up to batch_ frames: uploads and launches on the lanes in turn, then
  // waits and turns sums into scores.
  void score(std::span<const FramePair> frames, std::span<double> out, bool pin) {
    check(cudaSetDevice(device_), "cudaSetDevice");
    allocate();
    const VideoFormat& f = ctx_.format;
    if (pin)
      for (const FramePair& fp : frames)
        for (int p = 0; p < planes_; ++p) {
          registry_.pin(fp.ref->planes[p].data(), f.plane_bytes(p));
          registry_.pin(fp.dist->planes[p].data(), f.plane_bytes(p));
        }
    const bool exact = options_.mode == SumMode::kExact;
    const int n = int(frames.size());
    auto* dsums = device_sums_.get<ExactWords>();
    auto* hsums = host_sums_.get<ExactWords>();
    int chunk_index = 0;
    for (int start = 0; start < n; start += lane_frames_, ++chunk_index) {
      Lane& lane = *lanes_[size_t(chunk_index % kLanes)];
      const cudaStream_t s = lane.stream.get();
      const int count = std::min(lane_frames_, n - start);
      for (int p = 0; p < planes_; ++p) {
        const size_t bytes = f.plane_bytes(p);
        for (int i = 0; i < count; ++i) {
          const FramePair& fp = frames[size_t(start + i)];
          const size_t at = plane_offset_[p] + size_t(i) * bytes;
          check(cudaMemcpyAsync(lane.ref.get() + at, fp.ref->planes[p].data(), bytes,
                                cudaMemcpyHostToDevice, s),
                "upload of a reference plane");
          check(cudaMemcpyAsync(lane.dist.get() + at, fp.dist->planes[p].data(), bytes,
                                cudaMemcpyHostToDevice, s),
                "upload of a distorted plane");
        }
      }
      if (exact)
        for (int p = 0; p < planes_; ++p)
          check(cudaMemsetAsync(dsums + size_t(p) * batch_ + start, 0,
                                size_t(count) * sizeof(ExactWords), s),
                "cudaMemsetAsync");
      for (int p = 0; p < planes_; ++p) {
        DevicePlanes planes;
        planes.ref = lane.ref.get() + plane_offset_[p];
        planes.dist = lane.dist.get() + plane_offset_[p];
        planes.frame_stride = f.plane_bytes(p);
        planes.width = f.plane_width(p);
        planes.height = f.plane_height(p);
        planes.bitdepth = f.bitdepth;
        planes.frames = count;
        if (exact) {
          launch_exact(planes, dsums + size_t(p) * batch_ + start, s);
        } else {
          double* terms = lane.terms.get<double>() + pixel_offset_[p];
          launch_terms(planes, terms, s);
          double* host = host_terms_.get<double>() + size_t(start) * terms_pixels_ + pixel_offset_[p];
          check(cudaMemcpyAsync(host, terms, size_t(plane_pixels_[p]) * sizeof(double),
                                cudaMemcpyDeviceToHost, s),
                "read-back of a term plane");
        }
      }
      if (exact) {
        for (int p = 0; p < planes_; ++p)
          check(cudaMemcpyAsync(hsums + size_t(p) * batch_ + start, dsums + size_t(p) * batch_ + start,
                                size_t(count) * sizeof(ExactWords), cudaMemcpyDeviceToHost, s),
                "read-back of the sums");
      } else {
        check(cudaEventRecord(chunk_done_[size_t(chunk_index)]->get(), s), "cudaEventRecord");
      }
    }

    if (exact) {
      for (auto& lane : lanes_) check(cudaStreamSynchronize(lane->stream.get()), "SSIM on the GPU");
      for (int i = 0; i < n; ++i)
        for (int p = 0; p < planes_; ++p) {
          const ExactWords& w = hsums[size_t(p) * batch_ + i];
          ssim::ExactSum sum;
          sum.sum_q = static_cast<ssim::int128>((static_cast<ssim::uint128>(w.hi) << 64) | w.lo);
          sum.sum_w = weight_sum_[p];
          out[size_t(i * planes_ + p)] = finish(sum.score(), p);
        }
      return;
    }
    // Raster: each frame's planes are added on host threads as they arrive.
    auto add_plane = [&](int task) {
      const int i = task / planes_, p = task % planes_;
      check(cudaSetDevice(device_), "cudaSetDevice");
      check(cudaEventSynchronize(chunk_done_[size_t(i)]->get()), "SSIM terms on the GPU");
      const double* t = host_terms_.get<double>() + size_t(i) * terms_pixels_ + pixel_offset_[p];
      double sum = 0.0;
      for (int64_t k = 0; k < plane_pixels_[p]; ++k) sum += t[k];
      out[size_t(task)] = finish(sum / static_cast<double>(weight_sum_[p]), p);
    };
    if (ctx_.pool) ctx_.pool->parallel_for(n * planes_, add_plane);
    else for (int task = 0; task < n * planes_; ++task) add_plane(task);
  }

  double finish(double score, int plane) const {
    return options_.enable_db ? ssim::to_db(score, max_db_[plane]) : score;
  }

  SsimOptions options_;
  FeatureContext ctx_;
  int device_;
  int planes_ = 1;
  std::vector<std::string> names_;
  double max_db_[3] = {};
  uint64_t weight_sum_[3] = {};
  size_t plane_offset_[3] = {};  // in a lane's buffers: plane p's frames start here
  int64_t pixel_offset_[3] = {};  // in a frame's terms
  int64_t plane_pixels_[3] = {};
  int64_t terms_pixels_ = 0;       // all scored planes of one frame
  int lane_frames_ = 1;
  int batch_ = 1;
  PinnedRegistry registry_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  DeviceBuffer device_sums_;  // [plane][frame of the batch]
  PinnedBuffer host_sums_;
  PinnedBuffer host_terms_;  // raster: [frame of the batch][scored pixels]
  std::vector<std::unique_ptr<Event>> chunk_done_;
};

}  // namespace

std::unique_ptr<Feature> make_cuda_ssim_feature(const SsimOptions& options,
                                                const FeatureContext& ctx, int device) {
  return std::make_unique<CudaSsimFeature>(options, ctx, device);
}

}  // namespace exactvq::cuda
