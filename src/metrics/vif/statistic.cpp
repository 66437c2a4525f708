#include "metrics/vif/statistic.h"

#include <algorithm>
#include <climits>

#include "metrics/vif/log2_table.h"

namespace exactvq::vif {

namespace {

// The noise variance sigma_n^2 = 2 in the moments' 16.16 fixed point.
constexpr int32_t kNoiseVariance = 65536 << 1;

// C's double-to-integer conversions as x86-64 performs them: toward zero, and
// the "integer indefinite" (the most negative value) when out of range, so
// that even values libvmaf never meets convert alike everywhere.
int32_t truncate_to_int32(double v) {
  if (!(v > -2147483649.0 && v < 2147483648.0)) return INT32_MIN;
  return int32_t(v);
}

int64_t truncate_to_int64(double v) {
  if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) return INT64_MIN;
  return int64_t(v);
}

uint32_t rounded_product_high(uint32_t a, uint32_t b) {
  return uint32_t((uint64_t(a) * b + 0x80000000u) >> 32);
}

uint32_t rounded_moment(uint64_t sum) { return uint32_t((sum + 32768) >> 16); }

}  // namespace

void vertical_moments(std::span<const uint8_t* const> ref_rows, std::span<const uint8_t* const> dist_rows,
                      SampleWidth sample, int width, std::span<const uint16_t> taps, Rounding mean,
                      Rounding square, MomentLines& out) {
  for (int x = 0; x < width; ++x) {
    uint32_t mu1 = 0, mu2 = 0;
    uint64_t xx = 0, yy = 0, xy = 0;
    for (size_t k = 0; k < taps.size(); ++k) {
      const uint32_t r = sample_at(ref_rows[k], sample, x);
      const uint32_t d = sample_at(dist_rows[k], sample, x);
      const uint32_t tr = taps[k] * r, td = taps[k] * d;
      mu1 += tr;
      mu2 += td;
      xx += uint64_t(tr) * r;
      yy += uint64_t(td) * d;
      xy += uint64_t(tr) * d;
    }
    out.mu1[x] = uint16_t((mu1 + mean.add) >> mean.shift);
    out.mu2[x] = uint16_t((mu2 + mean.add) >> mean.shift);
    out.xx[x] = uint32_t((xx + square.add) >> square.shift);
    out.yy[x] = uint32_t((yy + square.add) >> square.shift);
    out.xy[x] = uint32_t((xy + square.add) >> square.shift);
  }
}

void add_pixel_statistic(const PixelMoments& m, double gain_limit, LevelSums& sums) {
  const uint32_t mu1_sq = rounded_product_high(m.mu1, m.mu1);
  const uint32_t mu2_sq = rounded_product_high(m.mu2, m.mu2);
  const uint32_t mu1_mu2 = rounded_product_high(m.mu1, m.mu2);
  // Differences of 32-bit unsigned values read as signed, as libvmaf does.
  const int32_t sigma1_sq = int32_t(rounded_moment(m.xx) - mu1_sq);
  const int32_t sigma2_sq = std::max(int32_t(rounded_moment(m.yy) - mu2_sq), 0);
  const int32_t sigma12 = int32_t(rounded_moment(m.xy) - mu1_mu2);

  if (sigma1_sq < kNoiseVariance) {
    sums.num_non_log += sigma2_sq;
    sums.den_non_log += 1;
    return;
  }
  // log2(1 + sigma1^2 / sigma_n^2) = log2(sigma_n^2 + sigma1^2) - 17.
  sums.den_log += log2_fixed_32(uint32_t(kNoiseVariance) + uint32_t(sigma1_sq)) - 2048 * 17;
  if (sigma12 <= 0 || sigma2_sq <= 0) return;

  // The gain and the residual variance: binary64 in libvmaf's order.
  const double eps = 65536 * 1.0e-10;
  double gain = double(sigma12) / (double(sigma1_sq) + eps);
  const int32_t residual = std::max(truncate_to_int32(double(sigma2_sq) - gain * double(sigma12)), 0);
  gain = gain < gain_limit ? gain : gain_limit;
  // log2(1 + g^2 sigma1^2 / (sv^2 + sigma_n^2)) as a difference of two log2s.
  const uint32_t noise = uint32_t(residual) + uint32_t(kNoiseVariance);
  const int64_t signal = truncate_to_int64(gain * gain * double(sigma1_sq)) + int64_t(noise);
  sums.num_log += log2_fixed_64(uint64_t(signal)) - log2_fixed_64(noise);
}

LevelSums horizontal_statistics(const MomentLines& lines, int width, std::span<const uint16_t> taps,
                                double gain_limit) {
  const int half = int(taps.size() / 2);
  LevelSums sums;
  for (int x = 0; x < width; ++x) {
    PixelMoments m;
    for (size_t k = 0; k < taps.size(); ++k) {
      const int c = x - half + int(k);
      const uint32_t t = taps[k];
      m.mu1 += t * lines.mu1[c];
      m.mu2 += t * lines.mu2[c];
      m.xx += t * uint64_t(lines.xx[c]);
      m.yy += t * uint64_t(lines.yy[c]);
      m.xy += t * uint64_t(lines.xy[c]);
    }
    add_pixel_statistic(m, gain_limit, sums);
  }
  return sums;
}

LevelRatio level_ratio(const LevelSums& s) {
  const double num =
      double(s.num_log) / 2048.0 + (double(s.den_non_log) - (double(s.num_non_log) / 16384.0) / 65025.0);
  const double den = double(s.den_log) / 2048.0 + double(s.den_non_log);
  return {float(num), float(den)};
}

}  // namespace exactvq::vif
