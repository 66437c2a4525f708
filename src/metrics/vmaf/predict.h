// A VMAF model's prediction for one frame, in libvmaf 3.2.0's operation order
// (predict.c, svm.cpp): normalise the inputs, the libsvm RBF decision value,
// undo the normalisation, transform, clip.
#pragma once

#include <span>

#include "metrics/vmaf/model.h"

namespace exactvq::vmaf {

// What libvmaf writes as the frame's model output ("vmaf", or the model's
// name): `inputs` are the frame's feature values in model.features' order.
// The kernel's exp() is the C library's, as libvmaf's (docs/spec/vmaf.md).
// Throws InputError when inputs.size() differs from the feature count.
double predict(const Model& model, std::span<const double> inputs);

// predict() in two halves, as a bootstrap collection uses them: the score
// before the transform and clip (libvmaf's flags DISABLE_CLIP and
// DISABLE_TRANSFORM), and the model's transform then clip applied to a score.
// predict(m, x) == transform_and_clip(m, predict_untransformed(m, x)).
double predict_untransformed(const Model& model, std::span<const double> inputs);
double transform_and_clip(const Model& model, double score);

// The stages, for tests and for the bootstrap-style uses libvmaf makes of them.
double svm_decision_value(const SvmModel& svm, std::span<const double> normalised_inputs);
double apply_score_transform(const ScoreTransform& transform, double score);
double apply_score_clip(const ScoreClip& clip, double score);

}  // namespace exactvq::vmaf
