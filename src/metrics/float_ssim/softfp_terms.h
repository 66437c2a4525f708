/* float_ssim's binary64 steps of a position's terms on softfp, for devices
 * without fp64 (docs/spec/float_ssim.md, "SSIM of one scale", step 4): the
 * square root of the variances' binary32 product, the luminance and contrast
 * quotients, and the SSIM term (l * c) * s, each binary64 operation the
 * correctly rounded softfp one, in the definition's order. The binary32 steps
 * (variances, covariance, denominators, s) stay the caller's, in binary32.
 * Values go in and out as bit patterns. In the subset of core/portable.h;
 * tested on the host against the scalar reference's terms
 * (tests/float_ssim/softfp_terms_test.cpp).
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

EXACTVQ_FN float_ssim_soft_terms float_ssim_soft_terms_of(exactvq_u32 mu1, exactvq_u32 mu2, exactvq_u32 c1,
                                                          exactvq_u32 lum_den, exactvq_u32 sd, exactvq_u32 c2,
                                                          exactvq_u32 con_den, exactvq_u32 s) {
  const softfp l = softfp_div(
      softfp_add(softfp_mul(softfp_twice(softfp_from_f32_bits(mu1)), softfp_from_f32_bits(mu2)),
                 softfp_from_f32_bits(c1)),
      softfp_from_f32_bits(lum_den));
  const softfp c = softfp_div(softfp_add(softfp_twice(softfp_from_f32_bits(sd)), softfp_from_f32_bits(c2)),
                              softfp_from_f32_bits(con_den));
  float_ssim_soft_terms t;
  t.l = softfp_to_bits(l);
  t.c = softfp_to_bits(c);
  t.lcs = softfp_to_bits(softfp_mul(softfp_mul(l, c), softfp_from_f32_bits(s)));
  return t;
}

#endif /* EXACTVQ_METRICS_FLOAT_SSIM_SOFTFP_TERMS_H */
