/* softfp multiplication, correctly rounded (round to nearest even). */
#ifndef EXACTVQ_SOFTFP_MUL_H
#define EXACTVQ_SOFTFP_MUL_H

#include "softfp/softfp_primitives.h"

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

#endif /* EXACTVQ_SOFTFP_MUL_H */
