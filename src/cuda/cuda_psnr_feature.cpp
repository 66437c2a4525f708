#include "cuda/cuda_psnr_feature.h"

#include <algorithm>

#include "cuda/frame_uploader.h"
#include "cuda/sse_kernel.h"

namespace exactvq::cuda {

namespace {

constexpr int64_t kBatchBytes = int64_t{512} << 20;  // as the ssim feature
constexpr int kMaxBatch = 32;

class CudaPsnrFeature final : public Feature {
 public:
  CudaPsnrFeature(const PsnrOptions& o, const FeatureContext& ctx, int device)
      : scorer_(o, ctx.format), device_(device) {
    const VideoFormat& f = ctx.format;
    const int64_t by_memory = kBatchBytes / (2 * int64_t(f.frame_bytes()));
    batch_ = int(std::clamp<int64_t>(by_memory, FrameUploader::kLanes, kMaxBatch));
    const int chunk = int(std::clamp<int64_t>((int64_t{8} << 20) / (int64_t{f.width} * f.height), 1, 64));
    uploader_ = std::make_unique<FrameUploader>(f, scorer_.planes(), chunk, batch_);
  }

  const std::vector<std::string>& outputs() const override { return scorer_.outputs(); }
  int batch_frames() const override { return batch_; }
  std::vector<std::pair<std::string, double>> aggregates() const override {
    return scorer_.aggregates();
  }

  void extract(const Picture& ref, const Picture& dist, std::span<double> out) override {
    const FramePair pair{&ref, &dist, 0};
    score(std::span<const FramePair>(&pair, 1), out, /*pin=*/false);
  }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    const size_t n_out = outputs().size();
    for (size_t start = 0; start < frames.size(); start += size_t(batch_)) {
      const size_t n = std::min(frames.size() - start, size_t(batch_));
      score(frames.subspan(start, n), out.subspan(start * n_out, n * n_out), /*pin=*/true);
    }
  }

 private:
  void score(std::span<const FramePair> frames, std::span<double> out, bool pin) {
    check(cudaSetDevice(device_), "cudaSetDevice");
    const int planes = scorer_.planes();
    if (!device_sse_.get()) {
      device_sse_ = DeviceBuffer(size_t(batch_) * planes * sizeof(uint64_t));
      host_sse_ = PinnedBuffer(size_t(batch_) * planes * sizeof(uint64_t));
    }
    auto* dsse = device_sse_.get<uint64_t>();
    auto* hsse = host_sse_.get<uint64_t>();
    // [frame][plane], so each frame's planes are adjacent for the scorer.
    uploader_->upload(frames, pin, [&](const FrameUploader::Chunk& chunk) {
      uint64_t* sums = dsse + size_t(chunk.start) * planes;
      const size_t bytes = size_t(chunk.count) * planes * sizeof(uint64_t);
      check(cudaMemsetAsync(sums, 0, bytes, chunk.stream), "cudaMemsetAsync");
      for (int p = 0; p < planes; ++p)
        for (int i = 0; i < chunk.count; ++i) {
          DevicePlanes one = chunk.planes[p];
          one.ref = static_cast<const unsigned char*>(one.ref) + size_t(i) * one.frame_stride;
          one.dist = static_cast<const unsigned char*>(one.dist) + size_t(i) * one.frame_stride;
          one.frames = 1;
          launch_sse(one, sums + size_t(i) * planes + p, chunk.stream);
        }
      check(cudaMemcpyAsync(hsse + size_t(chunk.start) * planes, sums, bytes,
                            cudaMemcpyDeviceToHost, chunk.stream),
            "read-back of the SSE");
    });
    uploader_->synchronize();
    const size_t n_out = outputs().size();
    for (size_t i = 0; i < frames.size(); ++i)
      scorer_.score_frame(hsse + i * size_t(planes), out.subspan(i * n_out, n_out));
  }

  PsnrScorer scorer_;
  int device_;
  int batch_ = 1;
  std::unique_ptr<FrameUploader> uploader_;
  DeviceBuffer device_sse_;  // [frame of the batch][plane]
  PinnedBuffer host_sse_;
};

}  // namespace

std::unique_ptr<Feature> make_cuda_psnr_feature(const PsnrOptions& options,
                                                const FeatureContext& ctx, int device) {
  return std::make_unique<CudaPsnrFeature>(options, ctx, device);
}

}  // namespace exactvq::cuda
