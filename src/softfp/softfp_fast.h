/* softfp's fast multiply and divide for normal operands, in 32-bit words and
 * without data-dependent branches, for the kernels' hot loops; each gives the
 * correctly rounded result of softfp_mul and softfp_div. */
#ifndef EXACTVQ_SOFTFP_FAST_H
#define EXACTVQ_SOFTFP_FAST_H

#include "softfp/softfp_primitives.h"

/* About 1 / v in fp32. Only an estimate: softfp_fast_div needs it within 2^-16
 * relative, which every fp32 reciprocal meets (OpenCL's 1.0f / v: 2.5 ulp).
 * The tests #define SOFTFP_RECIPROCAL_ESTIMATE(v) to try the worst allowed. */
SOFTFP_FN float softfp_reciprocal_estimate(float v) {
#if defined(SOFTFP_RECIPROCAL_ESTIMATE)
  return SOFTFP_RECIPROCAL_ESTIMATE(v);
#elif defined(__CUDA_ARCH__)
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
  return r;
#else
  return 1.0f / v;
#endif
}

/* A significand of 2^53 (softfp_fast_integer_plus_addend's carry) as 2^52 and
 * the exponent one up; the low word is then 0. */
SOFTFP_FN softfp softfp_fast_normalize(softfp x) {
  const softfp_u32 carry = (softfp_u32)(x.sig >> 53);
  x.sig = ((softfp_u64)((softfp_u32)(x.sig >> 32) >> carry) << 32) | (softfp_u32)x.sig;
  x.exp += (softfp_i32)carry;
  return x;
}

/* Rounds (x + t) * 2^e to 53 bits, nearest even, for 2^53 <= x < 2^54 and
 * 0 <= t < 1, t != 0 exactly when `sticky`: x's low bit is the rounding bit.
 * `up` names the stage's three path counters (up, tie, carry). A carry leaves
 * 2^53, whose low word is 0: halving the high word alone normalises it. */
SOFTFP_FN softfp softfp_fast_round54(softfp_u64 x, softfp_u32 sticky, softfp_i32 e, int up) {
  const softfp_u32 round_bit = (softfp_u32)x & 1;
  const softfp_u32 increment = round_bit & (sticky | ((softfp_u32)(x >> 1) & 1));
  const softfp_u64 sig = (x >> 1) + increment;
  if (increment) SOFTFP_PATH(up);
  if (increment && !sticky) SOFTFP_PATH(up + 1);
  if (sig >> 53) SOFTFP_PATH(up + 2);
  (void)up;
  return softfp_fast_normalize(softfp_make(sig, e + 1, 0));
}
/* m / 2^f rounded, for an integer 0 < m < 2^64: m's top bit goes to bit 63, the
 * next 53 bits and the rounding bit are kept, the low 10 are the sticky bit. */
SOFTFP_FN softfp softfp_fast_fixed_point(softfp_u64 m, softfp_i32 f, softfp_i32 neg) {
  const softfp_i32 n = softfp_clz64(m);
  const softfp_u64 top = m << n;
  softfp r = softfp_fast_round54(top >> 10, (top & 0x3FF) != 0, 10 - n - f, SOFTFP_PATH_FAST_B_UP);
  r.neg = neg;
  return r;
}

/* a * b for normal a, b: the 106-bit product of the significands from 32-bit
 * limbs has its top at bit 104 + top, top 0 or 1; the 53 bits from there down
 * are kept, rounded by the bits below. A significand may also be exactly 2^53
 * (softfp_fast_integer_plus_addend): one such operand keeps the product below
 * 2^106; two make it exactly 2^106, top = 2, every bit below the kept ones 0. */
SOFTFP_FN softfp softfp_fast_mul(softfp a, softfp b) {
  const softfp_u32 a0 = (softfp_u32)a.sig, a1 = (softfp_u32)(a.sig >> 32);
  const softfp_u32 b0 = (softfp_u32)b.sig, b1 = (softfp_u32)(b.sig >> 32);
#if defined(__CUDA_ARCH__)
  /* The same words through the carry flag: four fewer instructions than what
   * nvcc makes of the portable form (tested by the CUDA tests' sums). */
  softfp_u32 low, mid, w2, w3;
  asm("mul.lo.u32 %0, %4, %6;\n\t"
      "mul.hi.u32 %1, %4, %6;\n\t"
      "mad.lo.cc.u32 %1, %4, %7, %1;\n\t"
      "madc.hi.u32 %2, %4, %7, 0;\n\t"
      "mad.lo.cc.u32 %1, %5, %6, %1;\n\t"
      "madc.hi.cc.u32 %2, %5, %6, %2;\n\t"
      "madc.hi.u32 %3, %5, %7, 0;\n\t"
      "mad.lo.cc.u32 %2, %5, %7, %2;\n\t"
      "addc.u32 %3, %3, 0;"
      : "=r"(low), "=r"(mid), "=r"(w2), "=r"(w3)
      : "r"(a0), "r"(a1), "r"(b0), "r"(b1));
#else
  /* Column by column, each carry taken along in a 64-bit partial sum (no
   * compare): a0 * b1 + 2^32 - 1 < 2^64, and so on. */
  const softfp_u64 p00 = (softfp_u64)a0 * b0;
  const softfp_u64 t1 = (softfp_u64)a0 * b1 + (p00 >> 32);             /* < 2^54 */
  const softfp_u64 t2 = (softfp_u64)a1 * b0 + (softfp_u32)t1;          /* < 2^54 */
  const softfp_u64 hi = (softfp_u64)a1 * b1 + (t1 >> 32) + (t2 >> 32); /* bits 64.., < 2^42 */
  const softfp_u32 mid = (softfp_u32)t2, low = (softfp_u32)p00;        /* bits 32..63, 0..31 */
  const softfp_u32 w2 = (softfp_u32)hi, w3 = (softfp_u32)(hi >> 32);
#endif
  /* The significand is bits 52 + top and up (two funnel shifts of 32-bit
   * words), the rounding bit is bit 51 + top (moved to bit 31 of rs) and the
   * sticky bits are the ones below it. */
  const softfp_u32 top = w3 >> 9; /* the product's top bit is 104 + top */
  const softfp_u32 kept_lo = softfp_funnel_r32(mid, w2, 20 + top),
                   kept_hi = softfp_funnel_r32(w2, w3, 20 + top);
  const softfp_u32 rs = mid << (12 - top);
  const softfp_u32 sticky = ((rs << 1) | low) != 0;
  const softfp_u32 increment = (rs >> 31) & (sticky | (kept_lo & 1));
  const softfp_u64 sig = (((softfp_u64)kept_hi << 32) | kept_lo) + increment;
  if (increment) SOFTFP_PATH(SOFTFP_PATH_FAST_MUL_UP);
  if (increment && !sticky) SOFTFP_PATH(SOFTFP_PATH_FAST_MUL_TIE);
  if (sig >> 53) SOFTFP_PATH(SOFTFP_PATH_FAST_MUL_CARRY);
  return softfp_fast_normalize(
      softfp_make(sig, a.exp + b.exp + 52 + (softfp_i32)top, a.neg ^ b.neg));
}

/* a / b for normal a, b. With x = a's significand (doubled when below y, b's)
 * y <= x < 2y, and q = floor(x * 2^53 / y) in [2^53, 2^54) is formed as two
 * digits from R, a 32-bit reciprocal of y's top 32 bits plus one:
 * R <= 2^63 / (y_top + 1) < R + 2.001 (an fp32 estimate e within 2^-16, then
 * one integer Newton step, which leaves 2^32 e^2 <= 1, every truncation
 * downward). Every approximation in a digit's estimate is then low, by at most
 * 2^28 * 3 * 2^-31 + 2^-3, about 0.5 of a unit in all, so the estimate is the digit
 * or one less. The first digit's remainder (formed modulo
 * 2^64; its true value in [0, 2y)) goes uncorrected into the second digit,
 * which then lies in [0, 2^28) and absorbs the first's shortfall; the second's
 * shortfall is taken into the rounding, which needs no corrected digit. A quotient
 * below 2 never rounds up to 2 (x <= 2y - 1 puts q at most at 2^54 - 2), so
 * the rounding never carries. */
SOFTFP_FN softfp softfp_fast_div(softfp a, softfp b) {
  const softfp_u64 y = b.sig;
  const softfp_u32 halve = a.sig < y;
  if (halve) SOFTFP_PATH(SOFTFP_PATH_FAST_DIV_HALVED);
  const softfp_u64 x = a.sig << halve;
  const softfp_u32 y_top = (softfp_u32)(y >> 21); /* [2^31, 2^32) */
  const float estimate =
      softfp_reciprocal_estimate((float)y_top) * 9223372036854775808.0f; /* 2^63 */
  /* r0 in [2^31, 2^32), where 2^63 / (y_top + 1) lies too: a clamp only brings
   * the estimate closer. (CUDA's conversion saturates at 2^32 - 1.) */
#if defined(__CUDA_ARCH__)
  const softfp_u32 r0 = __float2uint_rz(fmaxf(estimate, 2147483648.0f));
#else
  const softfp_u32 r0 =
      (softfp_u32)(estimate < 2147483648.0f   ? 2147483648.0f
                   : estimate < 4294967040.0f ? estimate
                                              : 4294967040.0f); /* the largest fp32 below 2^32 */
#endif
  /* Newton: R = r0 + r0 * (2^63 - (y_top + 1) * r0) / 2^63, the residual first
   * cut to 32 bits: |residual| <= 2^63 * 2^-16 = 2^47 for an estimate within
   * 2^-16. Its bits 17 to 48 are those of p = (y_top + 1) * r0 < 2^64 (2^63
   * only flips bit 63): p's bits there are floor(-residual / 2^17) as a signed
   * word, and their complement, ceil(residual / 2^17) - 1, is residual / 2^17
   * truncated downward by less than one. */
  const softfp_u64 p = (softfp_u64)y_top * r0 + r0;
  const softfp_i32 residual17 = (softfp_i32) ~(softfp_u32)(p >> 17);
#if defined(__CUDA_ARCH__)
  /* floor(r0 * residual17 / 2^32) from a signed high product: r0 read as a
   * signed word is r0 - 2^32 (r0 >= 2^31). */
  const softfp_u32 reciprocal =
      r0 + (softfp_u32)((__mulhi((int)r0, residual17) + residual17) >> 14);
#else
  const softfp_u32 reciprocal =
      (softfp_u32)((softfp_i64)r0 + (((softfp_i64)r0 * residual17) >> 46));
#endif
  /* Digit 1: floor(x * 2^26 / y) in [2^26, 2^27), or one less. */
  const softfp_u32 q1 = SOFTFP_MULHI32((softfp_u32)(x >> 22), reciprocal) >> 4;
  const softfp_u64 r1 = (x << 26) - (softfp_u64)q1 * y;
  if (r1 >= y) SOFTFP_PATH(SOFTFP_PATH_FAST_DIV_DIGIT1_FIX);
  /* Digit 2: floor(r1 * 2^27 / y) in [0, 2^28) (r1 < 2y < 2^54: its top 32
   * bits from bit 22), or one less: q = q1 * 2^27 + q2 is the quotient or one
   * less, and x * 2^53 / y = q + r2 / y with r2 in [0, 2y). */
  const softfp_u32 q2 = SOFTFP_MULHI32((softfp_u32)(r1 >> 22), reciprocal) >> 3;
  const softfp_u64 r2 = (r1 << 27) - (softfp_u64)q2 * y;
  if (r2 >= y) SOFTFP_PATH(SOFTFP_PATH_FAST_DIV_DIGIT2_FIX);
  /* The rounding without correcting q first: with s = q >> 1 and z = (q & 1)
   * + r2 / y in [0, 3), the result is s + round(z / 2), z / 2 below 3/2: up
   * when z > 1, or z = 1 and s odd. For the integer u = (q & 1) y + r2 - y,
   * that is u > 0, or u = 0 and s odd: u + (s & 1) - 1 >= 0. */
  const softfp_u32 odd = (q2 >> 1) & 1;
  const softfp_i64 u = (softfp_i64)(r2 - ((q2 & 1) ? 0 : y)) + (softfp_i64)odd - 1;
  const softfp_u32 increment = u >= 0;
  if (increment) SOFTFP_PATH(SOFTFP_PATH_FAST_DIV_UP);
  if (increment && u + 1 - (softfp_i64)odd == 0) SOFTFP_PATH(SOFTFP_PATH_FAST_DIV_TIE);
  const softfp_u64 sig = ((softfp_u64)q1 << 26) + ((q2 >> 1) + increment);
  if (sig >> 53) SOFTFP_PATH(SOFTFP_PATH_FAST_DIV_CARRY);
  return softfp_make(sig, a.exp - b.exp - (softfp_i32)halve - 52, a.neg ^ b.neg);
}

#endif /* EXACTVQ_SOFTFP_FAST_H */
