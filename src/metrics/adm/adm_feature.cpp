#include "metrics/adm/adm_feature.h"

#include <fmt/format.h>

#include "backends/device.h"
#include "core/error.h"
#include "metrics/adm/engine.h"

namespace exactvq {

namespace {

class AdmFeature final : public Feature {
 public:
  AdmFeature(const adm::AdmOptions& o, const VideoFormat& format,
             std::unique_ptr<adm::Engine> engine)
      : options_(o), format_(format), engine_(std::move(engine)), outputs_(adm_output_names(o)) {}

  const std::vector<std::string>& outputs() const override { return outputs_; }
  int batch_frames() const override { return engine_->batch_frames(); }
  bool scores_device_pictures() const override { return engine_->takes_device_pictures(); }
  int planes_read() const override { return 1; }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    sums_.resize(frames.size());
    engine_->score(frames, sums_);
    const size_t n = outputs_.size();
    for (size_t i = 0; i < frames.size(); ++i) {
      const adm::AdmScores s =
          adm::adm_scores_from_sums(sums_[i], format_.width, format_.height, options_);
      double* row = out.data() + i * n;
      const double values[] = {s.adm2,         s.aim,          s.adm3,         s.scale[0],
                               s.scale[1],     s.scale[2],     s.scale[3],     s.adm,
                               s.num,          s.den,          s.num_scale[0], s.den_scale[0],
                               s.num_scale[1], s.den_scale[1], s.num_scale[2], s.den_scale[2],
                               s.num_scale[3], s.den_scale[3]};
      for (size_t k = 0; k < n; ++k) row[k] = values[k];
    }
  }

 private:
  adm::AdmOptions options_;
  VideoFormat format_;
  std::unique_ptr<adm::Engine> engine_;
  std::vector<std::string> outputs_;
  std::vector<adm::AdmSums> sums_;
};

}  // namespace

std::vector<std::string> adm_output_names(const adm::AdmOptions& options) {
  static const char* const kNames[] = {"integer_adm2",           "integer_aim",
                                       "integer_adm3",           "integer_adm_scale0",
                                       "integer_adm_scale1",     "integer_adm_scale2",
                                       "integer_adm_scale3",     "integer_adm",
                                       "integer_adm_num",        "integer_adm_den",
                                       "integer_adm_num_scale0", "integer_adm_den_scale0",
                                       "integer_adm_num_scale1", "integer_adm_den_scale1",
                                       "integer_adm_num_scale2", "integer_adm_den_scale2",
                                       "integer_adm_num_scale3", "integer_adm_den_scale3"};
  const size_t count = options.debug ? 18 : 7;
  const std::string suffix = adm::key_suffix(options);
  std::vector<std::string> names;
  for (size_t k = 0; k < count; ++k) names.push_back(kNames[k] + suffix);
  return names;
}

std::unique_ptr<Feature> make_adm_feature(const adm::AdmOptions& options,
                                          const FeatureContext& ctx) {
  adm::check_adm_size(ctx.format.width, ctx.format.height, "feature adm");
  std::unique_ptr<adm::Engine> engine =
      adm::make_engine(device_of(ctx), adm::EngineSetup{ctx.format, options, ctx.pool});
  return std::make_unique<AdmFeature>(options, ctx.format, std::move(engine));
}

}  // namespace exactvq
