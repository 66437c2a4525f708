/* ADM's per-sample definition (docs/spec/adm.md), written once for every
 * backend in the subset of core/portable.h: the DWT taps, the decoupling's
 * integer steps (the gain through the reciprocal table, the restored and
 * additive parts), the CSF, the masking's threshold and cube, the
 * denominator's term and each row's rounding. The decoupling's two binary64
 * steps (the angle test and the enhancement) are spelt through a number
 * type's operations (EXACTVQ_ADM_WITHIN_ONE_DEGREE, EXACTVQ_ADM_ENHANCE):
 * native binary64 in pixel.h (the CPU reference, CUDA), softfp in
 * softfp_decouple.h (OpenCL). The scalar row routines, stages.h (CUDA) and the
 * OpenCL kernels call these, so their samples agree.
 *
 * Integers only, in C's arithmetic as libvmaf does it: 32-bit products that
 * need 64 bits are formed in 64, values stored into int16 / int32 keep their
 * low bits (two's complement), `>>` of a negative value is arithmetic.
 */
#ifndef EXACTVQ_METRICS_ADM_DEFINITION_H
#define EXACTVQ_METRICS_ADM_DEFINITION_H

#include "core/portable.h"

/* ---- DWT ---- */

/* The db2 analysis filters in Q15 (dwt.h's kDwtLow, kDwtHigh), tap k. */
EXACTVQ_CONSTEXPR_FN exactvq_i32 adm_dwt_low(int k) {
  return k == 0 ? 15826 : k == 1 ? 27411 : k == 2 ? 7345 : -4240;
}
EXACTVQ_CONSTEXPR_FN exactvq_i32 adm_dwt_high(int k) {
  return k == 0 ? -4240 : k == 1 ? -7345 : k == 2 ? 27411 : -15826;
}

/* Index 2i - 1 + k of a line of `length` samples, mirrored without repeating the edge. */
EXACTVQ_FN int adm_dwt_mirror(int index, int length) {
  if (index < 0) return -index;
  if (index >= length) return 2 * length - index - 1;
  return index;
}

/* Scale 0, vertical pass of one column from samples s[0..3] (libvmaf's int32
 * sums wrap for 16-bit samples but end in range: the exact 64-bit sum equals them). */
EXACTVQ_FN exactvq_i16 adm_dwt0_vertical_lo(const exactvq_i64 s[4], int bitdepth) {
  const exactvq_i64 half_range = (exactvq_i64)1 << (bitdepth - 1);
  const exactvq_i64 centre = (exactvq_i64)46342 * half_range;
  exactvq_i64 sum = 0;
  for (int k = 0; k < 4; ++k) sum += (exactvq_i64)adm_dwt_low(k) * s[k];
  return (exactvq_i16)((sum - centre + half_range) >> bitdepth);
}
EXACTVQ_FN exactvq_i16 adm_dwt0_vertical_hi(const exactvq_i64 s[4], int bitdepth) {
  const exactvq_i64 half_range = (exactvq_i64)1 << (bitdepth - 1);
  exactvq_i64 sum = 0;
  for (int k = 0; k < 4; ++k) sum += (exactvq_i64)adm_dwt_high(k) * s[k];
  return (exactvq_i16)((sum + half_range) >> bitdepth);
}

/* Scale 0, horizontal pass: x[0..3] the vertical pass at the 4 taps. */
EXACTVQ_FN exactvq_i16 adm_dwt0_horizontal_low(const exactvq_i16 x[4]) {
  exactvq_i32 sum = 0; /* |sum| <= 54822 * 32768: no overflow */
  for (int k = 0; k < 4; ++k) sum += adm_dwt_low(k) * (exactvq_i32)x[k];
  return (exactvq_i16)((sum + 32768) >> 16);
}
EXACTVQ_FN exactvq_i16 adm_dwt0_horizontal_high(const exactvq_i16 x[4]) {
  exactvq_i32 sum = 0;
  for (int k = 0; k < 4; ++k) sum += adm_dwt_high(k) * (exactvq_i32)x[k];
  return (exactvq_i16)((sum + 32768) >> 16);
}

/* Scales 1..3: the passes' rounding and shift (vertical, horizontal). */
EXACTVQ_FN exactvq_i64 adm_dwt_s123_vertical_round(int scale) { return scale == 1 ? 0 : 32768; }
EXACTVQ_FN int adm_dwt_s123_vertical_shift(int scale) { return scale == 1 ? 0 : 16; }
EXACTVQ_FN exactvq_i64 adm_dwt_s123_horizontal_round(int scale) {
  return scale == 2 ? 32768 : 16384;
}
EXACTVQ_FN int adm_dwt_s123_horizontal_shift(int scale) { return scale == 2 ? 16 : 15; }

/* One output of either pass at scales 1..3: the 4 taps of the low-pass filter
 * (low != 0) or the high-pass one, rounded and shifted, cast as libvmaf's
 * (modulo 2^32). */
EXACTVQ_FN exactvq_i32 adm_dwt_s123_tap(const exactvq_i32 x[4], int low, exactvq_i64 round,
                                        int shift) {
  exactvq_i64 sum = 0;
  for (int k = 0; k < 4; ++k) sum += (exactvq_i64)(low ? adm_dwt_low(k) : adm_dwt_high(k)) * x[k];
  return (exactvq_i32)((sum + round) >> shift);
}

/* ---- decoupling: the integer steps ---- */

/* (float)(cos(1 degree) * cos(1 degree)) as libvmaf rounds it (decouple.h), and
 * its binary64 bit pattern (for softfp). */
#define EXACTVQ_ADM_COS_ONE_DEGREE_SQUARED 0x1.ffd814p-1f
#define EXACTVQ_ADM_COS_ONE_DEGREE_SQUARED_BITS EXACTVQ_U64_C(0x3FEFFD8140000000)

/* Entry o + 32768 of libvmaf's Q30 reciprocal table, o in -32768..32768, o != 0:
 * 2^30 / |o| truncated, negated for o < 0 (decouple.h's reciprocal_table()). */
EXACTVQ_FN exactvq_i32 adm_reciprocal(exactvq_i32 o) {
  return o > 0 ? ((exactvq_i32)1 << 30) / o : -(((exactvq_i32)1 << 30) / -o);
}

EXACTVQ_FN exactvq_i64 adm_clamp_gain(exactvq_i64 k) { return k < 0 ? 0 : (k > 32768 ? 32768 : k); }

/* a * b + c * d modulo 2^64 (libvmaf's int64 products and sum). */
EXACTVQ_FN exactvq_i64 adm_dot2_wrapping(exactvq_i32 a, exactvq_i32 b, exactvq_i32 c,
                                         exactvq_i32 d) {
  return (exactvq_i64)((exactvq_u64)((exactvq_i64)a * b) + (exactvq_u64)((exactvq_i64)c * d));
}

/* Count of leading zero bits of a nonzero 32-bit word. */
EXACTVQ_FN int adm_leading_zeros32(exactvq_u32 v) {
  int n = 0;
  while (!(v & 0x80000000u)) {
    v <<= 1;
    ++n;
  }
  return n;
}

/* The angle test's three integers of a sample: o.t, |o|^2 and |t|^2 of the
 * (h, v) vectors. Scale 0 (int16 bands: exact); scales 1..3 (int32 bands,
 * libvmaf's int64 sums, modulo 2^64). */
typedef struct {
  exactvq_i64 dot, o_mag, t_mag;
} AdmAngleInputs;

EXACTVQ_FN AdmAngleInputs adm_angle_inputs_s0(const exactvq_i16 o[3], const exactvq_i16 t[3]) {
  AdmAngleInputs a;
  a.dot = (exactvq_i64)o[0] * t[0] + (exactvq_i64)o[1] * t[1];
  a.o_mag = (exactvq_i64)o[0] * o[0] + (exactvq_i64)o[1] * o[1];
  a.t_mag = (exactvq_i64)t[0] * t[0] + (exactvq_i64)t[1] * t[1];
  return a;
}
EXACTVQ_FN AdmAngleInputs adm_angle_inputs_s123(const exactvq_i32 o[3], const exactvq_i32 t[3]) {
  AdmAngleInputs a;
  a.dot = adm_dot2_wrapping(o[0], t[0], o[1], t[1]);
  a.o_mag = adm_dot2_wrapping(o[0], o[0], o[1], o[1]);
  a.t_mag = adm_dot2_wrapping(t[0], t[0], t[1], t[1]);
  return a;
}

/* Scale 0: the gain k = t / o in Q15 through the reciprocal table, clamped to
 * [0, 32768] (32768 for o = 0); libvmaf keeps it in int32. */
EXACTVQ_FN exactvq_i32 adm_gain_s0(exactvq_i16 o, exactvq_i16 t) {
  const exactvq_i32 k_raw =
      o == 0 ? 32768 : (exactvq_i32)(((exactvq_i64)adm_reciprocal(o) * t + 16384) >> 15);
  return (exactvq_i32)adm_clamp_gain(k_raw);
}

/* Scales 1..3: the divisor |o| rounded to its top 15 bits (shift s) so that the
 * Q30 table applies; the rounding constant 1 << (14 + s) is an int, which for
 * s = 17 is INT32_MIN in libvmaf's arithmetic. */
EXACTVQ_FN exactvq_i64 adm_gain_s123(exactvq_i32 o, exactvq_i32 t) {
  exactvq_i64 k_raw = 32768;
  if (o != 0) {
    const exactvq_u32 abs_o = (exactvq_u32)(o < 0 ? -(exactvq_i64)o : (exactvq_i64)o);
    int shift = 0;
    exactvq_u32 divisor = abs_o;
    if (abs_o >= 32768) {
      shift = 17 - adm_leading_zeros32(abs_o);
      divisor = (exactvq_u16)((abs_o + ((exactvq_u32)1 << (shift - 1))) >> shift);
    }
    const exactvq_i64 sign = o < 0 ? -1 : 1;
    const exactvq_i64 round = (exactvq_i32)((exactvq_u32)1 << (14 + shift));
    k_raw =
        (((exactvq_i64)adm_reciprocal((exactvq_i32)divisor) * t) * sign + round) >> (15 + shift);
  }
  return adm_clamp_gain(k_raw);
}

/* The restored value before the enhancement: (k * o + 2^14) >> 15. */
EXACTVQ_FN exactvq_i16 adm_restore_s0(exactvq_i32 k, exactvq_i16 o) {
  return (exactvq_i16)((k * (exactvq_i32)o + 16384) >> 15);
}
EXACTVQ_FN exactvq_i32 adm_restore_s123(exactvq_i64 k, exactvq_i32 o) {
  return (exactvq_i32)((k * o + 16384) >> 15);
}

/* Whether the enhancement leaves the restored value as it is: it applies only
 * where the angle test holds, k > 0 and o != 0 (libvmaf tests the sign of the
 * float (k / 32768) * (o / 64), o's when k > 0). */
EXACTVQ_FN int adm_keeps_restored(int within_one_degree, exactvq_i64 k, exactvq_i32 o) {
  return !within_one_degree || k == 0 || o == 0;
}

/* The additive part t - r, stored modulo 2^16 / 2^32 as libvmaf's. */
EXACTVQ_FN exactvq_i16 adm_additive_s0(exactvq_i16 t, exactvq_i16 r) {
  return (exactvq_i16)(t - r);
}
EXACTVQ_FN exactvq_i32 adm_additive_s123(exactvq_i32 t, exactvq_i32 r) {
  return (exactvq_i32)((exactvq_u32)t - (exactvq_u32)r);
}

/* ---- decoupling: the binary64 steps, through a number type T ----
 *
 * The angle test: the (h, v) vectors o and t are within one degree when
 * o.t >= 0 and (o.t)^2 >= cos^2(1 deg) |o|^2 |t|^2, each integer converted to
 * float, then scaled by 1/4096 and multiplied in binary64 left to right:
 *   d = SCALED(dot); o = SCALED(o_mag); t = SCALED(t_mag)
 *   within = d >= 0 && d * d >= (cos2 * o) * t
 * SCALED(v) is (double)(float)v / 4096.0 (exact after the float rounding),
 * MUL one binary64 rounding, AT_LEAST the ordered a >= b (no operand is NaN),
 * zero and cos2 the numbers 0 and (double)EXACTVQ_ADM_COS_ONE_DEGREE_SQUARED. */
#define EXACTVQ_ADM_WITHIN_ONE_DEGREE(T, SCALED, MUL, AT_LEAST, zero, cos2, inputs, within) \
  do {                                                                                      \
    const T adm_d_ = SCALED((inputs).dot);                                                  \
    if (!AT_LEAST(adm_d_, (zero))) {                                                        \
      (within) = 0;                                                                         \
    } else {                                                                                \
      const T adm_o_ = SCALED((inputs).o_mag);                                              \
      const T adm_t_ = SCALED((inputs).t_mag);                                              \
      (within) = AT_LEAST(MUL(adm_d_, adm_d_), MUL(MUL((cos2), adm_o_), adm_t_));           \
    }                                                                                       \
  } while (0)

/* The enhancement of a restored value rst (where adm_keeps_restored does not hold): rst
 * times the gain limit in binary64, but no further from zero than t (min for
 * o > 0, max for o < 0); the product is exact-converted integers times the
 * option, and the result is in the band's range, so TRUNC (toward zero to the
 * band's integer type) is C's cast. FROM_INT exact for |v| < 2^53. */
#define EXACTVQ_ADM_ENHANCE(T, FROM_INT, MUL, LESS, TRUNC, gain_limit, rst, o, t, out) \
  do {                                                                                 \
    const T adm_scaled_ = MUL(FROM_INT(rst), (gain_limit));                            \
    const T adm_t_ = FROM_INT(t);                                                      \
    if ((o) > 0)                                                                       \
      (out) = TRUNC(LESS(adm_scaled_, adm_t_) ? adm_scaled_ : adm_t_);                 \
    else                                                                               \
      (out) = TRUNC(LESS(adm_t_, adm_scaled_) ? adm_scaled_ : adm_t_);                 \
  } while (0)

/* ---- CSF ---- */

/* Scale 0: csf = (factor * src + round) >> shift, kept as libvmaf's int32
 * arithmetic modulo 2^32; flt = (4369 |csf| + 2048) >> 12 stored in int16. */
EXACTVQ_FN void adm_csf_s0(exactvq_i16 src, exactvq_u16 factor, int shift, exactvq_i32 round,
                           exactvq_i16* csf, exactvq_i16* flt) {
  const exactvq_u32 product = (exactvq_u32)((exactvq_i32)factor * (exactvq_i32)src);
  const exactvq_i32 rounded = (exactvq_i32)(product + (exactvq_u32)round);
  const exactvq_i16 value = (exactvq_i16)(rounded >> shift);
  *csf = value;
  const exactvq_i32 magnitude = value < 0 ? -(exactvq_i32)value : (exactvq_i32)value;
  *flt = (exactvq_i16)((4369 * magnitude + 2048) >> 12);
}

/* Scale 0's CSF shift and rounding of orientation b (h, v: 15 and 2^14; d: 17
 * and libvmaf's 65535, not 65536). */
EXACTVQ_FN int adm_csf_shift_s0(int b) { return b == 2 ? 17 : 15; }
EXACTVQ_FN exactvq_i32 adm_csf_round_s0(int b) { return b == 2 ? 65535 : 16384; }

/* The rounding constant libvmaf adds before the 32-bit shifts of scales 1..3
 * (1u << 31 stored in an int32: INT32_MIN; csf.h's kRoundBeforeShift32). */
EXACTVQ_FN exactvq_i64 adm_round_before_shift32(void) { return -(exactvq_i64)2147483647 - 1; }

/* Scales 1..3: csf = (factor * src + 2^27) >> 28 with the Q32 factor;
 * flt = (143165577 |csf| - 2^31) >> 32. */
EXACTVQ_FN void adm_csf_s123(exactvq_i32 src, exactvq_u32 factor, exactvq_i32* csf,
                             exactvq_i32* flt) {
  const exactvq_i32 value =
      (exactvq_i32)(((exactvq_i64)factor * src + ((exactvq_i64)1 << 27)) >> 28);
  *csf = value;
  const exactvq_i64 magnitude = value < 0 ? -(exactvq_i64)value : (exactvq_i64)value;
  *flt = (exactvq_i32)(((exactvq_i64)143165577 * magnitude + adm_round_before_shift32()) >> 32);
}

/* ---- masking ---- */

/* |v| for int32 as C's abs on two's complement (INT32_MIN stays INT32_MIN). */
EXACTVQ_FN exactvq_i32 adm_abs32(exactvq_i32 v) {
  return v < 0 ? (exactvq_i32)(0u - (exactvq_u32)v) : v;
}

/* a - b modulo 2^32. */
EXACTVQ_FN exactvq_i32 adm_sub32(exactvq_i64 a, exactvq_i64 b) {
  return (exactvq_i32)(exactvq_u64)(a - b);
}

/* a + b modulo 2^64: libvmaf's int64 row sums, defined where extreme rows would overflow. */
EXACTVQ_FN exactvq_i64 adm_wrapping_add(exactvq_i64 a, exactvq_i64 b) {
  return (exactvq_i64)((exactvq_u64)a + (exactvq_u64)b);
}

/* The 8 flattened neighbours of a sample in one orientation (any order);
 * int32 as libvmaf's, modulo 2^32 where extreme int32 bands would overflow it. */
EXACTVQ_FN exactvq_i32 adm_neighbour_sum(exactvq_i64 a0, exactvq_i64 a1, exactvq_i64 a2,
                                         exactvq_i64 r0, exactvq_i64 r2, exactvq_i64 b0,
                                         exactvq_i64 b1, exactvq_i64 b2) {
  const exactvq_i64 sum = a0 + a1 + a2 + r0 + r2 + b0 + b1 + b2;
  return (exactvq_i32)(exactvq_u32)(exactvq_u64)sum;
}

/* The cube of max(x, 0) in fixed point, as libvmaf rounds it: square rounded
 * and shifted (kept in int32), times x again, rounded and shifted. */
EXACTVQ_FN exactvq_i64 adm_cube_term(exactvq_i32 x_abs_minus_thr, int square_shift,
                                     exactvq_i64 square_round, int cube_shift,
                                     exactvq_i64 cube_round) {
  const exactvq_i32 x = x_abs_minus_thr < 0 ? 0 : x_abs_minus_thr;
  const exactvq_i32 sq = (exactvq_i32)(((exactvq_i64)x * x + square_round) >> square_shift);
  return ((exactvq_i64)sq * x + cube_round) >> cube_shift;
}

/* Scale 0: one orientation's part of the threshold, from the masker's CSF
 * value at the sample and its flattened neighbours' sum. */
EXACTVQ_FN exactvq_i32 adm_threshold_part_s0(exactvq_i16 masker_centre, exactvq_i32 neighbours) {
  const exactvq_i32 centre = masker_centre;
  const exactvq_i16 centre_term =
      (exactvq_i16)((8738 * (centre < 0 ? -centre : centre) + 2048) >> 12);
  return neighbours + centre_term;
}
EXACTVQ_FN int adm_square_shift_s0(int b) { return b == 2 ? 30 : 29; }
EXACTVQ_FN exactvq_i64 adm_square_round_s0(int b) {
  return b == 2 ? (exactvq_i64)1 << 29 : (exactvq_i64)1 << 28;
}
EXACTVQ_FN int adm_threshold_shift_s0(int b) { return b == 2 ? 12 : 10; }

/* Scale 0: the cube term of source value src of orientation b (Q21 / Q23 factor). */
EXACTVQ_FN exactvq_i64 adm_masking_term_s0(exactvq_i16 src, exactvq_u16 factor,
                                           exactvq_i32 threshold, int b, int cube_shift,
                                           exactvq_i64 cube_round) {
  const exactvq_i32 x = (exactvq_i32)src * (exactvq_i32)factor; /* < 2^31: no overflow */
  const exactvq_i32 diff = adm_sub32(
      adm_abs32(x), (exactvq_i64)threshold * ((exactvq_i64)1 << adm_threshold_shift_s0(b)));
  return adm_cube_term(diff, adm_square_shift_s0(b), adm_square_round_s0(b), cube_shift,
                       cube_round);
}

/* Scales 1..3: one orientation's part of the threshold (summed modulo 2^32
 * over the orientations: int32 in libvmaf). */
EXACTVQ_FN exactvq_u32 adm_threshold_part_s123(exactvq_i32 masker_centre, exactvq_i32 neighbours) {
  const exactvq_i64 centre = adm_abs32(masker_centre);
  const exactvq_i32 centre_term =
      (exactvq_i32)(((exactvq_i64)286331153 * centre + adm_round_before_shift32()) >> 32);
  return (exactvq_u32)neighbours + (exactvq_u32)centre_term;
}

EXACTVQ_FN exactvq_i64 adm_masking_term_s123(exactvq_i32 src, exactvq_u32 factor,
                                             exactvq_u32 threshold, int cube_shift,
                                             exactvq_i64 cube_round) {
  const exactvq_i32 x =
      (exactvq_i32)(((exactvq_i64)src * (exactvq_i64)factor + ((exactvq_i64)1 << 27)) >> 28);
  const exactvq_i32 diff = adm_sub32(adm_abs32(x), (exactvq_i32)threshold);
  return adm_cube_term(diff, 30, (exactvq_i64)1 << 29, cube_shift, cube_round);
}

/* ---- denominator ---- */

EXACTVQ_FN exactvq_u32 adm_magnitude32(exactvq_i32 v) {
  return v < 0 ? 0u - (exactvq_u32)v : (exactvq_u32)v;
}

/* Scale 0: |o|^3, exact. */
EXACTVQ_FN exactvq_u64 adm_denominator_term_s0(exactvq_i16 o) {
  const exactvq_u64 m = (exactvq_u16)adm_magnitude32(o);
  return m * m * m;
}

/* Scales 1..3: ((o^2 + 2^q) >> q) * |o|, rounded and shifted by cube_shift
 * (q = 31, 30, 31 for scales 1, 2, 3). */
EXACTVQ_FN int adm_denominator_square_shift(int scale) { return scale == 2 ? 30 : 31; }
EXACTVQ_FN exactvq_u64 adm_denominator_term_s123(exactvq_i32 o, int q, int cube_shift,
                                                 exactvq_u64 cube_round) {
  const exactvq_u64 m = adm_magnitude32(o);
  return ((((m * m) + ((exactvq_u64)1 << q)) >> q) * m + cube_round) >> cube_shift;
}

/* ---- each scored row's sum as it enters the frame's total ---- */

/* The masking's row sum (modulo 2^64) rounded and shifted (arithmetic shift). */
EXACTVQ_FN exactvq_i64 adm_masking_row_total(exactvq_u64 row_sum, exactvq_i64 round, int shift) {
  return adm_wrapping_add((exactvq_i64)row_sum, round) >> shift;
}
/* The denominator's row sum rounded and shifted. */
EXACTVQ_FN exactvq_u64 adm_denominator_row_total(exactvq_u64 row_sum, exactvq_u64 round,
                                                 int shift) {
  return (row_sum + round) >> shift;
}

#endif /* EXACTVQ_METRICS_ADM_DEFINITION_H */
