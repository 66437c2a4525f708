// Every floating-point step below is one binary64 operation in the order
// libvmaf performs it (the build has -ffp-contract=off, so no step fuses).
#include "libm/libm.h"
#include "metrics/vmaf/predict.h"

#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "metrics/vmaf/chroma_correction.h"

namespace exactvq::vmaf {

namespace {

// libvmaf's RBF kernel walks the input's nodes (indices 1..n, all present)
// and the support vector's (ascending, some absent) together: a shared index
// adds (x - v)^2, an index only one side has adds its value squared. The sum
// keeps that order.
double rbf_kernel(double gamma, std::span<const double> x, const std::vector<SvmNode>& sv) {
  double sum = 0.0;
  std::size_t i = 0;  // x's node i has index i + 1
  std::size_t j = 0;
  while (i < x.size() && j < sv.size()) {
    const int xi = static_cast<int>(i) + 1;
    if (xi == sv[j].index) {
      const double d = x[i] - sv[j].value;
      sum += d * d;
      ++i;
      ++j;
    } else if (xi > sv[j].index) {
      sum += sv[j].value * sv[j].value;
      ++j;
    } else {
      sum += x[i] * x[i];
      ++i;
    }
  }
  for (; i < x.size(); ++i) sum += x[i] * x[i];
  for (; j < sv.size(); ++j) sum += sv[j].value * sv[j].value;
  return libm::exp(-gamma * sum);
}

// The line through two knots, as libvmaf derives it (a knot at x = 0 gives
// the offset directly).
struct Line {
  double slope;
  double offset;
};

Line line_through(const KnotPoint& a, const KnotPoint& b) {
  if (b.x - a.x == 0 || b.y - a.y == 0) return {1.0, 0.0};  // unreachable for checked knots
  if (a.x == 0) return {(b.y - a.y) / b.x, a.y};
  const double slope = (b.y - a.y) / (b.x - a.x);
  return {slope, a.y - a.x * slope};
}

// libvmaf's piecewise-linear map: every segment is visited in order and the
// last one that claims x sets the value; points outside the knots extend the
// first or last segment.
double piecewise_linear(const std::vector<KnotPoint>& knots, double x, double unmapped) {
  if (knots.size() <= 1) return unmapped;
  const std::size_t segments = knots.size() - 1;
  double y = 0.0;
  for (std::size_t s = 0; s < segments; ++s) {
    const KnotPoint& a = knots[s];
    const KnotPoint& b = knots[s + 1];
    const bool inside = a.x <= x && x <= b.x;
    const bool below = s == 0 && x < a.x;
    const bool above = s == segments - 1 && x > b.x;
    if (a.y == b.y) {
      if (inside || below || above) y = a.y;
    } else {
      const Line line = line_through(a, b);
      if (inside || below || above) y = line.slope * x + line.offset;
    }
  }
  return y;
}

}  // namespace

double svm_decision_value(const SvmModel& svm, std::span<const double> normalised_inputs) {
  double sum = 0.0;
  for (const SupportVector& sv : svm.support_vectors)
    sum += sv.coefficient * rbf_kernel(svm.gamma, normalised_inputs, sv.nodes);
  sum -= svm.rho;
  return sum;
}

double apply_score_transform(const ScoreTransform& t, double score) {
  if (!t.enabled) return score;
  double y = score;
  if (t.p0 || t.p1 || t.p2) {
    y = 0.0;
    if (t.p0) y += *t.p0;
    if (t.p1) y += *t.p1 * score;
    if (t.p2) y += *t.p2 * score * score;
  }
  y = piecewise_linear(t.knots, y, y);
  if (t.out_lte_in && y > score) y = score;
  if (t.out_gte_in && y < score) y = score;
  return y;
}

double apply_score_clip(const ScoreClip& clip, double score) {
  if (score < clip.min) score = clip.min;
  if (score > clip.max) score = clip.max;
  return score;
}

double predict_untransformed(const Model& model, std::span<const double> inputs) {
  if (inputs.size() != model.features.size())
    throw InputError(fmt::format("model {}: {} feature values given for its {} features",
                                 model.version, inputs.size(), model.features.size()));
  std::vector<double> x(inputs.begin(), inputs.end());
  const bool rescale = model.norm_type == NormType::kLinearRescale;
  if (rescale)
    for (std::size_t i = 0; i < x.size(); ++i)
      x[i] = model.features[i].slope * x[i] + model.features[i].intercept;
  if (model.chroma_correction) apply_chroma_correction(model, *model.chroma_correction, x);
  double score = svm_decision_value(model.svm, x);
  if (rescale) score = (score - model.intercept) / model.slope;
  return score;
}

double transform_and_clip(const Model& model, double score) {
  score = apply_score_transform(model.score_transform, score);
  if (model.score_clip) score = apply_score_clip(*model.score_clip, score);
  return score;
}

double predict(const Model& model, std::span<const double> inputs) {
  return transform_and_clip(model, predict_untransformed(model, inputs));
}

}  // namespace exactvq::vmaf
