/* softfp conversions: from integers and binary64 bit patterns, exactly or
 * correctly rounded, and back to bit patterns. */
#ifndef EXACTVQ_SOFTFP_CONVERT_H
#define EXACTVQ_SOFTFP_CONVERT_H

#include "softfp/softfp_primitives.h"

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

#endif /* EXACTVQ_SOFTFP_CONVERT_H */
