#include "metrics/ciede/ciede_feature.h"

#include <string>
#include <vector>

#include "backends/device.h"
#include "metrics/ciede/engine.h"
#include "metrics/ciede/reference.h"

namespace exactvq {

namespace {

class CiedeFeature final : public Feature {
 public:
  CiedeFeature(const VideoFormat& format, std::unique_ptr<ciede::Engine> engine)
      : format_(format), engine_(std::move(engine)) {}

  const std::vector<std::string>& outputs() const override {
    static const std::vector<std::string> names{"ciede2000"};
    return names;
  }
  int batch_frames() const override { return engine_->batch_frames(); }
  int planes_read() const override { return 3; }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    sums_.assign(frames.size(), 0.0);
    engine_->score(frames, sums_);
    for (size_t i = 0; i < frames.size(); ++i)
      out[i] = ciede::ciede_score(sums_[i], format_.width, format_.height);
  }

 private:
  VideoFormat format_;
  std::unique_ptr<ciede::Engine> engine_;
  std::vector<double> sums_;
};

}  // namespace

std::unique_ptr<Feature> make_ciede_feature(const ciede::CiedeOptions& options,
                                            const FeatureContext& ctx) {
  ciede::check_ciede_format(ctx.format, "feature ciede");
  std::unique_ptr<ciede::Engine> engine =
      ciede::make_engine(device_of(ctx), ciede::EngineSetup{ctx.format, ctx.pool, options.fp64});
  return std::make_unique<CiedeFeature>(ctx.format, std::move(engine));
}

}  // namespace exactvq
