#include "metrics/speed/device_plan.h"

#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "core/error.h"

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
  p.width = width;
  p.height = height;
  p.dim = dimensions_of(width, height, o.prescale);
  if (!p.dim.scoreable()) return p;
  p.antialias = antialias_taps(o);
  p.local_mean = local_mean_taps(o);
  p.window_count = float(size_t(p.dim.submatrix_width) * size_t(p.dim.submatrix_height));
  p.sigma_nn = float(o.sigma_nn);
  p.base_entropy = base_entropy(o);
  p.log2_2pie_bits = std::bit_cast<uint64_t>(log2_two_pi_e());
  p.weight_var_mode = o.weight_var_mode;
  return p;
}

void check_device_options(const SpeedOptions& o, int width, int height, std::string_view feature) {
  if (resamples(o, width, height))
    throw DeviceError(fmt::format(
        "speed_prescale={:g} resamples the {}x{} plane, which the GPU engines of {} do not do "
        "yet (they score unscaled planes); use --backend cpu for this option",
        o.prescale, width, height, feature));
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
