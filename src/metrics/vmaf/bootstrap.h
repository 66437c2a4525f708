// A bootstrap collection's scores for one frame, as libvmaf 3.2.0's predict.c
// computes them (docs/spec/vmaf.md, "Bootstrap collections"): each member's
// prediction, and from the members' untransformed, unclipped predictions their
// mean (bagging), spread (stddev) and 95% interval (2.5th and 97.5th
// percentiles), mapped through the first member's transform and clip.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "metrics/vmaf/model.h"

namespace exactvq::vmaf {

struct BootstrapScores {
  std::vector<double> members;  // each member's prediction (transformed, clipped)
  double bagging = 0.0;
  double stddev = 0.0;
  double ci_p95_lo = 0.0;
  double ci_p95_hi = 0.0;
};

// `inputs[i]` are member i's feature values in its features' order.
// Throws InputError for no members or an input count that differs.
BootstrapScores predict_bootstrap(std::span<const Model> members,
                                  std::span<const std::vector<double>> inputs);

// The output names libvmaf writes for a collection named `name` with `count`
// members, in its order: name_0001..., name_bagging, name_stddev,
// name_ci_p95_lo, name_ci_p95_hi.
std::vector<std::string> bootstrap_outputs(const std::string& name, std::size_t count);

// libvmaf's percentile of `sorted` (ascending, not empty): linear between
// the two scores either side of rank perc * (n - 1) / 100.
double bootstrap_percentile(std::span<const double> sorted, double perc);

}  // namespace exactvq::vmaf
