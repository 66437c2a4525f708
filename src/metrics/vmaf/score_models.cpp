#include "metrics/vmaf/score_models.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/registry.h"
#include "metrics/vmaf/bootstrap.h"
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

void add_features(const Model& model, std::vector<FeatureSpec>& features) {
  for (const ModelFeature& f : model.features) {
    const FeatureSpec spec = extractor_spec(f);
    if (std::none_of(features.begin(), features.end(),
                     [&](const FeatureSpec& s) { return same_spec(s, spec); }))
      features.push_back(spec);
  }
}

class VmafScoreModel final : public ScoreModel {
 public:
  // `features`: the extractors to run, given where libvmaf takes them from
  // elsewhere than the model (a collection's main model runs its members').
  VmafScoreModel(Model model, std::vector<FeatureSpec> features)
      : model_(std::move(model)), features_(std::move(features)) {
    check_extractors_known(model_);
    for (const ModelFeature& f : model_.features) inputs_.push_back(f.output_key);
  }
  explicit VmafScoreModel(Model model) : VmafScoreModel(std::move(model), {}) {
    add_features(model_, features_);
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

// A bootstrap collection's members and statistics (bootstrap.h); its main
// model is a VmafScoreModel of its own, written before every collection.
class BootstrapScoreModel final : public ScoreModel {
 public:
  BootstrapScoreModel(const std::string& name, std::vector<Model> members)
      : members_(std::move(members)), outputs_(bootstrap_outputs(name, members_.size())) {
    for (const Model& m : members_) {
      add_features(m, features_);
      std::vector<std::size_t> where;
      for (const ModelFeature& f : m.features) {
        auto it = std::find(inputs_.begin(), inputs_.end(), f.output_key);
        if (it == inputs_.end()) it = inputs_.insert(inputs_.end(), f.output_key);
        where.push_back(static_cast<std::size_t>(it - inputs_.begin()));
      }
      member_inputs_.push_back(std::move(where));
    }
  }

  const std::string& output() const override { return outputs_.front(); }
  const std::vector<FeatureSpec>& features() const override { return features_; }
  const std::vector<std::string>& inputs() const override { return inputs_; }
  std::vector<std::string> outputs() const override { return outputs_; }
  double predict(std::span<const double> inputs) const override {
    std::vector<double> scores(outputs_.size());
    predict_all(inputs, scores);
    return scores.front();
  }
  void predict_all(std::span<const double> inputs, std::span<double> scores) const override {
    std::vector<std::vector<double>> per_member(members_.size());
    for (std::size_t m = 0; m < members_.size(); ++m)
      for (const std::size_t i : member_inputs_[m]) per_member[m].push_back(inputs[i]);
    const BootstrapScores s = predict_bootstrap(members_, per_member);
    std::copy(s.members.begin(), s.members.end(), scores.begin());
    const std::size_t n = s.members.size();
    scores[n] = s.bagging;
    scores[n + 1] = s.stddev;
    scores[n + 2] = s.ci_p95_lo;
    scores[n + 3] = s.ci_p95_hi;
  }

 private:
  std::vector<Model> members_;
  std::vector<std::string> outputs_;
  std::vector<FeatureSpec> features_;
  std::vector<std::string> inputs_;
  std::vector<std::vector<std::size_t>> member_inputs_;  // per member: where in inputs_
};

}  // namespace

std::vector<std::shared_ptr<const ScoreModel>> make_score_models(
    const std::vector<std::string>& specs) {
  // libvmaf scores every --model's main model in order, then each collection.
  std::vector<std::shared_ptr<const ScoreModel>> models, collections;
  std::vector<std::string> spec_of, collection_spec_of;
  for (const std::string& text : specs) {
    ModelCollection c = load_models(parse_model_spec(text));
    if (!c.is_collection()) {
      models.push_back(std::make_shared<VmafScoreModel>(std::move(c.main)));
      spec_of.push_back(text);
      continue;
    }
    // libvmaf runs the extractors of a collection's members only.
    std::vector<FeatureSpec> features;
    for (const Model& m : c.members) add_features(m, features);
    const std::string name = c.main.name;
    models.push_back(std::make_shared<VmafScoreModel>(std::move(c.main), features));
    spec_of.push_back(text);
    collections.push_back(std::make_shared<BootstrapScoreModel>(name, std::move(c.members)));
    collection_spec_of.push_back(text);
  }
  models.insert(models.end(), collections.begin(), collections.end());
  spec_of.insert(spec_of.end(), collection_spec_of.begin(), collection_spec_of.end());
  std::vector<std::pair<std::string, std::size_t>> written;  // every output, and its model
  for (std::size_t i = 0; i < models.size(); ++i)
    for (const std::string& output : models[i]->outputs()) {
      const auto clash = std::find_if(written.begin(), written.end(),
                                      [&](const auto& w) { return w.first == output; });
      if (clash != written.end())
        throw UsageError(fmt::format(
            "--model {} and --model {} both write '{}': give each model its own name with "
            "name=...",
            spec_of[clash->second], spec_of[i], output));
      written.emplace_back(output, i);
    }
  return models;
}

}  // namespace exactvq::vmaf
