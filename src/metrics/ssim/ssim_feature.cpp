#include "metrics/ssim/ssim_feature.h"

#include <limits>
#include <vector>

#include <fmt/format.h>

#include "backends/device.h"
#include "core/error.h"
#include "metrics/ssim/decibels.h"
#include "metrics/ssim/engine.h"
#include "metrics/ssim/fixed_point.h"
#include "metrics/ssim/taps.h"

namespace exactvq {

namespace {

class SsimFeature final : public Feature {
 public:
  SsimFeature(const ssim::SsimOptions& o, const FeatureContext& ctx,
              std::unique_ptr<ssim::Engine> engine)
      : options_(o),
        names_(ssim::output_names(o)),
        planes_(ssim::scored_planes(o)),
        engine_(std::move(engine)) {
    const VideoFormat& f = ctx.format;
    for (int p = 0; p < planes_; ++p) {
      max_db_[p] = o.clip_db
                       ? ssim::clip_db_limit(f.max_sample(), f.plane_width(p), f.plane_height(p))
                       : std::numeric_limits<double>::infinity();
      // Every window's weight is its column's times its row's, so Wsum factors.
      weight_sum_[p] = ssim::line_weight(f.plane_width(p)) * ssim::line_weight(f.plane_height(p));
    }
  }

  const std::vector<std::string>& outputs() const override { return names_; }
  int batch_frames() const override { return engine_->batch_frames(); }
  bool scores_device_pictures() const override { return engine_->takes_device_pictures(); }
  int planes_read() const override { return planes_; }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    const size_t n = frames.size() * size_t(planes_);
    if (n == 0) return;
    sums_.assign(n, {});
    engine_->score(frames, sums_);
    if (options_.mode == ssim::SumMode::kExact) {
      for (size_t i = 0; i < n; ++i)
        out[i] =
            finish(ssim::ExactSum{sums_[i].exact, weight_sum_[i % size_t(planes_)]}.score(), i);
    } else {
      // libvmaf adds each weight to a binary64 sum too; the weights are integers
      // and every partial sum stays below 2^53, so that sum is exact and equals
      // the integer sum converted once.
      for (size_t i = 0; i < n; ++i)
        out[i] = finish(sums_[i].raster / static_cast<double>(weight_sum_[i % size_t(planes_)]), i);
    }
  }

 private:
  double finish(double score, size_t i) const {
    return options_.enable_db ? ssim::to_db(score, max_db_[i % size_t(planes_)]) : score;
  }

  ssim::SsimOptions options_;
  std::vector<std::string> names_;
  int planes_ = 1;
  double max_db_[3] = {};
  uint64_t weight_sum_[3] = {};
  std::unique_ptr<ssim::Engine> engine_;
  std::vector<ssim::PlaneSum> sums_;
};

}  // namespace

std::unique_ptr<Feature> make_ssim_feature(const ssim::SsimOptions& options,
                                           const FeatureContext& ctx) {
  if (options.chroma && ctx.format.chroma == ChromaFormat::kMono)
    throw UsageError("feature ssim: chroma=true, but the input is monochrome (no Cb, Cr planes)");
  const ssim::EngineSetup setup{ctx.format, ssim::scored_planes(options), options.mode,
                                options.fp64, ctx.pool};
  std::unique_ptr<ssim::Engine> engine = ssim::make_engine(device_of(ctx), setup);
  return std::make_unique<SsimFeature>(options, ctx, std::move(engine));
}

}  // namespace exactvq
