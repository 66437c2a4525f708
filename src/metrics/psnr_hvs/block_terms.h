/* psnr_hvs's per-block arithmetic (docs/spec/psnr_hvs.md, "The integer
 * transform", "One block", "A plane") written once for every backend in the
 * subset of core/portable.h: the integer DCT, the variance ratio, the masking
 * thresholds, a block's 64 weighted error terms, and the sequential binary32
 * sum of a plane's terms. definition.h's transform is this one; the CUDA and
 * OpenCL kernels call the rest, and the host tests hold it to the scalar
 * reference (reference.cpp) bit for bit (tests/metrics/psnr_hvs/block_terms_test.cpp).
 *
 * Binary32 +, - and * are IEEE's, one at a time (no contraction: -fmad=false,
 * FP_CONTRACT OFF). The two divisions by powers of two (the means' /64 and /16)
 * are products with 2^-6 and 2^-4: the same values, as the means are zero or at
 * least 2^-6 (no underflow), and exact in OpenCL, whose division need not be
 * correctly rounded. The other divisions and the binary64 square root go
 * through psnr_hvs_quotient and psnr_hvs_threshold: native where the device
 * rounds correctly (`soft` 0: C++, CUDA, and OpenCL in a program built with
 * -cl-fp32-correctly-rounded-divide-sqrt, whose binary32 square root gives the
 * binary64 path's bits: psnr_hvs_binary32_threshold), or on softfp's integers
 * (`soft` 1, other OpenCL programs), which give the same bits. No value of the
 * definition is subnormal (the spec's "Ranges"), so devices that flush
 * subnormals give the same bits too.
 */
#ifndef EXACTVQ_METRICS_PSNR_HVS_BLOCK_TERMS_H
#define EXACTVQ_METRICS_PSNR_HVS_BLOCK_TERMS_H

#include "core/portable.h"
#include "core/portable_bits.h"
#include "softfp/softfp_sqrt.h"

#if !defined(__OPENCL_VERSION__)
#include <math.h>
#endif

#define PSNR_HVS_BLOCK 8
#define PSNR_HVS_STEP 7
#define PSNR_HVS_COEFFICIENTS 64

/* a / 2^shift rounded toward zero (Daala's unbiased shift): the sign bit's
 * 2^shift - 1 added before the arithmetic shift. 32-bit arithmetic. */
EXACTVQ_FN exactvq_i32 psnr_hvs_unbiased_shift(exactvq_i32 a, int shift) {
  return (exactvq_i32)(((exactvq_u32)a >> (32 - shift)) + (exactvq_u32)a) >> shift;
}

/* (a * c + 2^(shift - 1)) >> shift: a lifting step's rounded product. Every
 * product stays within 32 bits for samples of up to 12 bits. */
EXACTVQ_FN exactvq_i32 psnr_hvs_lift(exactvq_i32 a, exactvq_i32 c, int shift) {
  return (a * c + ((exactvq_i32)1 << (shift - 1))) >> shift;
}

/* Daala's 8-point integer DCT-II (od_bin_fdct8) of x[0], x[stride], ...,
 * x[7 * stride] into y[0..7]: butterflies, then rotations in lifting steps. */
EXACTVQ_FN void psnr_hvs_fdct8(exactvq_i32* y, const exactvq_i32* x, int stride) {
  /* The inputs in the butterflies' order. */
  exactvq_i32 t0 = x[0 * stride], t4 = x[1 * stride], t2 = x[2 * stride], t6 = x[3 * stride];
  exactvq_i32 t7 = x[4 * stride], t3 = x[5 * stride], t5 = x[6 * stride], t1 = x[7 * stride];
  /* Sum and difference butterflies. */
  t1 = t0 - t1;
  const exactvq_i32 t1h = psnr_hvs_unbiased_shift(t1, 1);
  t0 -= t1h;
  t4 += t5;
  const exactvq_i32 t4h = psnr_hvs_unbiased_shift(t4, 1);
  t5 -= t4h;
  t3 = t2 - t3;
  t2 -= psnr_hvs_unbiased_shift(t3, 1);
  t6 += t7;
  const exactvq_i32 t6h = psnr_hvs_unbiased_shift(t6, 1);
  t7 = t6h - t7;
  /* The even half: a 4-point DCT-II. */
  t0 += t6h;
  t6 = t0 - t6;
  t2 = t4h - t2;
  t4 = t2 - t4;
  /* Its 2-point DCT-II: rotation by pi/4 in three lifts. */
  t0 -= psnr_hvs_lift(t4, 13573, 15);
  t4 += psnr_hvs_lift(t0, 11585, 14);
  t0 -= psnr_hvs_lift(t4, 13573, 15);
  /* Its 2-point DST-IV: rotation by 3 pi / 8. */
  t6 -= psnr_hvs_lift(t2, 21895, 15);
  t2 += psnr_hvs_lift(t6, 15137, 14);
  t6 -= psnr_hvs_lift(t2, 21895, 15);
  /* The odd half: a 4-point DST-IV. */
  t3 += psnr_hvs_lift(t5, 19195, 15);
  t5 += psnr_hvs_lift(t3, 11585, 14);
  t3 -= psnr_hvs_lift(t5, 7489, 13);
  t7 = psnr_hvs_unbiased_shift(t5, 1) - t7;
  t5 -= t7;
  t3 = t1h - t3;
  t1 -= t3;
  /* Rotation by pi / 16. */
  t7 += psnr_hvs_lift(t1, 3227, 15);
  t1 -= psnr_hvs_lift(t7, 6393, 15);
  t7 += psnr_hvs_lift(t1, 3227, 15);
  /* Rotation by 3 pi / 16. */
  t5 += psnr_hvs_lift(t3, 2485, 13);
  t3 -= psnr_hvs_lift(t5, 18205, 15);
  t5 += psnr_hvs_lift(t3, 2485, 13);
  y[0] = t0;
  y[1] = t1;
  y[2] = t2;
  y[3] = t3;
  y[4] = t4;
  y[5] = t5;
  y[6] = t6;
  y[7] = t7;
}

/* The 8x8 transform of a row-major block in place: each column's transform
 * becomes a row of a scratch block, then each scratch column a row of the
 * result (element [u * 8 + v]: vertical frequency u, horizontal v). */
EXACTVQ_FN void psnr_hvs_fdct8x8(exactvq_i32* block) {
  exactvq_i32 columns[PSNR_HVS_COEFFICIENTS];
  for (int i = 0; i < PSNR_HVS_BLOCK; ++i)
    psnr_hvs_fdct8(columns + PSNR_HVS_BLOCK * i, block + i, PSNR_HVS_BLOCK);
  for (int i = 0; i < PSNR_HVS_BLOCK; ++i)
    psnr_hvs_fdct8(block + PSNR_HVS_BLOCK * i, columns + i, PSNR_HVS_BLOCK);
}

/* a / b in binary32, correctly rounded, on integers (softfp_binary32.h). For
 * finite a >= 0 and b > 0 (every quotient of the definition). */
EXACTVQ_FN float psnr_hvs_soft_quotient(float a, float b) {
  return exactvq_f32_of_bits(softfp_f32_div(exactvq_f32_bits(a), exactvq_f32_bits(b)));
}

/* f32(sqrt(f64(x)) / 32) on softfp: the definition's binary64 square root and
 * division, each correctly rounded, then the rounding to binary32. For finite
 * x >= 0 (zero or normal results). */
EXACTVQ_FN float psnr_hvs_soft_threshold(float x) {
  const softfp root = softfp_sqrt(softfp_from_f32_bits(exactvq_f32_bits(x)));
  const softfp thirty_two = softfp_from_f32_bits(0x42000000u); /* 32.0f */
  return exactvq_f32_of_bits(softfp_to_f32_bits(softfp_div(root, thirty_two)));
}

/* f32(sqrt(f64(x)) / 32) in binary32 alone, for OpenCL, which has no binary64:
 * the correctly rounded binary32 square root (OpenCL's sqrt in a program built
 * with -cl-fp32-correctly-rounded-divide-sqrt), times 2^-5. The same bits:
 * rounding the root to binary64 and then to binary32 is rounding it to binary32
 * (53 >= 2 x 24 + 2), and scaling by 2^-5 commutes with the roundings, the
 * results being normal. For finite x >= 0. */
EXACTVQ_FN float psnr_hvs_binary32_threshold(float x) {
#if defined(__OPENCL_VERSION__)
  return sqrt(x) * 0.03125f;
#else
  return sqrtf(x) * 0.03125f;
#endif
}

/* a / b, correctly rounded: natively (soft 0; on OpenCL only in a program built
 * with -cl-fp32-correctly-rounded-divide-sqrt) or on softfp (soft 1). */
EXACTVQ_FN float psnr_hvs_quotient(float a, float b, int soft) {
#if defined(__CUDA_ARCH__)
  return soft ? psnr_hvs_soft_quotient(a, b) : __fdiv_rn(a, b);
#else
  return soft ? psnr_hvs_soft_quotient(a, b) : a / b;
#endif
}

/* The masking threshold f32(sqrt(f64(x)) / 32): natively (soft 0; on OpenCL in
 * binary32, in a program built as psnr_hvs_quotient says) or on softfp (soft 1). */
EXACTVQ_FN float psnr_hvs_threshold(float x, int soft) {
#if defined(__OPENCL_VERSION__)
  return soft ? psnr_hvs_soft_threshold(x) : psnr_hvs_binary32_threshold(x);
#elif defined(__CUDA_ARCH__)
  return soft ? psnr_hvs_soft_threshold(x)
              : __double2float_rn(__ddiv_rn(__dsqrt_rn((double)x), 32.0));
#else
  return soft ? psnr_hvs_soft_threshold(x) : (float)(sqrt((double)x) / 32.0);
#endif
}

/* Which 4x4 quarter sample (i, j) lies in: 0 top left, 1 bottom left, 2 top
 * right, 3 bottom right. */
EXACTVQ_FN int psnr_hvs_quarter(int i, int j) { return (i >= 4 ? 1 : 0) + (j >= 4 ? 2 : 0); }

/* The block's masking activity: its quarters' variances (each times v16 =
 * f32(f32(1/15) * 16)) summed, over its own variance (times v64 =
 * f32(f32(1/63) * 64)); 0 for a flat block. */
EXACTVQ_FN float psnr_hvs_variance_ratio(const exactvq_i32* block, float v64, float v16, int soft) {
  float mean = 0.0f;
  float quarter_means[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int i = 0; i < PSNR_HVS_BLOCK; ++i)
    for (int j = 0; j < PSNR_HVS_BLOCK; ++j) {
      const float v = (float)block[i * PSNR_HVS_BLOCK + j];
      mean = mean + v;
      const int q = psnr_hvs_quarter(i, j);
      quarter_means[q] = quarter_means[q] + v;
    }
  mean = mean * 0.015625f;                                                   /* / 64 */
  for (int q = 0; q < 4; ++q) quarter_means[q] = quarter_means[q] * 0.0625f; /* / 16 */
  float variance = 0.0f;
  float quarter_variances[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int i = 0; i < PSNR_HVS_BLOCK; ++i)
    for (int j = 0; j < PSNR_HVS_BLOCK; ++j) {
      const float v = (float)block[i * PSNR_HVS_BLOCK + j];
      const int q = psnr_hvs_quarter(i, j);
      const float e = v - mean, eq = v - quarter_means[q];
      variance = variance + e * e;
      quarter_variances[q] = quarter_variances[q] + eq * eq;
    }
  variance = variance * v64;
  for (int q = 0; q < 4; ++q) quarter_variances[q] = quarter_variances[q] * v16;
  if (variance > 0.0f)
    variance =
        psnr_hvs_quotient(((quarter_variances[0] + quarter_variances[1]) + quarter_variances[2]) +
                              quarter_variances[3],
                          variance, soft);
  return variance;
}

/* A transformed block's masking threshold: its AC coefficients' squares
 * weighted by `mask` and summed (binary32), times the variance ratio, through
 * psnr_hvs_threshold. */
EXACTVQ_FN float psnr_hvs_masking_threshold(const exactvq_i32* coeffs, float ratio,
                                            const EXACTVQ_GLOBAL float* mask, int soft) {
  float energy = 0.0f;
  for (int k = 1; k < PSNR_HVS_COEFFICIENTS; ++k)
    energy = energy + (float)(coeffs[k] * coeffs[k]) * mask[k];
  return psnr_hvs_threshold(energy * ratio, soft);
}

/* The 64 terms (err * csf)^2 of a block pair into terms[0..63], coefficient
 * order. `ref` and `dist` hold the samples (row-major) and are overwritten with
 * their transforms; `csf` and `mask` are the plane's weights (reference.h's
 * PlaneWeights), v64 and v16 the variance scales. */
EXACTVQ_FN void psnr_hvs_block_terms(exactvq_i32* ref, exactvq_i32* dist,
                                     const EXACTVQ_GLOBAL float* csf,
                                     const EXACTVQ_GLOBAL float* mask, float v64, float v16,
                                     int soft, EXACTVQ_GLOBAL float* terms) {
  const float ref_ratio = psnr_hvs_variance_ratio(ref, v64, v16, soft);
  const float dist_ratio = psnr_hvs_variance_ratio(dist, v64, v16, soft);
  psnr_hvs_fdct8x8(ref);
  psnr_hvs_fdct8x8(dist);
  /* The larger of the two pictures' thresholds masks the error. */
  float threshold = psnr_hvs_masking_threshold(ref, ref_ratio, mask, soft);
  const float dist_threshold = psnr_hvs_masking_threshold(dist, dist_ratio, mask, soft);
  if (dist_threshold > threshold) threshold = dist_threshold;
  for (int k = 0; k < PSNR_HVS_COEFFICIENTS; ++k) {
    const exactvq_i32 d = ref[k] - dist[k];
    float err = (float)(d < 0 ? -d : d);
    if (k != 0) { /* the DC coefficient is never masked */
      const float masked = psnr_hvs_quotient(threshold, mask[k], soft);
      err = err < masked ? 0.0f : err - masked;
    }
    const float weighted = err * csf[k];
    terms[k] = weighted * weighted;
  }
}

/* The plane's error sum: its `count` terms added one at a time, in order, to
 * one binary32 from +0 (blocks in raster order, each block's 64 terms in
 * coefficient order: the definition's order). */
EXACTVQ_FN float psnr_hvs_plane_sum(const EXACTVQ_GLOBAL float* terms, exactvq_i64 count) {
  float sum = 0.0f;
  for (exactvq_i64 i = 0; i < count; ++i) sum = sum + terms[i];
  return sum;
}

#endif /* EXACTVQ_METRICS_PSNR_HVS_BLOCK_TERMS_H */
