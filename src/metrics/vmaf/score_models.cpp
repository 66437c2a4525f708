#include "metrics/vmaf/score_models.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/registry.h"
#include "metrics/vmaf/model_spec.h"
#include "metrics/vmaf/predict.h"

namespace exactvq::vmaf {

namespace {

bool same_spec(const FeatureSpec& a, const FeatureSpec& b) {
  return a.name == b.name && a.options == b.options;
}

// A model may name an extractor libvmaf has and exactvq does not compute yet
// (VMAF v1's cambi, speed_chroma): refused before any frame is read, naming it.
void check_extractors_known(const Model& model) {
  const std::vector<std::string> known = known_features();
  for (const ModelFeature& f : model.features)
    if (std::find(known.begin(), known.end(), f.extractor) == known.end())
      throw UsageError(fmt::format(
          "model {}: its input {} comes from libvmaf's feature '{}', which exactvq does not "
          "compute yet (it computes: {})",
          model.version, f.name, f.extractor, fmt::join(known, ", ")));
}

class VmafScoreModel final : public ScoreModel {
 public:
  explicit VmafScoreModel(Model model) : model_(std::move(model)) {
    check_extractors_known(model_);
    for (const ModelFeature& f : model_.features) {
      const FeatureSpec spec = extractor_spec(f);
      if (std::none_of(features_.begin(), features_.end(),
                       [&](const FeatureSpec& s) { return same_spec(s, spec); }))
        features_.push_back(spec);
      inputs_.push_back(f.output_key);
    }
  }

  const std::string& output() const override { return model_.name; }
  const std::vector<FeatureSpec>& features() const override { return features_; }
  const std::vector<std::string>& inputs() const override { return inputs_; }
  double predict(std::span<const double> inputs) const override {
    return vmaf::predict(model_, inputs);
  }

 private:
  Model model_;
  std::vector<FeatureSpec> features_;
  std::vector<std::string> inputs_;
};

}  // namespace

std::vector<std::shared_ptr<const ScoreModel>> make_score_models(
    const std::vector<std::string>& specs) {
  std::vector<std::shared_ptr<const ScoreModel>> models;
  for (const std::string& text : specs)
    models.push_back(std::make_shared<VmafScoreModel>(load_model(parse_model_spec(text))));
  for (size_t i = 0; i < models.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (models[i]->output() == models[j]->output())
        throw UsageError(
            fmt::format("--model {} and --model {} are both named '{}': give each "
                        "model its own name with name=...",
                        specs[j], specs[i], models[i]->output()));
  return models;
}

}  // namespace exactvq::vmaf
