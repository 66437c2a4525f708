/* softfp division, correctly rounded (round to nearest even). */
#ifndef EXACTVQ_SOFTFP_DIV_H
#define EXACTVQ_SOFTFP_DIV_H

#include "softfp/softfp_primitives.h"

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

#endif /* EXACTVQ_SOFTFP_DIV_H */
