/* softfp fused multiply-add: a * b + c with one rounding (round to nearest
 * even), IEEE-754's fusedMultiplyAdd and C's fma, for zero and normal operands.
 * The pinned libm functions (libm/) fuse where glibc's FMA build does; their
 * softfp forms need this to give the same bits. In the subset of
 * core/portable.h, integers only; tested against the CPU's std::fma bit for bit
 * (tests/softfp/softfp_fma_test.cpp).
 *
 * The 106-bit product is exact; product and addend are then placed with their
 * top bits at bit 125 of a 128-bit word pair (bits 126 and 127 free for a
 * carry) and the one with the smaller exponent is shifted under the other with
 * jamming, as softfp_add does in 64 bits. The product has 20 and the addend 73
 * zero bits at the bottom there, so a shift by 0 or 1 loses nothing and a
 * difference is exact however much cancels; a shift by 2 or more leaves a
 * result of at least 2^124, so the jammed bit lies far below the rounding bit
 * (bit 71 or higher). A result outside the normal range (a subnormal or an
 * overflow in binary64) comes back with its exponent out of range, and an
 * invalid operand (a division by zero, a negative square root) makes the
 * result invalid: softfp_is_valid() says which, as for every softfp operation.
 */
#ifndef EXACTVQ_SOFTFP_FMA_H
#define EXACTVQ_SOFTFP_FMA_H

#include "softfp/softfp_primitives.h"
#include "softfp/softfp_convert.h"
#include "softfp/softfp_mul.h"

/* An unsigned 128-bit integer, hi * 2^64 + lo. */
typedef struct softfp_u128 {
  softfp_u64 lo;
  softfp_u64 hi;
} softfp_u128;

SOFTFP_FN softfp_u128 softfp_u128_make(softfp_u64 hi, softfp_u64 lo) {
  softfp_u128 r;
  r.lo = lo;
  r.hi = hi;
  return r;
}

/* x << n for 0 <= n < 128. */
SOFTFP_FN softfp_u128 softfp_u128_shl(softfp_u128 x, softfp_u32 n) {
  if (n == 0) return x;
  if (n >= 64) return softfp_u128_make(x.lo << (n - 64), 0);
  return softfp_u128_make((x.hi << n) | (x.lo >> (64 - n)), x.lo << n);
}

/* x >> n with every bit shifted out OR-ed into bit 0, n >= 1. */
SOFTFP_FN softfp_u128 softfp_u128_shift_right_jam(softfp_u128 x, softfp_u32 n) {
  if (n >= 128) return softfp_u128_make(0, (x.hi | x.lo) != 0 ? 1 : 0);
  if (n >= 64) {
    const softfp_u32 m = n - 64;
    const softfp_u64 lost = m == 0 ? x.lo : x.lo | (x.hi << (64 - m));
    const softfp_u64 lo = m == 0 ? x.hi : x.hi >> m;
    return softfp_u128_make(0, lo | (lost != 0 ? 1 : 0));
  }
  const softfp_u64 lost = x.lo << (64 - n);
  const softfp_u64 lo = (x.lo >> n) | (x.hi << (64 - n));
  return softfp_u128_make(x.hi >> n, lo | (lost != 0 ? 1 : 0));
}

SOFTFP_FN softfp_u128 softfp_u128_add(softfp_u128 a, softfp_u128 b) {
  const softfp_u64 lo = a.lo + b.lo;
  return softfp_u128_make(a.hi + b.hi + (lo < a.lo ? 1 : 0), lo);
}

/* a - b for a >= b. */
SOFTFP_FN softfp_u128 softfp_u128_sub(softfp_u128 a, softfp_u128 b) {
  return softfp_u128_make(a.hi - b.hi - (a.lo < b.lo ? 1 : 0), a.lo - b.lo);
}

SOFTFP_FN int softfp_u128_less(softfp_u128 a, softfp_u128 b) {
  return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}

/* The exact product of two significands below 2^53, from four 32 x 32-bit limb
 * products (as softfp_mul). */
SOFTFP_FN softfp_u128 softfp_mul_wide(softfp_u64 a, softfp_u64 b) {
  const softfp_u64 a0 = (softfp_u64)(softfp_u32)a, a1 = a >> 32;
  const softfp_u64 b0 = (softfp_u64)(softfp_u32)b, b1 = b >> 32;
  const softfp_u64 p00 = a0 * b0;
  const softfp_u64 mid = a0 * b1 + a1 * b0; /* < 2^54 */
  const softfp_u64 lo = p00 + (mid << 32);
  const softfp_u64 hi = a1 * b1 + (mid >> 32) + (lo < p00 ? 1 : 0);
  return softfp_u128_make(hi, lo);
}

/* Rounds m * 2^e, m != 0 exact but for a jammed bit at least two bits below
 * its 53rd bit, to 53 bits. */
SOFTFP_FN softfp softfp_round_u128(softfp_i32 neg, softfp_u128 m, softfp_i32 e) {
  const softfp_i32 s = m.hi != 0 ? softfp_clz64(m.hi) : 64 + softfp_clz64(m.lo);
  const softfp_u128 n = softfp_u128_shl(m, (softfp_u32)s);
  return softfp_round_top(neg, n.hi, e + 64 - s, n.lo != 0);
}

/* Whether x is zero or normal-shaped and not marked invalid (an operand
 * softfp_fma can take). */
SOFTFP_FN int softfp_fma_operand_ok(softfp x) {
  return x.sig == 0 || (x.sig >= SOFTFP_HIDDEN && x.sig < SOFTFP_LIMIT &&
                        x.exp < SOFTFP_INVALID_EXP / 2 && x.exp > -SOFTFP_INVALID_EXP / 2);
}

/* a * b + c, rounded once. */
SOFTFP_FN softfp softfp_fma(softfp a, softfp b, softfp c) {
  const softfp_i32 pneg = a.neg ^ b.neg;
  if (!softfp_fma_operand_ok(a) || !softfp_fma_operand_ok(b) || !softfp_fma_operand_ok(c))
    return softfp_make(1, SOFTFP_INVALID_EXP, pneg); /* invalid */
  if (a.sig == 0 || b.sig == 0) {
    SOFTFP_PATH(SOFTFP_PATH_FMA_ZERO_PRODUCT);
    /* An exact zero plus c: c, or a zero that is -0 only for -0 + -0. */
    if (c.sig != 0) return c;
    return softfp_make(0, 0, pneg & c.neg);
  }
  if (c.sig == 0) {
    SOFTFP_PATH(SOFTFP_PATH_FMA_ZERO_ADDEND);
    return softfp_mul(a, b); /* the product rounded once; never zero */
  }
  /* Both at top bit 125: the product (top at 104 or 105) moved up, the addend
   * (top at 52) moved up by 73. */
  softfp_u128 p = softfp_mul_wide(a.sig, b.sig);
  const softfp_u32 p_shift = (p.hi >> 41) != 0 ? 20 : 21;
  p = softfp_u128_shl(p, p_shift);
  const softfp_i32 pe = a.exp + b.exp - (softfp_i32)p_shift;
  const softfp_u128 q = softfp_u128_make(c.sig << 9, 0); /* c.sig * 2^73 */
  const softfp_i32 qe = c.exp - 73;
  /* The larger magnitude first (same top bit: the exponent, then the words). */
  const int p_first = pe > qe || (pe == qe && !softfp_u128_less(p, q));
  const softfp_u128 big = p_first ? p : q;
  softfp_u128 small = p_first ? q : p;
  const softfp_i32 e = p_first ? pe : qe;
  const softfp_i32 neg = p_first ? pneg : c.neg;
  const softfp_u32 gap = (softfp_u32)(p_first ? pe - qe : qe - pe);
  if (gap != 0) small = softfp_u128_shift_right_jam(small, gap);
  if (pneg == c.neg) {
    SOFTFP_PATH(SOFTFP_PATH_FMA_ADD);
    return softfp_round_u128(neg, softfp_u128_add(big, small), e);
  }
  const softfp_u128 diff = softfp_u128_sub(big, small);
  if (diff.hi == 0 && diff.lo == 0) {
    SOFTFP_PATH(SOFTFP_PATH_FMA_CANCEL_TO_ZERO);
    return softfp_make(0, 0, 0); /* x - x = +0 under round to nearest */
  }
  SOFTFP_PATH(SOFTFP_PATH_FMA_SUBTRACT);
  return softfp_round_u128(neg, diff, e);
}

#endif /* EXACTVQ_SOFTFP_FMA_H */
