#include "metrics/speed/device_plan.h"

#include <bit>
#include <cmath>

namespace exactvq::speed {

namespace {

// No resampling: speed_prescale within 1e-3 of 1 (libvmaf skips it), or a
// prescale that rounds to the same size.
bool resamples(const SpeedOptions& o, int width, int height) {
  if (std::fabs(o.prescale - 1.0) < 1.0e-3) return false;
  const Dimensions d = dimensions_of(width, height, o.prescale);
  return !(d.scaled_width == width && d.scaled_height == height);
}

}  // namespace

DevicePlan make_device_plan(int width, int height, const SpeedOptions& o) {
  DevicePlan p;
  p.source_width = p.width = width;
  p.source_height = p.height = height;
  p.dim = dimensions_of(width, height, o.prescale);
  if (!p.dim.scoreable()) return p;
  p.resample = resamples(o, width, height);
  if (p.resample) {
    p.width = p.dim.scaled_width;
    p.height = p.dim.scaled_height;
    p.method = int(o.prescale_method);
    p.columns = scale_axis(o.prescale_method, width, p.width);
    p.rows = scale_axis(o.prescale_method, height, p.height);
  }
  p.antialias = antialias_taps(o);
  p.local_mean = local_mean_taps(o);
  p.window_count = float(size_t(p.dim.submatrix_width) * size_t(p.dim.submatrix_height));
  p.sigma_nn = float(o.sigma_nn);
  p.base_entropy = base_entropy(o);
  p.log2_2pie_bits = std::bit_cast<uint64_t>(log2_two_pi_e());
  p.weight_var_mode = o.weight_var_mode;
  return p;
}

PairScore pair_score(const float* terms, int blocks, bool ref_singular, bool dis_singular) {
  PairScore out;
  out.singular = ref_singular || dis_singular;
  if (ref_singular != dis_singular) return out;
  float score = 0;
  for (int i = 0; i < blocks; ++i) score += terms[i];
  out.score = score / float(blocks);
  return out;
}

}  // namespace exactvq::speed
