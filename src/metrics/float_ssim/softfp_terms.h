/* float_ssim's binary64 steps of a position's terms on softfp, for devices
 * without fp64 (docs/spec/float_ssim.md, "SSIM of one scale", step 4): the
 * square root of the variances' binary32 product, the luminance and contrast
 * quotients, and the SSIM term (l * c) * s, each binary64 operation the
 * correctly rounded softfp one, in the definition's order. The binary32 steps
 * (variances, covariance, denominators) stay the caller's, in binary32; the
 * tap sums of the windows and the decimation (binary32 products added in
 * binary64) have helpers here, and the binary32 quotient s and the roundings to
 * binary32 are softfp's (softfp_binary32.h: softfp_f32_div, softfp_to_f32_bits),
 * for devices whose binary32 division is not correctly rounded. Values go in and out as bit
 * patterns. In the subset of core/portable.h;
 * tested on the host against the scalar reference's terms
 * (tests/metrics/float_ssim/softfp_terms_test.cpp).
 */
#ifndef EXACTVQ_METRICS_FLOAT_SSIM_SOFTFP_TERMS_H
#define EXACTVQ_METRICS_FLOAT_SSIM_SOFTFP_TERMS_H

#include "softfp/softfp_sqrt.h"

/* sd = f32(sqrt(f64(p))) for the binary32 product p = var1 * var2 (zero or
 * positive and finite: both variances are floored at zero). */
EXACTVQ_FN exactvq_u32 float_ssim_soft_sd(exactvq_u32 p) {
  return softfp_to_f32_bits(softfp_sqrt(softfp_from_f32_bits(p)));
}

/* The binary64 terms from binary32 values: l = ((2 * mu1) * mu2 + c1) /
 * lum_den, c = (2 * sd + c2) / con_den, lcs = (l * c) * s. Both denominators are
 * at least their constant (c1, c2 > 0), so no division is by zero. */
typedef struct float_ssim_soft_terms {
  exactvq_u64 l, c, lcs;
} float_ssim_soft_terms;

EXACTVQ_FN float_ssim_soft_terms float_ssim_soft_terms_of(exactvq_u32 mu1, exactvq_u32 mu2,
                                                          exactvq_u32 c1, exactvq_u32 lum_den,
                                                          exactvq_u32 sd, exactvq_u32 c2,
                                                          exactvq_u32 con_den, exactvq_u32 s) {
  const softfp l = softfp_div(
      softfp_add(softfp_mul(softfp_twice(softfp_from_f32_bits(mu1)), softfp_from_f32_bits(mu2)),
                 softfp_from_f32_bits(c1)),
      softfp_from_f32_bits(lum_den));
  const softfp c =
      softfp_div(softfp_add(softfp_twice(softfp_from_f32_bits(sd)), softfp_from_f32_bits(c2)),
                 softfp_from_f32_bits(con_den));
  float_ssim_soft_terms t;
  t.l = softfp_to_bits(l);
  t.c = softfp_to_bits(c);
  t.lcs = softfp_to_bits(softfp_mul(softfp_mul(l, c), softfp_from_f32_bits(s)));
  return t;
}

/* One step of a tap sum (the window passes and the decimation): the binary64
 * sum plus the binary32 product p (its bit pattern) widened, exactly:
 * sum + f64(p) rounded once. Products and sums are finite. */
EXACTVQ_FN softfp float_ssim_soft_tap_step(softfp sum, exactvq_u32 p) {
  return softfp_add(sum, softfp_from_f32_bits(p));
}

/* A tap sum whole: the binary64 sum, from +0 and in order, of the n binary32
 * values p[0..n-1] (bit patterns, finite; n <= 128) widened, as
 * float_ssim_soft_tap_step adds them one by one. Each value is m * 2^e with an
 * integer m < 2^24 (e = -149 for subnormals). When the non-zero ones lie within
 * 2^29 of each other, they are added exactly as integers in units of 2^emin;
 * if the sum of their magnitudes stays under 2^53 units, every partial sum of
 * the sequential order is an integer of at most 53 bits in those units, so
 * each binary64 addition was exact and the sum is the exact one (zero exactly
 * only by cancellation, which round to nearest makes +0, or from zeros only,
 * which added to +0 stay +0). Otherwise the values are added one by one. */
EXACTVQ_FN softfp float_ssim_soft_tap_sum(const exactvq_u32* p, int n) {
  exactvq_i32 emin = 1000, emax = -1000;
  for (int k = 0; k < n; ++k) {
    if ((p[k] & 0x7FFFFFFFu) == 0) continue;
    const exactvq_i32 biased = (exactvq_i32)((p[k] >> 23) & 0xFF);
    const exactvq_i32 e = biased ? biased - 150 : -149;
    emin = e < emin ? e : emin;
    emax = e > emax ? e : emax;
  }
  if (emax < emin) return softfp_make(0, 0, 0);
  if (emax - emin <= 29) {
    exactvq_u64 magnitude = 0;
    exactvq_i64 sum = 0;
    for (int k = 0; k < n; ++k) {
      const exactvq_u32 bits = p[k] & 0x7FFFFFFFu;
      if (bits == 0) continue;
      const exactvq_i32 biased = (exactvq_i32)(bits >> 23);
      const exactvq_u64 m = (exactvq_u64)((bits & 0x7FFFFFu) | (biased ? 0x800000u : 0u));
      /* under 2^53 each: n of them fit 64 bits */
      const exactvq_u64 units = m << (exactvq_u32)((biased ? biased - 150 : -149) - emin);
      magnitude += units;
      sum += (p[k] >> 31) ? -(exactvq_i64)units : (exactvq_i64)units;
    }
    if (magnitude < (SOFTFP_U64_C(1) << 53)) {
      if (sum == 0) return softfp_make(0, 0, 0);
      return softfp_round(sum < 0 ? 1 : 0, (exactvq_u64)(sum < 0 ? -sum : sum), emin);
    }
  }
  softfp total = softfp_make(0, 0, 0);
  for (int k = 0; k < n; ++k) total = float_ssim_soft_tap_step(total, p[k]);
  return total;
}

/* The binary64 pattern of the binary32 value with pattern `bits` (exact). */
EXACTVQ_FN exactvq_u64 float_ssim_soft_widen(exactvq_u32 bits) {
  return softfp_to_bits(softfp_from_f32_bits(bits));
}

#endif /* EXACTVQ_METRICS_FLOAT_SSIM_SOFTFP_TERMS_H */
