// libvmaf's pooling of one feature's per-frame scores (vmaf_feature_score_pooled).
#include <limits>

#include "output/report.h"

namespace exactvq {

// Same operations, in the same order, as libvmaf 3.x, so the pooled values match it
// bit for bit: one pass in frame order accumulating sum += v and i_sum += 1/(v+1);
// min and max start from the first value and are replaced only when `v < min` or
// `v > max` (so a NaN after the first frame never becomes the min or max, and a NaN in
// the first frame stays). mean = sum / n and harmonic_mean = n / i_sum - 1, n as double.
//
// An empty series has no pooled values: every field is NaN, which the writers print as
// null (JSON) or nan (XML).
Pooled pool(const std::vector<double>& values) {
  if (values.empty()) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return Pooled{nan, nan, nan, nan};
  }
  double min = 0.0, max = 0.0, sum = 0.0, i_sum = 0.0;
  bool first = true;
  for (const double v : values) {
    sum += v;
    i_sum += 1.0 / (v + 1.0);
    if (first || v < min) min = v;
    if (first || v > max) max = v;
    first = false;
  }
  const auto n = static_cast<double>(values.size());
  Pooled p;
  p.min = min;
  p.max = max;
  p.mean = sum / n;
  p.harmonic_mean = n / i_sum - 1.0;
  return p;
}

}  // namespace exactvq
