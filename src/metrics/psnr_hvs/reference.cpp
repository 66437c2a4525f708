#include "metrics/psnr_hvs/reference.h"

#include <cmath>
#include <cstdlib>

#include "libm/libm.h"

namespace exactvq::psnr_hvs {

PlaneWeights plane_weights(int plane) {
  PlaneWeights w;
  for (int i = 0; i < kBlock; ++i)
    for (int j = 0; j < kBlock; ++j) {
      w.csf[i * kBlock + j] = csf_weight(plane, i, j);
      w.mask[i * kBlock + j] = masking_weight(csf_weight(plane, i, j));
    }
  return w;
}

namespace {

template <typename Sample>
void load_samples(const PlaneView& plane, int x, int y, int32_t block[kCoefficients]) {
  for (int i = 0; i < kBlock; ++i) {
    const Sample* row = plane.row<Sample>(y + i) + x;
    for (int j = 0; j < kBlock; ++j) block[i * kBlock + j] = int32_t(row[j]);
  }
}

// Which 4x4 quarter of the block a sample lies in: 0 top left, 1 bottom left,
// 2 top right, 3 bottom right (libvmaf's numbering).
int quarter(int i, int j) { return (i >= 4 ? 1 : 0) + (j >= 4 ? 2 : 0); }

// sqrt(weighted AC energy * variance ratio) / 32: the masking threshold of a
// transformed block, binary32 (the square root in binary64, as C's sqrt).
float masking_threshold(const int32_t coeffs[kCoefficients], float ratio, const PlaneWeights& w) {
  float energy = 0;
  for (int k = 1; k < kCoefficients; ++k) energy += float(coeffs[k] * coeffs[k]) * w.mask[k];
  return float(std::sqrt(double(energy * ratio)) / 32.0);
}

}  // namespace

void load_block(const PlaneView& plane, int x, int y, int32_t block[kCoefficients]) {
  if (plane.bytes_per_sample == 1)
    load_samples<uint8_t>(plane, x, y, block);
  else
    load_samples<uint16_t>(plane, x, y, block);
}

float variance_ratio(const int32_t block[kCoefficients]) {
  float mean = 0, quarter_means[4] = {0, 0, 0, 0};
  for (int i = 0; i < kBlock; ++i)
    for (int j = 0; j < kBlock; ++j) {
      const float v = float(block[i * kBlock + j]);
      mean += v;
      quarter_means[quarter(i, j)] += v;
    }
  mean /= 64.0f;
  for (float& m : quarter_means) m /= 16.0f;
  float variance = 0, quarter_variances[4] = {0, 0, 0, 0};
  for (int i = 0; i < kBlock; ++i)
    for (int j = 0; j < kBlock; ++j) {
      const float v = float(block[i * kBlock + j]);
      const int q = quarter(i, j);
      variance += (v - mean) * (v - mean);
      quarter_variances[q] += (v - quarter_means[q]) * (v - quarter_means[q]);
    }
  variance *= kBlockVarianceScale;
  for (float& q : quarter_variances) q *= kQuarterVarianceScale;
  if (variance > 0)
    variance = (quarter_variances[0] + quarter_variances[1] + quarter_variances[2] +
                quarter_variances[3]) /
               variance;
  return variance;
}

void block_terms(int32_t ref[kCoefficients], int32_t dist[kCoefficients], const PlaneWeights& w,
                 float terms[kCoefficients]) {
  const float ref_ratio = variance_ratio(ref), dist_ratio = variance_ratio(dist);
  fdct8x8(ref);
  fdct8x8(dist);
  // The larger of the two pictures' thresholds masks the error.
  float threshold = masking_threshold(ref, ref_ratio, w);
  const float dist_threshold = masking_threshold(dist, dist_ratio, w);
  if (dist_threshold > threshold) threshold = dist_threshold;
  for (int k = 0; k < kCoefficients; ++k) {
    float err = float(std::abs(ref[k] - dist[k]));
    if (k != 0) {  // the DC coefficient is never masked
      const float masked = threshold / w.mask[k];
      err = err < masked ? 0.0f : err - masked;
    }
    terms[k] = (err * w.csf[k]) * (err * w.csf[k]);
  }
}

float plane_error_sum_reference(const PlaneView& ref, const PlaneView& dist, int plane) {
  const PlaneWeights w = plane_weights(plane);
  float sum = 0;
  int32_t r[kCoefficients], d[kCoefficients];
  float terms[kCoefficients];
  for (int y = 0; y < ref.height - (kBlock - 1); y += kStep)
    for (int x = 0; x < ref.width - (kBlock - 1); x += kStep) {
      load_block(ref, x, y, r);
      load_block(dist, x, y, d);
      block_terms(r, d, w, terms);
      for (float t : terms) sum += t;
    }
  return sum;
}

double plane_score(float error_sum, int width, int height, int bitdepth) {
  const int coefficients = kCoefficients * blocks_along(width) * blocks_along(height);
  const int32_t peak = (int32_t{1} << bitdepth) - 1;
  float score = error_sum;
  score /= float(coefficients);
  score /= float(peak * peak);
  return double(score);
}

double decibels(double score) { return 10.0 * (-1.0 * libm::log10(1.0 * score)); }

}  // namespace exactvq::psnr_hvs
