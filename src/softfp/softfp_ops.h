/* softfp operations: conversions, add, subtract, multiply and divide, each the
 * correctly rounded binary64 result (round to nearest even) for zero and normal
 * operands; and the fast forms of multiply and divide for normal operands, in
 * 32-bit words and without data-dependent branches, for the kernels' hot loops.
 * Tested against native binary64 the TestFloat way (tests/softfp/).
 */
#ifndef EXACTVQ_SOFTFP_OPS_H
#define EXACTVQ_SOFTFP_OPS_H

#include "softfp/softfp_primitives.h"

/* ---- conversions --------------------------------------------------------- */

/* v converted with rounding to nearest even; exact when v < 2^53 (every value
 * the term converts), and the single rounding of an exact integer product
 * below 2^64 (the binary64 product of two exactly converted factors). */
SOFTFP_FN softfp softfp_from_u64(softfp_u64 v) {
  if (v == 0) return softfp_make(0, 0, 0);
  return softfp_round(0, v, 0);
}

/* v < 2^53, converted exactly: normalising only, nothing rounds (the same
 * result as softfp_from_u64, fewer steps). */
SOFTFP_FN softfp softfp_from_u53(softfp_u64 v) {
  if (v == 0) return softfp_make(0, 0, 0);
  const softfp_i32 s = softfp_clz64(v) - 11;
  return softfp_make(v << s, -s, 0);
}

/* |v| < 2^53, exactly (softfp_from_i64's result, fewer steps). */
SOFTFP_FN softfp softfp_from_i53(softfp_i64 v) {
  softfp r = softfp_from_u53(v < 0 ? (softfp_u64)(-v) : (softfp_u64)v);
  r.neg = v < 0 ? 1 : 0;
  return r;
}

/* A signed integer with |v| < 2^63. */
SOFTFP_FN softfp softfp_from_i64(softfp_i64 v) {
  softfp r = softfp_from_u64(v < 0 ? (softfp_u64)(-v) : (softfp_u64)v);
  r.neg = v < 0 ? 1 : 0;
  return r;
}

/* A binary64 bit pattern (zero, subnormal or normal; not infinite or NaN). */
SOFTFP_FN softfp softfp_from_bits(softfp_u64 bits) {
  const softfp_i32 neg = (softfp_i32)(bits >> 63);
  const softfp_i32 biased = (softfp_i32)((bits >> 52) & 0x7FF);
  const softfp_u64 fraction = bits & (SOFTFP_HIDDEN - 1);
  if (biased != 0) return softfp_make(fraction | SOFTFP_HIDDEN, biased - 1075, neg);
  if (fraction == 0) return softfp_make(0, 0, neg);
  softfp r = softfp_round(neg, fraction, -1074); /* exact: fewer than 53 bits */
  return r;
}

/* True when x is zero or a normal binary64 number (see the top). */
SOFTFP_FN int softfp_is_valid(softfp x) {
  if (x.sig == 0) return 1;
  return x.sig >= SOFTFP_HIDDEN && x.sig < SOFTFP_LIMIT && x.exp >= -1074 && x.exp <= 971;
}

/* The binary64 bit pattern of a valid x. */
SOFTFP_FN softfp_u64 softfp_to_bits(softfp x) {
  const softfp_u64 sign = (softfp_u64)x.neg << 63;
  if (x.sig == 0) return sign;
  return sign | ((softfp_u64)(x.exp + 1075) << 52) | (x.sig & (SOFTFP_HIDDEN - 1));
}

/* ---- arithmetic ---------------------------------------------------------- */

/* 2 * x: the exponent moves, nothing rounds. */
SOFTFP_FN softfp softfp_twice(softfp x) {
  if (x.sig != 0) x.exp += 1;
  return x;
}

/* a + b. The larger magnitude goes first; both significands get 10 guard bits
 * (top bit at 62, bit 63 free for a carry), the smaller is shifted under the
 * larger with jamming. A gap of 0 or 1 shifts nothing out, so a difference is
 * exact however much cancels; a gap of 2 or more leaves at least 2^61, so
 * normalising moves the jammed bit by at most 2 places, still far below the
 * rounding bit (bit 10). */
SOFTFP_FN softfp softfp_add(softfp a, softfp b) {
  if (a.sig == 0 || b.sig == 0) {
    SOFTFP_PATH(SOFTFP_PATH_ADD_ZERO_OPERAND);
    if (a.sig != 0) return a;
    if (b.sig != 0) return b;
    return softfp_make(0, 0, a.neg & b.neg); /* -0 only for -0 + -0 */
  }
  if (b.exp > a.exp || (b.exp == a.exp && b.sig > a.sig)) {
    const softfp t = a;
    a = b;
    b = t;
  }
  const softfp_u32 gap = (softfp_u32)(a.exp - b.exp);
  const softfp_u64 am = a.sig << 10;
  softfp_u64 bm = b.sig << 10;
  if (gap != 0) bm = softfp_shift_right_jam(bm, gap);
  if (gap >= 64) SOFTFP_PATH(SOFTFP_PATH_ADD_ALL_STICKY);
  if (a.neg == b.neg) {
    SOFTFP_PATH(SOFTFP_PATH_ADD_SAME_SIGN);
    return softfp_round(a.neg, am + bm, a.exp - 10);
  }
  const softfp_u64 diff = am - bm;
  if (diff == 0) {
    SOFTFP_PATH(SOFTFP_PATH_SUB_TO_ZERO);
    return softfp_make(0, 0, 0); /* x - x = +0 under round to nearest */
  }
  if (gap <= 1) SOFTFP_PATH(SOFTFP_PATH_SUB_NEAR);
  else SOFTFP_PATH(SOFTFP_PATH_SUB_FAR);
  return softfp_round(a.neg, diff, a.exp - 10);
}

/* i * 2^k + c for c > 0 and an integer i < 2^64 with at most 53 significant bits
 * (so i * 2^k is a binary64 number): softfp_add(i * 2^k as softfp, c) in fewer
 * steps. Both are added as in softfp_add's same-sign case (top bits at 62, the
 * one with the smaller exponent shifted under the other with jamming), with i
 * aligned straight from its leading bit instead of being normalised to 53 bits
 * first (a top bit at 63 moves down one place: the bit lost is zero). Equal
 * exponents need no order: the sum is the same. */
SOFTFP_FN softfp softfp_add_int(softfp_u64 i, softfp_i32 k, softfp c) {
  SOFTFP_PATH(SOFTFP_PATH_ADD_INTEGER);
  if (i == 0) return c;
  const softfp_i32 n = softfp_clz64(i) - 1; /* i's top bit goes to bit 62 */
  const softfp_u64 im = n >= 0 ? i << n : i >> 1;
  const softfp_i32 ie = k - n;
  if (c.sig == 0) return softfp_round(0, im, ie);
  const softfp_u64 cm = c.sig << 10;
  const softfp_i32 ce = c.exp - 10;
  const int i_first = ie >= ce;
  const softfp_u64 big = i_first ? im : cm;
  softfp_u64 small = i_first ? cm : im;
  const softfp_i32 e = i_first ? ie : ce;
  const softfp_u32 gap = (softfp_u32)(i_first ? ie - ce : ce - ie);
  if (gap != 0) small = softfp_shift_right_jam(small, gap);
  return softfp_round(0, big + small, e);
}

/* (-1)^ineg * i * 2^k + c for c > 0 and an integer i < 2^64 with at most 53
 * significant bits: softfp_add on that pair in fewer steps. Aligned as in
 * softfp_add_int; the larger magnitude goes first, so a difference is exactly
 * softfp_add's (gap 0 or 1: exact; gap >= 2: the jammed bit stays far below the
 * rounding bit). */
SOFTFP_FN softfp softfp_add_int_signed(softfp_u64 i, softfp_i32 k, softfp_i32 ineg, softfp c) {
  SOFTFP_PATH(SOFTFP_PATH_ADD_INTEGER);
  if (i == 0) return c;
  const softfp_i32 n = softfp_clz64(i) - 1;
  const softfp_u64 im = n >= 0 ? i << n : i >> 1;
  const softfp_i32 ie = k - n;
  const softfp_u64 cm = c.sig << 10;
  const softfp_i32 ce = c.exp - 10;
  const int i_first = ie > ce || (ie == ce && im >= cm);
  const softfp_u64 big = i_first ? im : cm;
  softfp_u64 small = i_first ? cm : im;
  const softfp_i32 e = i_first ? ie : ce;
  const softfp_u32 gap = (softfp_u32)(i_first ? ie - ce : ce - ie);
  if (gap != 0) small = softfp_shift_right_jam(small, gap);
  if (!ineg) return softfp_round(0, big + small, e);
  const softfp_u64 diff = big - small;
  if (diff == 0) return softfp_make(0, 0, 0); /* x - x = +0 */
  return softfp_round(i_first ? 1 : 0, diff, e);
}

/* An integer value i * 2^k, i < 2^64 with at most 53 significant bits. */
typedef struct softfp_scaled {
  softfp_u64 i;
  softfp_i32 k;
} softfp_scaled;

/* i + c for an integer 0 <= i < 2^53 and c > 0. */
SOFTFP_FN softfp softfp_add_u53(softfp_u64 i, softfp c) { return softfp_add_int(i, 0, c); }

/* v < 2^64 - 2^10 rounded to 53 significant bits, nearest even, kept as an
 * integer: the value of softfp_from_u64(v), the binary64 conversion. */
SOFTFP_FN softfp_u64 softfp_round_int53(softfp_u64 v) {
  if (v < SOFTFP_LIMIT) return v;
  const softfp_u32 s = (softfp_u32)(11 - softfp_clz64(v)); /* bits below the 53: 1..11 */
  const softfp_u64 unit = (softfp_u64)1 << s;
  const softfp_u64 rest = v & (unit - 1);
  const softfp_u64 r = v - rest;
  const softfp_u64 halfway = unit >> 1;
  return rest > halfway || (rest == halfway && (r & unit)) ? r + unit : r;
}

/* The integer hi * 2^64 + lo (hi 0 or 1) below 2^65 - 2^12, rounded to 53
 * significant bits, nearest even, as i * 2^k. From 2^63 up it is halved first
 * (k = 1, the bit shifted out jammed into bit 0, ten or eleven bits below the
 * rounding position), so i < 2^64 - 2^11 and the rounding cannot carry out of
 * 64 bits. */
SOFTFP_FN softfp_scaled softfp_round_int65(softfp_u64 hi, softfp_u64 lo) {
  const int halve = hi != 0 || (lo >> 63) != 0;
  softfp_scaled r;
  r.i = softfp_round_int53(halve ? (hi << 63) | (lo >> 1) | (lo & 1) : lo);
  r.k = halve ? 1 : 0;
  return r;
}

SOFTFP_FN softfp softfp_sub(softfp a, softfp b) {
  b.neg ^= 1;
  return softfp_add(a, b);
}

/* a * b. A power-of-two factor (the common w = 2^16) only moves the exponent.
 * Otherwise the 106-bit significand product comes from four 32x32->64 limb
 * products (no 64x64 high-half instruction: fp64-free.md), and its top 64 bits
 * plus a sticky bit for the rest are rounded. */
SOFTFP_FN softfp softfp_mul(softfp a, softfp b) {
  const softfp_i32 neg = a.neg ^ b.neg;
  if (a.sig == 0 || b.sig == 0) {
    SOFTFP_PATH(SOFTFP_PATH_MUL_ZERO);
    return softfp_make(0, 0, neg);
  }
  if (a.sig == SOFTFP_HIDDEN || b.sig == SOFTFP_HIDDEN) {
    SOFTFP_PATH(SOFTFP_PATH_MUL_POW2);
    const softfp_u64 sig = a.sig == SOFTFP_HIDDEN ? b.sig : a.sig;
    return softfp_make(sig, a.exp + b.exp + 52, neg);
  }
  SOFTFP_PATH(SOFTFP_PATH_MUL_GENERAL);
  const softfp_u64 a0 = (softfp_u64)(softfp_u32)a.sig, a1 = a.sig >> 32; /* a1 < 2^21 */
  const softfp_u64 b0 = (softfp_u64)(softfp_u32)b.sig, b1 = b.sig >> 32;
  const softfp_u64 p00 = a0 * b0;
  const softfp_u64 mid = a0 * b1 + a1 * b0; /* < 2^54: no overflow */
  const softfp_u64 p11 = a1 * b1;
  const softfp_u64 lo = p00 + (mid << 32);
  const softfp_u64 hi = p11 + (mid >> 32) + (lo < p00 ? (softfp_u64)1 : (softfp_u64)0);
  /* The product is hi * 2^64 + lo with hi in [2^40, 2^42). */
  const softfp_i32 s = softfp_clz64(hi);
  const softfp_u64 top = (hi << s) | (lo >> (64 - s));
  const softfp_i32 sticky = (lo << s) != 0;
  return softfp_round_top(neg, top, a.exp + b.exp + 64 - s, sticky);
}

/* a / b for b != 0. Long division of the significands in three digits of 18,
 * 18 and 17 bits: 53 fraction bits after the leading 1. Each digit is estimated
 * in fp32 and then corrected with the exact remainder until
 * 0 <= remainder < divisor, so the result is the same whatever the rounding of
 * the fp32 estimate. The remainder after a digit, r * 2^bits - digit * y, can
 * need 71 bits while it is being corrected, so it is formed modulo 2^64 and read
 * as signed: that is its true value as long as the estimate lies within 2^9 of
 * the digit, and it lies within 1 (truncations and three fp32 roundings below
 * 2^-21 relative in all; any fp32 whose product and reciprocal are within 2^-12
 * relative would do). */
SOFTFP_FN softfp softfp_div(softfp a, softfp b) {
  const softfp_i32 neg = a.neg ^ b.neg;
  if (b.sig == 0) return softfp_make(1, SOFTFP_INVALID_EXP, neg); /* invalid */
  if (a.sig == 0) {
    SOFTFP_PATH(SOFTFP_PATH_DIV_ZERO);
    return softfp_make(0, 0, neg);
  }
  SOFTFP_PATH(SOFTFP_PATH_DIV_GENERAL);
  softfp_u64 x = a.sig;
  const softfp_u64 y = b.sig;
  softfp_i32 e = a.exp - b.exp;
  if (x < y) { /* make the quotient lie in [1, 2) */
    x <<= 1;
    e -= 1;
  }
  softfp_u64 q = 1;
  softfp_u64 r = x - y; /* 0 <= r < y < 2^53 */
  /* y >> 29 is in [2^23, 2^24): exact in fp32. With r >> 21 < 2^32, the digit
   * r * 2^bits / y is about (r >> 21) * reciprocal * 2^(bits - 8). */
  const float reciprocal = 1.0f / (float)(softfp_u32)(y >> 29);
  for (softfp_i32 i = 0; i < 3; ++i) {
    const softfp_i32 bits = i < 2 ? 18 : 17; /* 18 + 18 + 17 = 53 */
    const softfp_u32 max_digit = ((softfp_u32)1 << bits) - 1;
    const float scale = i < 2 ? 1024.0f : 512.0f; /* 2^(bits - 8), exact */
    const float estimate = (float)(softfp_u32)(r >> 21) * reciprocal * scale;
    softfp_u32 d = estimate >= (float)max_digit ? max_digit
                   : estimate > 0.0f            ? (softfp_u32)estimate
                                                : 0;
    /* r * 2^bits - d * y, modulo 2^64, read as signed (see above). */
    softfp_i64 rem = (softfp_i64)((r << bits) - (softfp_u64)d * y);
    while (rem < 0) {
      SOFTFP_PATH(SOFTFP_PATH_DIV_DIGIT_DOWN);
      d -= 1;
      rem += (softfp_i64)y;
    }
    while (rem >= (softfp_i64)y) {
      SOFTFP_PATH(SOFTFP_PATH_DIV_DIGIT_UP);
      d += 1;
      rem -= (softfp_i64)y;
    }
    r = (softfp_u64)rem;
    if (d == 0) SOFTFP_PATH(SOFTFP_PATH_DIV_DIGIT_ZERO);
    if (d == max_digit) SOFTFP_PATH(SOFTFP_PATH_DIV_DIGIT_MAX);
    q = (q << bits) | d;
  }
  /* q = floor(x * 2^53 / y) in [2^53, 2^54): 53 bits and the rounding bit;
   * the remainder r is the sticky bit. */
  softfp_u64 sig = q >> 1;
  e -= 52;
  if ((q & 1) && (r != 0 || (sig & 1))) {
    SOFTFP_PATH(SOFTFP_PATH_ROUND_UP);
    if (r == 0) SOFTFP_PATH(SOFTFP_PATH_ROUND_TIE);
    sig += 1;
    if (sig == SOFTFP_LIMIT) {
      SOFTFP_PATH(SOFTFP_PATH_ROUND_CARRY);
      sig = SOFTFP_HIDDEN;
      e += 1;
    }
  }
  return softfp_make(sig, e, neg);
}

/* ---- comparison and conversions to integers ------------------------------- */

/* |a| < |b| (zero the smallest; a normal significand keeps the exponent's order). */
SOFTFP_FN int softfp_magnitude_less(softfp a, softfp b) {
  if (b.sig == 0) return 0;
  if (a.sig == 0) return 1;
  return a.exp < b.exp || (a.exp == b.exp && a.sig < b.sig);
}

/* a < b, ordered (C's < on binary64; -0 equals +0). */
SOFTFP_FN int softfp_less(softfp a, softfp b) {
  if (a.sig == 0 && b.sig == 0) return 0;
  if (a.neg != b.neg) return a.neg;
  return a.neg ? softfp_magnitude_less(b, a) : softfp_magnitude_less(a, b);
}

/* floor(|x|), and whether it fits in 64 bits (*fits = 0 beyond). */
SOFTFP_FN softfp_u64 softfp_truncated_magnitude(softfp x, int* fits) {
  *fits = 1;
  if (x.sig == 0 || x.exp <= -64) return 0;
  if (x.exp < 0) return x.sig >> (softfp_u32)(-x.exp);
  if (x.exp > 11) { /* sig * 2^exp >= 2^64 */
    *fits = 0;
    return 0;
  }
  return x.sig << (softfp_u32)x.exp;
}

/* C's conversion toward zero to int32 as x86-64 does it: the most negative
 * value when x is outside (-2^31 - 1, 2^31). */
SOFTFP_FN softfp_i32 softfp_truncate_i32(softfp x) {
  int fits = 0;
  const softfp_u64 t = softfp_truncated_magnitude(x, &fits);
  const softfp_u64 bound = x.neg ? (softfp_u64)1 << 31 : ((softfp_u64)1 << 31) - 1;
  if (!fits || t > bound) return (softfp_i32)((softfp_u32)1 << 31);
  return x.neg ? (softfp_i32)(softfp_u32)(0u - (softfp_u32)t) : (softfp_i32)t;
}

/* The same to int64: the most negative value outside [-2^63, 2^63). */
SOFTFP_FN softfp_i64 softfp_truncate_i64(softfp x) {
  int fits = 0;
  const softfp_u64 t = softfp_truncated_magnitude(x, &fits);
  const softfp_u64 bound = x.neg ? (softfp_u64)1 << 63 : ((softfp_u64)1 << 63) - 1;
  if (!fits || t > bound) return (softfp_i64)((softfp_u64)1 << 63);
  return x.neg ? (softfp_i64)((softfp_u64)0 - t) : (softfp_i64)t;
}

/* ---- fast operations for normal operands ---------------------------------- */

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
  const softfp_u64 t1 = (softfp_u64)a0 * b1 + (p00 >> 32);            /* < 2^54 */
  const softfp_u64 t2 = (softfp_u64)a1 * b0 + (softfp_u32)t1;         /* < 2^54 */
  const softfp_u64 hi = (softfp_u64)a1 * b1 + (t1 >> 32) + (t2 >> 32); /* bits 64.., < 2^42 */
  const softfp_u32 mid = (softfp_u32)t2, low = (softfp_u32)p00;        /* bits 32..63, 0..31 */
  const softfp_u32 w2 = (softfp_u32)hi, w3 = (softfp_u32)(hi >> 32);
#endif
  /* The significand is bits 52 + top and up (two funnel shifts of 32-bit
   * words), the rounding bit is bit 51 + top (moved to bit 31 of rs) and the
   * sticky bits are the ones below it. */
  const softfp_u32 top = w3 >> 9; /* the product's top bit is 104 + top */
  const softfp_u32 kept_lo = softfp_funnel_r32(mid, w2, 20 + top), kept_hi = softfp_funnel_r32(w2, w3, 20 + top);
  const softfp_u32 rs = mid << (12 - top);
  const softfp_u32 sticky = ((rs << 1) | low) != 0;
  const softfp_u32 increment = (rs >> 31) & (sticky | (kept_lo & 1));
  const softfp_u64 sig = (((softfp_u64)kept_hi << 32) | kept_lo) + increment;
  if (increment) SOFTFP_PATH(SOFTFP_PATH_FAST_MUL_UP);
  if (increment && !sticky) SOFTFP_PATH(SOFTFP_PATH_FAST_MUL_TIE);
  if (sig >> 53) SOFTFP_PATH(SOFTFP_PATH_FAST_MUL_CARRY);
  return softfp_fast_normalize(softfp_make(sig, a.exp + b.exp + 52 + (softfp_i32)top, a.neg ^ b.neg));
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
  const float estimate = softfp_reciprocal_estimate((float)y_top) * 9223372036854775808.0f; /* 2^63 */
  /* r0 in [2^31, 2^32), where 2^63 / (y_top + 1) lies too: a clamp only brings
   * the estimate closer. (CUDA's conversion saturates at 2^32 - 1.) */
#if defined(__CUDA_ARCH__)
  const softfp_u32 r0 = __float2uint_rz(fmaxf(estimate, 2147483648.0f));
#else
  const softfp_u32 r0 = (softfp_u32)(estimate < 2147483648.0f   ? 2147483648.0f
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
  const softfp_i32 residual17 = (softfp_i32)~(softfp_u32)(p >> 17);
#if defined(__CUDA_ARCH__)
  /* floor(r0 * residual17 / 2^32) from a signed high product: r0 read as a
   * signed word is r0 - 2^32 (r0 >= 2^31). */
  const softfp_u32 reciprocal = r0 + (softfp_u32)((__mulhi((int)r0, residual17) + residual17) >> 14);
#else
  const softfp_u32 reciprocal = (softfp_u32)((softfp_i64)r0 + (((softfp_i64)r0 * residual17) >> 46));
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

#endif /* EXACTVQ_SOFTFP_OPS_H */
