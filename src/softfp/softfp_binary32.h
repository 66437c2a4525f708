/* binary32 on softfp: the exact widening of a binary32 value, the rounding of
 * a softfp number to binary32, and the binary32 +, -, * and / built from them,
 * for the float steps of a definition on a device whose own float arithmetic
 * may not be IEEE's (OpenCL 1.2 allows 2.5 ulp for a float division and may
 * flush subnormals). A float operation is the binary64 operation on the widened
 * operands, rounded once more to binary32: that is the correctly rounded float
 * result for +, -, * and /, because binary64 carries 53 >= 2 * 24 + 2 bits
 * (Figueroa), subnormal and zero results included. Floats travel as their bit
 * patterns (softfp_u32); operands are finite (softfp has no infinity or NaN).
 * In the subset of core/portable.h, integers only; tested against the host's
 * float arithmetic and casts bit for bit (tests/softfp/softfp_binary32_test.cpp,
 * tests/libm/softfp_libm_test.cpp).
 */
#ifndef EXACTVQ_SOFTFP_BINARY32_H
#define EXACTVQ_SOFTFP_BINARY32_H

#include "softfp/softfp.h"

/* The binary32 value with bit pattern `bits` (zero, subnormal or normal; not
 * infinite or NaN), exactly: every binary32 value is a normal binary64 one. */
SOFTFP_FN softfp softfp_from_f32_bits(softfp_u32 bits) {
  const softfp_i32 neg = (softfp_i32)(bits >> 31);
  const softfp_i32 biased = (softfp_i32)((bits >> 23) & 0xFF);
  const softfp_u64 fraction = (softfp_u64)(bits & 0x7FFFFF);
  if (biased != 0) return softfp_make((fraction | 0x800000) << 29, biased - 150 - 29, neg);
  if (fraction == 0) return softfp_make(0, 0, neg);
  return softfp_round(neg, fraction, -149); /* exact: 23 bits at most */
}

/* x rounded to binary32 (nearest even) as its bit pattern, for any finite x,
 * as C's (float) of a double: zero, subnormal results (multiples of 2^-149),
 * normal ones, and overflow to infinity. value = sig * 2^exp with
 * 2^52 <= sig < 2^53: a normal result keeps sig's top 24 bits (29 dropped),
 * biased exponent exp + 179; below that range (biased exponent under 1) the
 * bits from 2^-149 up are kept, and a carry to 2^23 is the least normal
 * number's pattern. */
SOFTFP_FN softfp_u32 softfp_to_f32_bits(softfp x) {
  const softfp_u32 sign = (softfp_u32)x.neg << 31;
  if (x.sig == 0) return sign;
  softfp_i32 biased = x.exp + 179;
  const softfp_i32 drop = biased >= 1 ? 29 : -149 - x.exp;
  if (drop >= 64) return sign; /* under 2^-160: rounds to zero */
  softfp_u64 q = x.sig >> (softfp_u32)drop;
  const softfp_u64 rest = x.sig & ((SOFTFP_U64_C(1) << (softfp_u32)drop) - 1);
  const softfp_u64 halfway = SOFTFP_U64_C(1) << (softfp_u32)(drop - 1);
  if (rest > halfway || (rest == halfway && (q & 1))) q += 1;
  if (biased < 1) return sign | (softfp_u32)q;
  if (q == (SOFTFP_U64_C(1) << 24)) {
    q >>= 1;
    biased += 1;
  }
  if (biased >= 255) return sign | 0x7F800000u;
  return sign | ((softfp_u32)biased << 23) | ((softfp_u32)q & 0x7FFFFFu);
}

/* Float a + b, a - b, a * b and a / b (b not zero), correctly rounded. */
SOFTFP_FN softfp_u32 softfp_f32_add(softfp_u32 a, softfp_u32 b) {
  return softfp_to_f32_bits(softfp_add(softfp_from_f32_bits(a), softfp_from_f32_bits(b)));
}
SOFTFP_FN softfp_u32 softfp_f32_sub(softfp_u32 a, softfp_u32 b) {
  return softfp_to_f32_bits(softfp_sub(softfp_from_f32_bits(a), softfp_from_f32_bits(b)));
}
SOFTFP_FN softfp_u32 softfp_f32_mul(softfp_u32 a, softfp_u32 b) {
  return softfp_to_f32_bits(softfp_mul(softfp_from_f32_bits(a), softfp_from_f32_bits(b)));
}
SOFTFP_FN softfp_u32 softfp_f32_div(softfp_u32 a, softfp_u32 b) {
  return softfp_to_f32_bits(softfp_div(softfp_from_f32_bits(a), softfp_from_f32_bits(b)));
}

#endif /* EXACTVQ_SOFTFP_BINARY32_H */
