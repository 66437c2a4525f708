#include "metrics/vif/vif_feature.h"

#include <fmt/format.h>

#include "backends/device.h"
#include "core/error.h"
#include "metrics/vif/engine.h"

namespace exactvq {

namespace vif {

std::vector<std::string> output_names(const VifOptions& o) {
  const std::string suffix = key_suffix(o);
  std::vector<std::string> names;
  for (int level = 0; level < kLevels; ++level)
    names.push_back(fmt::format("integer_vif_scale{}{}", level, suffix));
  if (!o.debug) return names;
  for (const char* name : {"integer_vif", "integer_vif_num", "integer_vif_den"})
    names.push_back(name + suffix);
  for (int level = 0; level < kLevels; ++level) {
    names.push_back(fmt::format("integer_vif_num_scale{}{}", level, suffix));
    names.push_back(fmt::format("integer_vif_den_scale{}{}", level, suffix));
  }
  return names;
}

}  // namespace vif

namespace {

class VifFeature final : public Feature {
 public:
  VifFeature(const vif::VifOptions& o, std::unique_ptr<vif::Engine> engine)
      : options_(o), engine_(std::move(engine)), names_(vif::output_names(o)) {}

  const std::vector<std::string>& outputs() const override { return names_; }
  int batch_frames() const override { return engine_->batch_frames(); }
  bool scores_device_pictures() const override { return engine_->takes_device_pictures(); }
  int planes_read() const override { return 1; }

  void extract_batch(std::span<const FramePair> frames, std::span<double> out) override {
    sums_.resize(frames.size());
    engine_->score(frames, sums_);
    const size_t n = names_.size();
    for (size_t i = 0; i < frames.size(); ++i) {
      const vif::VifScores s = vif::vif_scores(sums_[i], options_);
      const std::span<double> row = out.subspan(i * n, n);
      for (size_t k = 0; k < size_t(vif::kLevels); ++k) row[k] = s.scale[k];
      if (!options_.debug) continue;
      row[4] = s.vif;
      row[5] = s.num;
      row[6] = s.den;
      for (size_t k = 0; k < size_t(vif::kLevels); ++k) {
        row[7 + 2 * k] = s.num_scale[k];
        row[8 + 2 * k] = s.den_scale[k];
      }
    }
  }

 private:
  vif::VifOptions options_;
  std::unique_ptr<vif::Engine> engine_;
  std::vector<std::string> names_;
  std::vector<vif::VifLevelSums> sums_;
};

}  // namespace

std::unique_ptr<Feature> make_vif_feature(const vif::VifOptions& options,
                                          const FeatureContext& ctx) {
  vif::check_vif_size(ctx.format.width, ctx.format.height, options, "feature vif");
  std::unique_ptr<vif::Engine> engine =
      vif::make_engine(device_of(ctx), vif::EngineSetup{ctx.format, options, ctx.pool});
  return std::make_unique<VifFeature>(options, std::move(engine));
}

}  // namespace exactvq
