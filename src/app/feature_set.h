// The features of one run, the one place that makes them from their specs, checks
// their output names and scores batches of frame pairs into per-output columns:
// score_videos(), the C API and exactvq-mpi's ranks all score through it.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "metrics/feature.h"

namespace exactvq {

class FeatureSet {
 public:
  // The features of `specs` (none: ssim) on ctx's device. Throws UsageError for an
  // output that two features name, and what make_feature throws.
  FeatureSet(std::vector<FeatureSpec> specs, const FeatureContext& ctx);
  // A set with no features (before a run knows its format).
  FeatureSet() = default;

  const std::vector<FeatureSpec>& specs() const { return specs_; }
  const std::vector<std::unique_ptr<Feature>>& features() const { return features_; }
  // Every feature's outputs, in order: the run's columns.
  const std::vector<std::string>& columns() const { return columns_; }
  // The largest batch a feature wants, and whether one needs its batches whole.
  int batch_frames() const { return batch_frames_; }
  bool needs_full_batches() const { return full_batches_; }

  // Scores `pairs` with every feature and appends each output's values to
  // columns[k] (columns() long); the caller's columns are left as they were if a
  // feature throws.
  void score(std::span<const FramePair> pairs, std::vector<std::vector<double>>& columns);
  // Every feature's aggregates, in feature order.
  std::vector<std::pair<std::string, double>> aggregates() const;
  // Destroys the features (a device's page-locked pictures must be released
  // before the pictures go).
  void clear() { features_.clear(); }

 private:
  std::vector<FeatureSpec> specs_;
  std::vector<std::unique_ptr<Feature>> features_;
  std::vector<std::string> columns_;
  int batch_frames_ = 1;
  bool full_batches_ = false;
  std::vector<double> values_;
  std::vector<std::vector<double>> scored_;
};

}  // namespace exactvq
