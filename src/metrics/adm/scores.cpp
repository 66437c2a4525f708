#include "metrics/adm/scores.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

#include "metrics/adm/band.h"
#include "metrics/adm/csf_factors.h"
#include "metrics/adm/one_third_power.h"
#include "metrics/adm/scale_shifts.h"

namespace exactvq::adm {

namespace {

// pow(2, e) for libvmaf's unsigned exponents: a difference that went below
// zero wraps to ~2^32 and the power is infinite.
double power_of_two(int64_t e) { return e < 0 ? HUGE_VAL : std::ldexp(1.0, static_cast<int>(e)); }

struct ScaleScores {
  float num = 0, den = 0, aim_num = 0;
};

// powf((float)(area * weight), 1/3): the noise floor added to every orientation.
float noise_floor(const Region& g, double noise_weight) {
  const int area = (g.bottom - g.top) * (g.right - g.left);
  return one_third_power(static_cast<float>(area * noise_weight));
}

// Sum over orientations of powf(energy, 1/3) + floor, in float, h then v then d.
float orientation_total(const double energy[3], float floor) {
  float total = 0;
  for (int b = 0; b < 3; ++b) {
    const float term = one_third_power(static_cast<float>(energy[b])) + floor;
    total = b == 0 ? term : total + term;
  }
  return total;
}
float orientation_total(const float energy[3], float floor) {
  const double e[3] = {energy[0], energy[1], energy[2]};
  return orientation_total(e, floor);
}

float denominator_value_s0(const std::array<uint64_t, 3>& total, int w, int h, const CsfFactors& f,
                           double noise_weight) {
  const Region g = score_region(w, h);
  const int shift = denominator_shift_s0(g);
  // The bands carry 6 fractional bits: 18 in the cubes, less the shifts taken.
  const double scale = std::ldexp(1.0, 18 - shift);  // int arithmetic in libvmaf: no wrap
  const double cube[3] = {f.cube_hv[0], f.cube_hv[0], f.cube_d[0]};
  double energy[3];
  for (int b = 0; b < 3; ++b) energy[b] = static_cast<double>(total[b]) / scale * cube[b];
  return orientation_total(energy, noise_floor(g, noise_weight));
}

float numerator_value_s0(const std::array<int64_t, 3>& sums, int w, int h, double noise_weight) {
  const CubeShift cube = masking_cube_s0(w);
  const int hv_shift = cube.shift[0], d_shift = cube.shift[2];
  const int row_shift = ceil_log2(h);
  // Fractional bits left: 3 * (6 + 21) - 29 = 52 for h and v, 3 * (6 + 23) - 30 = 57 for d.
  const double scale[3] = {power_of_two(52 - hv_shift - row_shift),
                           power_of_two(52 - hv_shift - row_shift),
                           power_of_two(57 - d_shift - row_shift)};
  float energy[3];
  for (int b = 0; b < 3; ++b)
    energy[b] = static_cast<float>(static_cast<double>(sums[b]) / scale[b]);
  return orientation_total(energy, noise_floor(score_region(w, h), noise_weight));
}

float denominator_value_s123(const std::array<uint64_t, 3>& total, int w, int h, int scale,
                             const CsfFactors& f, double noise_weight) {
  const Region g = score_region(w, h);
  const int cube_shift = ceil_log2(g.right - g.left);
  const int row_shift = ceil_log2(g.bottom - g.top);
  static constexpr int kFractionBits[3] = {32, 27, 23};
  const double unit = power_of_two(kFractionBits[scale - 1] - row_shift - cube_shift);
  const double cube[3] = {f.cube_hv[scale], f.cube_hv[scale], f.cube_d[scale]};
  double energy[3];
  for (int b = 0; b < 3; ++b) energy[b] = static_cast<double>(total[b]) / unit * cube[b];
  return orientation_total(energy, noise_floor(g, noise_weight));
}

float numerator_value_s123(const std::array<int64_t, 3>& sums, int w, int h, int scale,
                           double noise_weight) {
  const int cube_shift = ceil_log2(w);
  static constexpr int kFractionBits[3] = {45, 39, 36};
  // libvmaf holds this power of two in a float and divides the int64 sum
  // converted to float by it: a float division.
  const float unit =
      static_cast<float>(power_of_two(kFractionBits[scale - 1] - cube_shift - ceil_log2(h)));
  float energy[3];
  for (int b = 0; b < 3; ++b) energy[b] = static_cast<float>(sums[b]) / unit;
  return orientation_total(energy, noise_floor(score_region(w, h), noise_weight));
}

template <typename T, size_t N>
std::array<T, 3> three(const T (&v)[N]) {
  return {v[0], v[1], v[2]};
}

ScaleScores scale_values(const ScaleSums& sums, int w, int h, int scale, const CsfFactors& f,
                         const AdmOptions& o) {
  ScaleScores out;
  if (scale == 0) {
    out.den = denominator_value_s0(three(sums.den), w, h, f, o.noise_weight);
    out.num = numerator_value_s0(three(sums.num), w, h, o.noise_weight);
    if (!o.skip_aim) out.aim_num = numerator_value_s0(three(sums.aim_num), w, h, 0.0);
  } else {
    out.den = denominator_value_s123(three(sums.den), w, h, scale, f, o.noise_weight);
    out.num = numerator_value_s123(three(sums.num), w, h, scale, o.noise_weight);
    if (!o.skip_aim) out.aim_num = numerator_value_s123(three(sums.aim_num), w, h, scale, 0.0);
  }
  return out;
}

// num / den of one scale; 0 / 0 (no detail at all, with adm_noise_weight=0)
// is x86-64's default NaN, negative, whatever this machine's division makes.
double scale_ratio(double num, double den) {
  const double r = num / den;
  return std::isnan(r) ? -std::numeric_limits<double>::quiet_NaN() : r;
}

}  // namespace

AdmScores adm_scores_from_sums(const AdmSums& sums, int width, int height, const AdmOptions& o) {
  const CsfFactors f = csf_factors(o);
  ScaleScores scales[4];
  int w = width, h = height;
  for (int n = 0; n < 4; ++n) {
    w = (w + 1) / 2;
    h = (h + 1) / 2;
    if (n == 0 && o.skip_scale0)
      scales[0].den = 1e-10f;  // libvmaf's guard against dividing by zero
    else
      scales[n] = scale_values(sums[size_t(n)], w, h, n, f, o);
  }

  // Binary64 sums of the float per-scale values, scale 0 first.
  double num = 0, den = 0, aim_num = 0;
  AdmScores out;
  for (int n = 0; n < 4; ++n) {
    num += scales[n].num;
    den += scales[n].den;
    aim_num += scales[n].aim_num;
    out.num_scale[n] = scales[n].num;
    out.den_scale[n] = scales[n].den;
    out.scale[n] = scale_ratio(out.num_scale[n], out.den_scale[n]);
  }
  const double limit = 1e-10 * (width * height) / (1920.0 * 1080.0);
  if (num < limit) num = 0;
  if (den < limit) den = 0;
  double score = 1.0, aim = 0.0;  // no reference detail: libvmaf's 1 (its AIM is then unset)
  if (den != 0.0) {
    aim = aim_num / den;
    score = num / den;
  }
  out.adm2 = score;
  out.aim = aim;
  const double adm3 = score * o.dlm_weight + (1 - aim) * (1 - o.dlm_weight);
  out.adm3 = adm3 > o.min_val ? adm3 : o.min_val;
  out.adm = score;
  out.num = num;
  out.den = den;
  return out;
}

}  // namespace exactvq::adm
