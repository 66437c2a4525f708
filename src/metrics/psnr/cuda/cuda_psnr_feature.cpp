#include "metrics/psnr/cuda/cuda_psnr_feature.h"

#include <algorithm>

#include "metrics/psnr/cuda/sse_kernel.h"

namespace exactvq::cuda {

namespace {

constexpr int64_t kBatchBytes = int64_t{512} << 20;  // as the ssim feature

class CudaPsnrFeature final : public PsnrScoringFeature, private BatchRunner::Work {
 public:
  CudaPsnrFeature(const PsnrOptions& o, const FeatureContext& ctx, std::shared_ptr<BatchRunner> runner)
      : PsnrScoringFeature(o, ctx.format), runner_(std::move(runner)) {
    const VideoFormat& f = ctx.format;
    const int64_t by_memory = kBatchBytes / (2 * int64_t(f.frame_bytes()));
    batch_ = int(std::clamp<int64_t>(by_memory, FrameUploader::kLanes, runner_->tuning().max_batch));
    chunk_ = runner_->tuning().chunk_frames(int64_t{f.width} * f.height);
    runner_->add(this);
  }
  ~CudaPsnrFeature() override { runner_->remove(this); }

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
  int planes() const override { return scorer_.planes(); }
  int chunk_frames() const override { return chunk_; }

  void begin(size_t frames) override {
    const int planes = scorer_.planes();
    if (!device_sse_.get()) {
      host_sse_ = PinnedBuffer(size_t(batch_) * planes * sizeof(uint64_t));
      device_sse_ = DeviceBuffer(size_t(batch_) * planes * sizeof(uint64_t));  // last: the flag
    }
    sse_.assign(frames * size_t(planes), 0);
  }

  // [frame][plane], so each frame's planes are adjacent for the scorer.
  void enqueue(const FrameUploader::Chunk& chunk, size_t) override {
    const int planes = scorer_.planes();
    uint64_t* sums = device_sse_.get<uint64_t>() + size_t(chunk.start) * planes;
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
  }

  void finish(size_t base, size_t count, FrameUploader& uploader) override {
    const size_t planes = size_t(scorer_.planes());
    // One read-back for the batch, after every lane's work.
    check(cudaMemcpyAsync(host_sse_.get(), device_sse_.get(), count * planes * sizeof(uint64_t),
                          cudaMemcpyDeviceToHost, uploader.join_lanes()),
          "read-back of the SSE");
    uploader.synchronize();
    std::copy_n(host_sse_.get<uint64_t>(), count * planes, sse_.begin() + ptrdiff_t(base * planes));
  }

  // The scorer turns SSE into values (and adds them to apsnr) only here, once
  // per frame the feature is asked for.
  void take(std::span<double> out) override {
    const size_t n_out = outputs().size(), planes = size_t(scorer_.planes());
    const size_t frames = std::min(out.size() / n_out, sse_.size() / planes);
    for (size_t i = 0; i < frames; ++i)
      scorer_.score_frame(sse_.data() + i * planes, out.subspan(i * n_out, n_out));
  }

  std::shared_ptr<BatchRunner> runner_;
  int batch_ = 1;
  int chunk_ = 1;
  std::vector<uint64_t> sse_;  // the run's SSE, [frame][plane]
  DeviceBuffer device_sse_;    // [frame of the batch][plane]
  PinnedBuffer host_sse_;
};

}  // namespace

std::unique_ptr<Feature> make_cuda_psnr_feature(const PsnrOptions& options,
                                                const FeatureContext& ctx,
                                                std::shared_ptr<BatchRunner> runner) {
  return std::make_unique<CudaPsnrFeature>(options, ctx, std::move(runner));
}

}  // namespace exactvq::cuda
