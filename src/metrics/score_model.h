// A model that turns a frame's feature values into its scores (VMAF's SVM): the
// features it needs, the outputs of theirs it reads, and its prediction, which
// runs on the host once the run's every per-frame and run output is known.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "metrics/feature_spec.h"

namespace exactvq {

class ScoreModel {
 public:
  virtual ~ScoreModel() = default;
  // The score's output name: "vmaf", or the label the user gave.
  virtual const std::string& output() const = 0;
  // The features it needs, in the model's order (e.g. adm, motion, vif).
  virtual const std::vector<FeatureSpec>& features() const = 0;
  // The output names it reads, in predict()'s order (e.g. integer_adm2).
  virtual const std::vector<std::string>& inputs() const = 0;
  // One frame's score from its inputs() values.
  virtual double predict(std::span<const double> inputs) const = 0;
  // Every score it writes, in order: output() alone for most models; a VMAF
  // bootstrap collection's members' and its statistics.
  virtual std::vector<std::string> outputs() const { return {output()}; }
  // One frame's scores, outputs() long, from its inputs() values.
  virtual void predict_all(std::span<const double> inputs, std::span<double> scores) const {
    scores[0] = predict(inputs);
  }
};

}  // namespace exactvq
