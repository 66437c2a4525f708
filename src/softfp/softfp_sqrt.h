/* softfp's square root: sqrt(x) correctly rounded to binary64 (round to
 * nearest even) for zero and normal x, with the binary32 conversions
 * (softfp_binary32.h) for definitions that take a binary64 square root of a
 * binary32 value and round it back (docs/spec/float_ssim.md, the terms' sd). In the subset of
 * core/portable.h, integers only; tested against the CPU's sqrt and casts bit
 * for bit (tests/softfp/softfp_sqrt_test.cpp).
 */
#ifndef EXACTVQ_SOFTFP_SQRT_H
#define EXACTVQ_SOFTFP_SQRT_H

#include "softfp/softfp.h"
#include "softfp/softfp_binary32.h" /* its callers round the root to binary32 */

/* sqrt(a): +-0 stay as they are; a negative non-zero a has no value (NaN in
 * IEEE-754) and gives an invalid result (softfp_is_valid() is false).
 *
 * With the exponent made even (sig doubled when it is odd), a = s * 2^e with
 * 2^52 <= s < 2^54, and sqrt(a) = sqrt(s * 2^54) * 2^((e - 54) / 2). The root
 * of M = s * 2^54 (2^106 <= M < 2^108) is found bit by bit, two bits of M a
 * step: r = floor(sqrt(M)), 2^53 <= r < 2^54, with the remainder M - r^2, which
 * stays below 2r + 1 < 2^55 (so every step fits 64 bits; M's low 54 bits are
 * zeros and need no words of their own). r holds the 53 bits of the result and
 * the rounding bit, a non-zero remainder the sticky bit. An exact tie cannot
 * occur: an exact root r = sqrt(M) has r^2 = s * 2^54, so r has 27 trailing
 * zeros and its rounding bit is 0. */
SOFTFP_FN softfp softfp_sqrt(softfp a) {
  if (a.sig == 0) return a;
  if (a.neg) return softfp_make(1, SOFTFP_INVALID_EXP, 1); /* invalid */
  softfp_u64 s = a.sig;
  softfp_i32 e = a.exp;
  if (e & 1) {
    s <<= 1;
    e -= 1;
  }
  softfp_u64 root = 0, rem = 0;
  for (softfp_i32 i = 53; i >= 0; --i) {
    /* Bits 2i + 1 and 2i of M = s * 2^54: bits 2i - 54 and up of s. */
    const softfp_u64 pair = i >= 27 ? (s >> (softfp_u32)(2 * i - 54)) & 3 : 0;
    rem = (rem << 2) | pair;
    const softfp_u64 trial = (root << 2) | 1;
    if (rem >= trial) {
      rem -= trial;
      root = (root << 1) | 1;
    } else {
      root <<= 1;
    }
  }
  /* root * 2^10 has its top bit at bit 63; the half-step exponent is exact. */
  return softfp_round_top(0, root << 10, (e - 54) / 2 - 10, rem != 0 ? 1 : 0);
}

#endif /* EXACTVQ_SOFTFP_SQRT_H */
