/* The `vif` feature's per-pixel definition (docs/spec/vif.md), written once
 * for every backend in the subset of core/portable.h: the mirrored edges of a
 * side of two or more, the rounded sigmas of a pixel's horizontal sums, the
 * fixed-point log2, and the pixel's terms with their binary64 gain steps spelt
 * through the number type's operations. The CPU reference (statistic.cpp) and
 * the CUDA kernels take these from here; the SIMD kernels restate them in lanes
 * and are twins, tested against the reference bit for bit.
 */
#ifndef EXACTVQ_METRICS_VIF_DEFINITION_H
#define EXACTVQ_METRICS_VIF_DEFINITION_H

#include "core/portable.h"

/* sigma_n^2 = 2 in the moments' 16.16 fixed point; log2 of it is 17 * 2048. */
#define EXACTVQ_VIF_NOISE_VARIANCE 131072

/* The binary64 bit pattern of 65536 * 1.0e-10, the gain's epsilon. */
#define EXACTVQ_VIF_EPS_BITS EXACTVQ_U64_C(0x3EDB7CDFD9D7BDBB)

/* Column (row) x of a side of n >= 2 samples as libvmaf's edge copies leave it:
 * the mirror without the edge repeated, periodic with period 2n - 2. */
EXACTVQ_CONSTEXPR_FN int vif_mirror(int x, int n) {
  if (x >= 0 && x < n) return x;
  const int period = 2 * n - 2;
  int m = x % period;
  if (m < 0) m += period;
  return m < n ? m : period - m;
}

/* (a * b + 2^31) >> 32, exact in 64 bits. */
EXACTVQ_CONSTEXPR_FN exactvq_u32 vif_rounded_product_high(exactvq_u32 a, exactvq_u32 b) {
  return (exactvq_u32)(((exactvq_u64)a * b + EXACTVQ_U64_C(0x80000000)) >> 32);
}

/* int32(uint32((sum + 32768) >> 16) - product): libvmaf's wrapped difference of
 * 32-bit unsigned values read as signed. */
EXACTVQ_CONSTEXPR_FN exactvq_i32 vif_sigma(exactvq_u64 sum, exactvq_u32 product) {
  const exactvq_u32 moment = (exactvq_u32)((sum + 32768u) >> 16);
  return (exactvq_i32)(moment - product);
}

/* 2048 * log2(v) with v cut to its top 16 bits (v >= 2^15), from `table`: the
 * 32768 entries round(2048 * log2f(i)) of i in [2^15, 2^16). */
EXACTVQ_FN exactvq_i32 vif_log2_fixed(exactvq_u64 v, const EXACTVQ_GLOBAL unsigned short* table) {
  /* The largest shift that leaves v >= 2^15, found bit by bit. */
  int bits = 0;
  exactvq_u64 t = v;
  EXACTVQ_UNROLL
  for (int s = 32; s > 0; s /= 2)
    if ((t >> s) >= 32768u) {
      t >>= s;
      bits += s;
    }
  return (exactvq_i32)table[(exactvq_u32)t - 32768u] + 2048 * bits;
}

/* A level's integer sums (libvmaf's accum_num_log, accum_den_log,
 * accum_num_non_log, accum_den_non_log): every pixel adds integers, so any
 * order of pixels gives the same sums. */
typedef struct {
  exactvq_i64 num_log, den_log, num_non_log, den_non_log;
} VifSums;

/* A pixel's rounded sigmas from its horizontal sums (means with libvmaf's
 * 32-bit wrap, moments in 64 bits); sigma2_sq clamped at 0 as libvmaf does. */
typedef struct {
  exactvq_i32 sigma1_sq, sigma2_sq, sigma12;
} VifSigmas;

EXACTVQ_FN VifSigmas vif_sigmas(exactvq_u32 mu1, exactvq_u32 mu2, exactvq_u64 xx, exactvq_u64 yy,
                                exactvq_u64 xy) {
  VifSigmas s;
  s.sigma1_sq = vif_sigma(xx, vif_rounded_product_high(mu1, mu1));
  s.sigma2_sq = vif_sigma(yy, vif_rounded_product_high(mu2, mu2));
  if (s.sigma2_sq < 0) s.sigma2_sq = 0;
  s.sigma12 = vif_sigma(xy, vif_rounded_product_high(mu1, mu2));
  return s;
}

/* The gain steps in binary64, in libvmaf's order, through the number type T's
 * correctly rounded operations (FROM_I32 exact; DIV, MUL, SUB, ADD each one
 * rounding; LESS the ordered comparison; TRUNC32 / TRUNC64 C's conversions
 * toward zero with x86-64's most negative value out of range), for a pixel
 * with sigma1_sq >= 2^17, sigma12 > 0 and sigma2_sq > 0:
 *   g = sigma12 / (sigma1_sq + eps)
 *   residual = TRUNC32(sigma2_sq - g * sigma12)
 *   g = g < limit ? g : limit
 *   gain_part = TRUNC64((g * g) * sigma1_sq) */
#define EXACTVQ_VIF_GAIN(T, FROM_I32, ADD, SUB, MUL, DIV, LESS, TRUNC32, TRUNC64, eps, limit, sig, \
                         residual, gain_part)                                                      \
  do {                                                                                             \
    const T vif_s1_ = FROM_I32((sig).sigma1_sq);                                                   \
    const T vif_s12_ = FROM_I32((sig).sigma12);                                                    \
    T vif_g_ = DIV(vif_s12_, ADD(vif_s1_, eps));                                                   \
    (residual) = TRUNC32(SUB(FROM_I32((sig).sigma2_sq), MUL(vif_g_, vif_s12_)));                   \
    if (!LESS(vif_g_, limit)) vif_g_ = (limit);                                                    \
    (gain_part) = TRUNC64(MUL(MUL(vif_g_, vif_g_), vif_s1_));                                      \
  } while (0)

/* Whether a pixel takes the log2 terms, and whether it takes the gain. */
EXACTVQ_CONSTEXPR_FN int vif_takes_log(VifSigmas s) {
  return s.sigma1_sq >= EXACTVQ_VIF_NOISE_VARIANCE;
}
EXACTVQ_CONSTEXPR_FN int vif_takes_gain(VifSigmas s) { return s.sigma12 > 0 && s.sigma2_sq > 0; }

/* A pixel without the log2 terms (sigma1_sq below the noise variance). */
EXACTVQ_FN void vif_add_flat(VifSigmas s, VifSums* sums) {
  sums->num_non_log += s.sigma2_sq;
  sums->den_non_log += 1;
}

/* The denominator's log2 term: log2(1 + sigma1^2 / sigma_n^2) as
 * log2(sigma_n^2 + sigma1^2) - 17. */
EXACTVQ_FN void vif_add_den_log(VifSigmas s, const EXACTVQ_GLOBAL unsigned short* table,
                                VifSums* sums) {
  sums->den_log +=
      vif_log2_fixed((exactvq_u32)EXACTVQ_VIF_NOISE_VARIANCE + (exactvq_u32)s.sigma1_sq, table) -
      2048 * 17;
}

/* The numerator's log2 term from the gain steps' results: log2(1 + g^2 sigma1^2 /
 * (sv^2 + sigma_n^2)) as a difference of two log2s, residual clamped at 0. */
EXACTVQ_FN void vif_add_num_log(exactvq_i32 residual, exactvq_i64 gain_part,
                                const EXACTVQ_GLOBAL unsigned short* table, VifSums* sums) {
  const exactvq_u32 noise =
      (exactvq_u32)(residual > 0 ? residual : 0) + (exactvq_u32)EXACTVQ_VIF_NOISE_VARIANCE;
  const exactvq_i64 signal = gain_part + (exactvq_i64)noise;
  sums->num_log += vif_log2_fixed((exactvq_u64)signal, table) - vif_log2_fixed(noise, table);
}

#endif /* EXACTVQ_METRICS_VIF_DEFINITION_H */
