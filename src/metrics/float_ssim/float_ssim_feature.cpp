#include "metrics/float_ssim/float_ssim_feature.h"

#include <type_traits>

#include <fmt/format.h>

#include "backends/device.h"
#include "core/error.h"
#include "metrics/float_ssim/engine.h"
#include "metrics/float_ssim/reference.h"

namespace exactvq {

namespace float_ssim {

std::vector<std::string> output_names(const SsimOptions& o) {
  std::vector<std::string> names{"float_ssim"};
  if (o.enable_lcs)
    for (const char* part : {"l", "c", "s"}) names.push_back(fmt::format("float_ssim_{}", part));
  return names;
}

std::vector<std::string> output_names(const MsSsimOptions& o) {
  std::vector<std::string> names{"float_ms_ssim"};
  if (o.enable_lcs)
    for (const char* part : {"l", "c", "s"})
      for (int scale = 0; scale < kScales; ++scale)
        names.push_back(fmt::format("float_ms_ssim_{}_scale{}", part, scale));
  return names;
}

}  // namespace float_ssim

namespace {

// The host half of both features: the engine's means of each frame, then the
// scores from them (float_ssim::ssim_scores, ms_ssim_scores: decibels and
// MS-SSIM's product with the C library, once a frame).
template <typename Options>
class FloatSsimFeature final : public Feature {
 public:
  FloatSsimFeature(const Options& o, const VideoFormat& format,
                   std::unique_ptr<float_ssim::Engine> engine)
      : options_(o),
        format_(format),
        engine_(std::move(engine)),
        names_(float_ssim::output_names(o)) {}

  const std::vector<std::string>& outputs() const override { return names_; }
  int batch_frames() const override { return engine_->batch_frames(); }
  bool scores_device_pictures() const override { return engine_->takes_device_pictures(); }
  int planes_read() const override { return 1; }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    means_.resize(frames.size());
    engine_->score(frames, means_);
    const size_t n = names_.size();
    for (size_t i = 0; i < frames.size(); ++i) write_row(means_[i].scales, out.subspan(i * n, n));
  }

 private:
  void write_row(const float_ssim::ScaleMeans& m, std::span<double> row) const {
    if constexpr (std::is_same_v<Options, float_ssim::SsimOptions>) {
      const float_ssim::SsimScores s =
          float_ssim::ssim_scores(m[0], format_.width, format_.height, format_.bitdepth, options_);
      row[0] = s.ssim;
      if (!options_.enable_lcs) return;
      row[1] = s.l;
      row[2] = s.c;
      row[3] = s.s;
    } else {
      const float_ssim::MsSsimScores s =
          float_ssim::ms_ssim_scores(m, format_.width, format_.height, format_.bitdepth, options_);
      row[0] = s.ms_ssim;
      if (!options_.enable_lcs) return;
      for (size_t k = 0; k < size_t(float_ssim::kScales); ++k) {
        row[1 + k] = s.l[k];
        row[1 + float_ssim::kScales + k] = s.c[k];
        row[1 + 2 * float_ssim::kScales + k] = s.s[k];
      }
    }
  }

  Options options_;
  VideoFormat format_;
  std::unique_ptr<float_ssim::Engine> engine_;
  std::vector<std::string> names_;
  std::vector<float_ssim::FrameMeans> means_;
};

template <typename Options>
std::unique_ptr<Feature> make_feature(const Options& options, const FeatureContext& ctx,
                                      float_ssim::EngineSetup setup) {
  setup.format = ctx.format;
  setup.fp64 = options.fp64;
  setup.pool = ctx.pool;
  std::unique_ptr<float_ssim::Engine> engine = float_ssim::make_engine(device_of(ctx), setup);
  return std::make_unique<FloatSsimFeature<Options>>(options, ctx.format, std::move(engine));
}

}  // namespace

std::unique_ptr<Feature> make_float_ssim_feature(const float_ssim::SsimOptions& options,
                                                 const FeatureContext& ctx) {
  const VideoFormat& f = ctx.format;
  float_ssim::check_ssim_input(f.width, f.height, f.bitdepth, options, "feature float_ssim");
  float_ssim::EngineSetup setup;
  setup.factor = float_ssim::ssim_scale(f.width, f.height, options.scale);
  setup.ssim_mean = true;
  setup.lcs_means = options.enable_lcs;
  return make_feature(options, ctx, setup);
}

std::unique_ptr<Feature> make_float_ms_ssim_feature(const float_ssim::MsSsimOptions& options,
                                                    const FeatureContext& ctx) {
  const VideoFormat& f = ctx.format;
  float_ssim::check_ms_ssim_input(f.width, f.height, f.bitdepth, "feature float_ms_ssim");
  float_ssim::EngineSetup setup;
  setup.multiscale = true;
  setup.ssim_mean = false;  // MS-SSIM reads each scale's l, c and s means only
  setup.lcs_means = true;
  return make_feature(options, ctx, setup);
}

}  // namespace exactvq
