#include "app/feature_set.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/registry.h"

namespace exactvq {

FeatureSet::FeatureSet(std::vector<FeatureSpec> specs, const FeatureContext& ctx) : specs_(std::move(specs)) {
  if (specs_.empty()) specs_.push_back({"ssim", {}});
  for (const auto& spec : specs_) {
    features_.push_back(make_feature(spec, ctx));
    const Feature& f = *features_.back();
    batch_frames_ = std::max(batch_frames_, f.batch_frames());
    full_batches_ = full_batches_ || f.needs_full_batches();
    for (const auto& name : f.outputs()) {
      if (std::find(columns_.begin(), columns_.end(), name) != columns_.end())
        throw UsageError(fmt::format("feature output '{}' is requested twice", name));
      columns_.push_back(name);
    }
  }
}

void FeatureSet::score(std::span<const FramePair> pairs, std::vector<std::vector<double>>& columns) {
  if (pairs.empty()) return;
  scored_.resize(columns_.size());
  size_t column = 0;
  for (auto& feature : features_) {
    const size_t n = feature->outputs().size();
    values_.assign(pairs.size() * n, 0.0);
    feature->extract_batch(pairs, values_);
    for (size_t k = 0; k < n; ++k, ++column) {
      scored_[column].resize(pairs.size());
      for (size_t i = 0; i < pairs.size(); ++i) scored_[column][i] = values_[i * n + k];
    }
  }
  columns.resize(columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c)
    columns[c].insert(columns[c].end(), scored_[c].begin(), scored_[c].end());
}

std::vector<std::pair<std::string, double>> FeatureSet::aggregates() const {
  std::vector<std::pair<std::string, double>> all;
  for (const auto& feature : features_)
    for (auto& kv : feature->aggregates()) all.push_back(std::move(kv));
  return all;
}

}  // namespace exactvq
