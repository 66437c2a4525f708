/* softfp addition and subtraction, correctly rounded (round to nearest even),
 * with the shorter forms for an integer addend and the integer roundings they
 * take. */
#ifndef EXACTVQ_SOFTFP_ADD_H
#define EXACTVQ_SOFTFP_ADD_H

#include "softfp/softfp_primitives.h"

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
  if (gap <= 1)
    SOFTFP_PATH(SOFTFP_PATH_SUB_NEAR);
  else
    SOFTFP_PATH(SOFTFP_PATH_SUB_FAR);
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

#endif /* EXACTVQ_SOFTFP_ADD_H */
