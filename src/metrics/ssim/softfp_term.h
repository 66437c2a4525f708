/* The SSIM term of metrics/ssim/definition.h on softfp, for devices without
 * fp64 (spec/fp64-free.md): its constants, the term operation for operation
 * (with the integer shortcut where the integer parts are exact), its 2^-64 fixed
 * point, and the exact fast paths that take nearly every window (softfp_term
 * picks). Same subset and same three languages as softfp/; tested against the
 * binary64 term (tests/softfp/). Change it in the same commit as definition.h.
 */
#ifndef EXACTVQ_METRICS_SSIM_SOFTFP_TERM_H
#define EXACTVQ_METRICS_SSIM_SOFTFP_TERM_H

#include "metrics/ssim/definition.h"
#include "softfp/softfp.h"

/* ---- the exact sum's fixed point ----------------------------------------- */

/* round_half_even(x * 2^64) for |x| < 2^62: the twin of definition.h's
 * ssim_fixed64_of on softfp's parts, with the common case first. (Written out,
 * not a call: a call changes what ptxas makes of the emulated kernels.) */
SOFTFP_FN softfp_i128 softfp_to_fixed64(softfp x) {
  softfp_i128 q;
  const softfp_i32 shift = x.exp + 64; /* q = sig * 2^shift */
  if (x.sig != 0 && (softfp_u32)shift < 32) {
    /* The common case, |x| in [2^-12, 2^20) (a term is below 2^17): an exact
     * shift in 32-bit words, negated without a branch. */
    SOFTFP_PATH(SOFTFP_PATH_FIXED_SHIFT_LEFT);
    const softfp_u64 lo = softfp_shl64_below32(x.sig, (softfp_u32)shift);
    const softfp_u64 hi = (softfp_u64)(((softfp_u32)(x.sig >> 32) >> 1) >> (31 - shift));
    const softfp_u64 mask = (softfp_u64)0 - (softfp_u64)x.neg;
    q.lo = (lo ^ mask) + (softfp_u64)x.neg;
    q.hi = (hi ^ mask) + (q.lo < (softfp_u64)x.neg ? (softfp_u64)1 : (softfp_u64)0);
    return q;
  }
  q.lo = 0;
  q.hi = 0;
  if (x.sig == 0) return q;
  if (shift >= 0) {
    SOFTFP_PATH(SOFTFP_PATH_FIXED_SHIFT_LEFT);
    if (shift == 0) {
      q.lo = x.sig;
    } else if (shift < 64) {
      q.lo = x.sig << shift;
      q.hi = x.sig >> (64 - shift);
    } else {
      q.hi = x.sig << (shift - 64);
    }
  } else if (-shift > 54) {
    SOFTFP_PATH(SOFTFP_PATH_FIXED_TO_ZERO); /* sig * 2^-55 < 1/2 */
  } else {
    SOFTFP_PATH(SOFTFP_PATH_FIXED_ROUNDED);
    const softfp_u32 r = (softfp_u32)(-shift);
    softfp_u64 v = x.sig >> r;
    const softfp_u64 rest = x.sig & (((softfp_u64)1 << r) - 1);
    const softfp_u64 halfway = (softfp_u64)1 << (r - 1);
    if (rest > halfway || (rest == halfway && (v & 1))) v += 1;
    q.lo = v;
  }
  if (x.neg) {
    q.lo = ~q.lo + 1;
    q.hi = ~q.hi + (q.lo == 0 ? (softfp_u64)1 : (softfp_u64)0);
  }
  return q;
}

/* ---- the term ------------------------------------------------------------- */

typedef struct softfp_moments {
  softfp_u64 mux, muy;   /* < 2^32 */
  softfp_u64 x2, xy, y2; /* < 2^48 */
  softfp_u64 w;          /* <= 2^16 */
} softfp_moments;

/* (Md * Md) * K1 and (Md * Md) * K2 at a bit depth: the window-free part of c1,
 * c2; and the fast path's view of c1 = mm_k1 * 2^32 and c2 = mm_k2 * 2^32 (their
 * values at w = 2^16): c = c_int + c_frac2 / 2^(c_frac_bits + 1). */
typedef struct softfp_term_constants {
  softfp mm_k1;
  softfp mm_k2;
  softfp_i32 fast;                       /* 1: softfp_term_fast may run with these */
  softfp_u64 c1_int, c2_int;             /* floor(c1), floor(c2) */
  softfp_u32 c1_frac2, c2_frac2;         /* twice the fraction bits */
  softfp_i32 c1_frac_bits, c2_frac_bits; /* f: c1 * 2^f, c2 * 2^f are integers */
  softfp_u64 cov_limit; /* |w * xy - mux * muy| below it: B's fixed point fits 64 bits */
} softfp_term_constants;

/* Trailing zero bits of x != 0. */
SOFTFP_FN softfp_i32 softfp_ctz64(softfp_u64 x) { return 63 - softfp_clz64(x & (~x + 1)); }

/* Fills the fast path's view of c1 and c2, the values of (mm_k * wd) * wd at
 * one weight w (positive and normal), beside mm_k1 and mm_k2. The fast path
 * needs f = -(exponent of c) in [1, 20] for both, so that c is below 2^52 and
 * at least 2^32. B = jb + c2's fraction is exact in a signed 64-bit fixed point
 * with f2 fraction bits while |jb| < 2^(63 - f2), which |cov| < cov_limit =
 * 2^(62 - f2) - 2^(52 - f2) ensures (c2's integer part is below 2^(53 - f2)). */
SOFTFP_FN softfp_term_constants softfp_fast_constants_of(softfp mm_k1, softfp mm_k2, softfp c1,
                                                         softfp c2) {
  softfp_term_constants k;
  k.mm_k1 = mm_k1;
  k.mm_k2 = mm_k2;
  const softfp_i32 f1 = -c1.exp, f2 = -c2.exp;
  k.fast = c1.sig != 0 && c2.sig != 0 && f1 >= 1 && f1 <= 20 && f2 >= 1 && f2 <= 20;
  if (!k.fast) {
    k.c1_int = k.c2_int = 0;
    k.c1_frac2 = k.c2_frac2 = 0;
    k.c1_frac_bits = k.c2_frac_bits = 0;
    k.cov_limit = 0;
    return k;
  }
  k.c1_int = c1.sig >> f1;
  k.c2_int = c2.sig >> f2;
  k.c1_frac2 = (softfp_u32)(c1.sig & (((softfp_u64)1 << f1) - 1)) << 1;
  k.c2_frac2 = (softfp_u32)(c2.sig & (((softfp_u64)1 << f2) - 1)) << 1;
  k.c1_frac_bits = f1;
  k.c2_frac_bits = f2;
  k.cov_limit = ((softfp_u64)1 << (62 - f2)) - ((softfp_u64)1 << (52 - f2));
  return k;
}

/* Fills the constants from mm_k1 and mm_k2 (positive and normal); the fast
 * path's view is that of w = 2^16, where c1 = mm_k1 * 2^32 and c2 = mm_k2 * 2^32
 * exactly. softfp_term_fast does not check B per window, so here the fast path
 * also needs c2 * 2 not to be an integer, so that B = c2 + 2 * cov is never 0
 * (true from 8 to 14 bits; c2 is an odd integer at 14 bits). */
SOFTFP_FN softfp_term_constants softfp_term_constants_of(softfp mm_k1, softfp mm_k2) {
  const softfp c2 = softfp_make(mm_k2.sig, mm_k2.exp + 32, 0);
  softfp_term_constants k =
      softfp_fast_constants_of(mm_k1, mm_k2, softfp_make(mm_k1.sig, mm_k1.exp + 32, 0), c2);
  k.fast = k.fast && softfp_ctz64(c2.sig) <= k.c2_frac_bits;
  return k;
}

SOFTFP_FN softfp_term_constants softfp_make_term_constants(softfp_i32 bitdepth) {
  const softfp p01 = softfp_from_bits(EXACTVQ_SSIM_P01_BITS);
  const softfp p03 = softfp_from_bits(EXACTVQ_SSIM_P03_BITS);
  const softfp md = softfp_from_u64(((softfp_u64)1 << bitdepth) - 1);
  softfp mm_k1, mm_k2;
  EXACTVQ_SSIM_CONSTANTS(softfp_mul, md, p01, p03, mm_k1, mm_k2);
  return softfp_term_constants_of(mm_k1, mm_k2);
}

/* The binary64 constants from their bit patterns (the OpenCL kernel's arguments). */
SOFTFP_FN softfp_term_constants softfp_term_constants_from_bits(softfp_u64 mm_k1_bits,
                                                                softfp_u64 mm_k2_bits) {
  return softfp_term_constants_of(softfp_from_bits(mm_k1_bits), softfp_from_bits(mm_k2_bits));
}

/* The shortcut applies when every integer part of the term is an exact integer
 * below 2^53 in binary64: mux, muy < 2^26 (so their products are below 2^52)
 * and x2*w, xy*w, y2*w < 2^52 (so each partial sum of D stays below 2^53).
 * Then mx2 + my2, xy*wd - mxy and the first three steps of D are exact integer
 * arithmetic, which binary64 reproduces without rounding. */
SOFTFP_FN int softfp_term_integer_shortcut_applies(softfp_moments m) {
  const softfp_u64 limit = (softfp_u64)1 << 52;
  return m.mux < ((softfp_u64)1 << 26) && m.muy < ((softfp_u64)1 << 26) && m.x2 * m.w < limit &&
         m.xy * m.w < limit && m.y2 * m.w < limit;
}

/* The binary64 term, operation for operation as spec/ssim.md writes it; the
 * integer shortcut only where softfp_term_integer_shortcut_applies(). A product
 * of two exactly converted integers is the one rounding of their exact integer
 * product (below 2^64 by the bounds on mux, x2, w), so it is formed in integers. */
SOFTFP_FN softfp softfp_term_with(softfp_moments m, softfp_term_constants k, int integer_shortcut) {
  const softfp wd = softfp_from_u53(m.w);
  /* w = 2^l (2^16 for every window no border truncates): multiplying by wd only
   * adds l to the exponent (softfp_mul's power-of-two case, exact), so c1, c2
   * and wd * A are formed that way; k.mm_k1, k.mm_k2 and A are positive. */
  const int w_pow2 = m.w != 0 && (m.w & (m.w - 1)) == 0;
  const softfp_i32 l = 63 - softfp_clz64(m.w | 1);
  softfp c1, c2;
  if (w_pow2) {
    SOFTFP_PATH(SOFTFP_PATH_TERM_POW2_WEIGHT);
    c1 = softfp_make(k.mm_k1.sig, k.mm_k1.exp + 2 * l, 0);
    c2 = softfp_make(k.mm_k2.sig, k.mm_k2.exp + 2 * l, 0);
  } else {
    c1 = softfp_mul(softfp_mul(k.mm_k1, wd), wd);
    c2 = softfp_mul(softfp_mul(k.mm_k2, wd), wd);
  }
  softfp a, b, c, d;
  if (integer_shortcut) {
    SOFTFP_PATH(SOFTFP_PATH_TERM_INTEGER);
    const softfp_i64 mx2 = (softfp_i64)(m.mux * m.mux);
    const softfp_i64 mxy = (softfp_i64)(m.mux * m.muy);
    const softfp_i64 my2 = (softfp_i64)(m.muy * m.muy);
    /* Each integer is below 2^53 in magnitude: converted exactly. Those of A, C
     * and D are not negative (D's is w^2 times the two windows' variances: by
     * Cauchy-Schwarz w * x2 >= mux^2, for the moments of any real window); c1,
     * c2 > 0. */
    const softfp_i64 dint = (((softfp_i64)(m.x2 * m.w) - mx2) + (softfp_i64)(m.y2 * m.w)) - my2;
    const softfp_i64 cov = (softfp_i64)(m.xy * m.w) - mxy;
    a = softfp_add_int((softfp_u64)mxy, 1, c1);
    b = softfp_add_int_signed(cov < 0 ? (softfp_u64)(-cov) : (softfp_u64)cov, 1, cov < 0, c2);
    c = softfp_add_int((softfp_u64)(mx2 + my2), 0, c1);
    d = softfp_add_int((softfp_u64)dint, 0, c2);
  } else {
    SOFTFP_PATH(SOFTFP_PATH_TERM_GENERAL);
    /* Every product of two converted integers is an integer below 2^64 - 2^11
     * (mux, muy < 2^32; x2 * w <= M^2 * w^2 <= (2^16 - 1)^2 * 2^32), and so is its
     * rounding, kept as an integer. A difference or sum of two such integers is
     * exact in 65 bits and rounded once, as binary64 rounds it. mx2 <= x2*wd:
     * w * x2 >= mux^2 (Cauchy-Schwarz; w^2 times the variance) and rounding
     * keeps that order. */
    const softfp_u64 mx2 = softfp_round_int53(m.mux * m.mux);
    const softfp_u64 mxy = softfp_round_int53(m.mux * m.muy);
    const softfp_u64 my2 = softfp_round_int53(m.muy * m.muy);
    const softfp_u64 x2w = softfp_round_int53(m.x2 * m.w);
    const softfp_u64 xyw = softfp_round_int53(m.xy * m.w);
    const softfp_u64 y2w = softfp_round_int53(m.y2 * m.w);
    a = softfp_add_int(mxy, 1, c1);
    const int cov_neg = xyw < mxy;
    b = softfp_add_int_signed(softfp_round_int53(cov_neg ? mxy - xyw : xyw - mxy), 1, cov_neg, c2);
    const softfp_u64 sum2 = mx2 + my2;
    const softfp_scaled sq = softfp_round_int65(sum2 < mx2 ? 1 : 0, sum2);
    c = softfp_add_int(sq.i, sq.k, c1);
    const softfp_u64 t1 = softfp_round_int53(x2w - mx2);
    const softfp_u64 t2 = t1 + y2w;
    const softfp_scaled t2r = softfp_round_int65(t2 < t1 ? 1 : 0, t2);
    /* t2r - my2 >= 0 (the same order argument), exact in 65 bits. */
    const softfp_u64 t2_hi = t2r.k ? t2r.i >> 63 : 0;
    const softfp_u64 t2_lo = t2r.k ? t2r.i << 1 : t2r.i;
    const softfp_u64 t3_lo = t2_lo - my2;
    const softfp_scaled t3 = softfp_round_int65(t2_hi - (t2_lo < my2 ? 1 : 0), t3_lo);
    d = softfp_add_int(t3.i, t3.k, c2);
  }
  softfp wa;
  if (w_pow2) {
    wa = a;
    if (wa.sig != 0) wa.exp += l;
  } else {
    wa = softfp_mul(wd, a);
  }
  return softfp_div(softfp_mul(wa, b), softfp_mul(c, d));
}

/* ---- the fast path --------------------------------------------------------
 * For the windows no border truncates (w = 2^16) whose integer parts are exact
 * (the integer shortcut's bounds: mux, muy < 2^26, x2, xy, y2 < 2^36; every
 * window of a real 8- to 10-bit frame): the same roundings as softfp_term_with,
 * without a data-dependent branch, mostly in 32-bit words. Each of A, C, D is
 * one rounding of an exact integer J (below 2^54, the constant's integer part
 * included) plus the constant's fraction; B is one rounding of an exact 64-bit
 * fixed point; the products take the top of a 106-bit product; the quotient
 * comes from a reciprocal and two digits, corrected once at the end. */
/* k = 53 - top(j) for 2^32 <= j < 2^54: the shift that puts j's top bit at bit 53. */
SOFTFP_FN softfp_u32 softfp_fast_shift_of(softfp_u64 j) {
  return (softfp_u32)(softfp_clz32((softfp_u32)(j >> 32)) - 10);
}

/* j + frac2 / 2^(f+1) rounded, for an integer j with 2^(52-f) <= j < 2^54 and
 * j >= 2^32 (it holds the constant's integer part) and even frac2 < 2^(f+1),
 * 1 <= f <= 20: A, C and D. With k = 53 - top(j), in [0, f+1], x = j * 2^k plus
 * the fraction's top k bits is floor(value * 2^k), 54 bits; the fraction's other
 * s = f+1-k bits (s in [0, 21]) decide the sticky bit. */
SOFTFP_FN softfp softfp_fast_integer_plus_fraction(softfp_u64 j, softfp_u32 frac2, softfp_i32 f) {
  const softfp_u32 k = softfp_fast_shift_of(j);
  const softfp_u32 s = (softfp_u32)(f + 1) - k;
  const softfp_u64 x = softfp_shl64_below32(j, k) | (softfp_u64)(frac2 >> s);
  const softfp_u32 sticky = (frac2 & ((1u << s) - 1)) != 0;
  return softfp_fast_round54(x, sticky, -(softfp_i32)k, SOFTFP_PATH_FAST_SUM_UP);
}

/* The same rounding with the constant fraction's part precomputed: for
 * k = 53 - top(j) >= 2 (j below 2^52) the rounded significand is
 * j * 2^(k-1) + G(k), where G(k) = round_half_even(frac * 2^(k-1)) (frac = frac2 /
 * 2^(f+1)) depends on k alone: j * 2^(k-1) is even, so a tie goes the way of
 * G's own parity. A device keeps G(2..f+1) in a table and saves the rounding's
 * bit work; softfp_fast_addend computes the entries. */
SOFTFP_FN softfp_u32 softfp_fast_addend(softfp_u32 frac2, softfp_i32 f, softfp_u32 k) {
  const softfp_u32 s = (softfp_u32)(f + 2) - k; /* frac * 2^(k-1) = frac2 / 2^s, s in [1, f] */
  const softfp_u32 whole = frac2 >> s;
  const softfp_u32 rest = frac2 & ((1u << s) - 1),
                   halfway = 1u << (s - 1); /* not `half`: an OpenCL type */
  return whole + (rest > halfway || (rest == halfway && (whole & 1)) ? 1u : 0u);
}

/* j + frac2 / 2^(f+1) rounded, from k = softfp_fast_shift_of(j) >= 2 and
 * addend = softfp_fast_addend(frac2, f, k): the value of
 * softfp_fast_integer_plus_fraction, but with a significand in [2^52, 2^53]:
 * a rounding that carries leaves 2^53 (unnormalised), which softfp_fast_mul
 * takes as it is and softfp_fast_normalize turns into a normal softfp. */
SOFTFP_FN softfp softfp_fast_integer_plus_addend(softfp_u64 j, softfp_u32 k, softfp_u32 addend) {
  return softfp_make((j << (k - 1)) + addend, 1 - (softfp_i32)k, 0);
}

/* softfp_fast_addend for every k in [2, 21] (every j >= 2^32 below 2^52): where
 * k > f + 1 the fraction times 2^(k-1) is an integer, so exact. frac2 may be
 * 2^(f+1) (the complement of a zero fraction; see softfp_fast_signed_plus_fraction). */
SOFTFP_FN softfp_u32 softfp_fast_addend_wide(softfp_u32 frac2, softfp_i32 f, softfp_u32 k) {
  return k <= (softfp_u32)(f + 1) ? softfp_fast_addend(frac2, f, k)
                                  : frac2 << (k - (softfp_u32)f - 2);
}

/* B's table form: jb + frac2 / 2^(f+1) rounded, for a signed integer jb (2 cov
 * plus c2's integer part) with 2^32 <= j < 2^52, where j = jb for jb >= 0 and
 * j = ~jb = |jb| - 1 below: then |B| = j + (1 - frac), the complement's addend
 * (2^(f+1) - frac2) doing for a negative B what frac2's does for a positive one.
 * The significand lies in [2^52, 2^53] as softfp_fast_integer_plus_addend's. */
SOFTFP_FN softfp softfp_fast_signed_plus_fraction(softfp_u64 jb, softfp_u32 frac2, softfp_i32 f) {
  const softfp_u64 mask = (softfp_u64)((softfp_i64)jb >> 63);
  const softfp_u64 j = jb ^ mask;
  const softfp_u32 k = softfp_fast_shift_of(j);
  const softfp_u32 addend =
      softfp_fast_addend_wide(mask ? ((softfp_u32)2 << f) - frac2 : frac2, f, k);
  softfp r = softfp_fast_integer_plus_addend(j, k, addend);
  r.neg = (softfp_i32)(mask & 1);
  return r;
}
/* Whether softfp_term_fast applies: the constants allow it (see
 * softfp_term_constants_of), w = 2^16, the integer shortcut's bounds, D's
 * integer part not negative (Cauchy-Schwarz for any real window) and
 * |w * xy - mux * muy| below cov_limit (about 2^47 at 8 bits, 2^51 at 10 bits:
 * a real window's |cov| is at most w^2 (M / 2)^2, below both). */
SOFTFP_FN int softfp_term_fast_applies(softfp_moments m, softfp_term_constants k) {
  /* Every part computed without a branch, as softfp_term_fast computes it, so
   * that a compiler that inlines both forms each once. */
  const softfp_u32 mux = (softfp_u32)m.mux, muy = (softfp_u32)m.muy;
  const softfp_u64 mxy = (softfp_u64)mux * muy;
  const softfp_u64 cov = (m.xy << 16) - mxy;
  const softfp_u64 cov_abs = (softfp_i64)cov < 0 ? ~cov + 1 : cov;
  const softfp_u64 dint =
      (m.x2 << 16) - (softfp_u64)mux * mux + (m.y2 << 16) - (softfp_u64)muy * muy;
  return k.fast & (m.w == 65536) & ((m.mux | m.muy) < ((softfp_u64)1 << 26)) &
         ((m.x2 | m.xy | m.y2) < ((softfp_u64)1 << 36)) & ((softfp_i64)dint >= 0) &
         (cov_abs < k.cov_limit);
}

/* The fast term in parts, so that a device may round A, B, C and D its own
 * way (softfp_fast_integer_plus_addend, softfp_fast_signed_plus_fraction)
 * around the same integers, products and quotient. The integer parts as
 * multiply-adds (2 muy < 2^27): A's and C's with c1's integer part, D's from
 * C's (mx2 + my2 = jc - c1_int), and B's from A's (2 mxy = ja - c1_int); every
 * value is exact modulo 2^64 and in range (softfp_term_fast_applies). */
typedef struct softfp_fast_integers {
  softfp_u64 ja, jc, jd; /* the integer parts of A, C, D, each constant's included */
  softfp_u64 jb;         /* 2 (w xy - mux muy) + c2's integer part, two's complement */
} softfp_fast_integers;

SOFTFP_FN softfp_fast_integers softfp_fast_integers_of(softfp_moments m, softfp_term_constants k) {
  const softfp_u32 mux = (softfp_u32)m.mux, muy = (softfp_u32)m.muy; /* < 2^26 */
  softfp_fast_integers r;
  r.ja = (softfp_u64)mux * (muy << 1) + k.c1_int;
  r.jc = (softfp_u64)muy * muy + ((softfp_u64)mux * mux + k.c1_int);
  r.jd = (((m.x2 + m.y2) << 16) + (k.c1_int + k.c2_int)) - r.jc;
  r.jb = ((m.xy << 17) + (k.c1_int + k.c2_int)) - r.ja;
  return r;
}

/* B = (jb * 2^f2 + c2's fraction bits) / 2^f2, exact in a signed 64-bit
 * integer (|cov| < cov_limit), never 0 (softfp_term_constants_of, softfp_term_fast_weight_applies).
 */
SOFTFP_FN softfp softfp_fast_b(softfp_u64 jb, softfp_term_constants k) {
  const softfp_u64 fraction = k.c2_frac2 >> 1;
  const softfp_i64 bn = (softfp_i64)((jb << k.c2_frac_bits) + fraction);
  const softfp_u64 b_sign = (softfp_u64)(bn >> 63); /* all ones when negative */
  return softfp_fast_fixed_point(((softfp_u64)bn ^ b_sign) - b_sign, k.c2_frac_bits,
                                 (softfp_i32)(b_sign & 1));
}

/* ((w A) B) / (C D) with w = 2^16. */
SOFTFP_FN softfp softfp_fast_quotient(softfp a, softfp b, softfp c, softfp d) {
  a.exp += 16;
  return softfp_fast_div(softfp_fast_mul(a, b), softfp_fast_mul(c, d));
}

/* A, B, C and D rounded from their integer parts and the constants' fractions. */
typedef struct softfp_fast_parts {
  softfp a, b, c, d;
} softfp_fast_parts;

SOFTFP_FN softfp_fast_parts softfp_fast_parts_of(softfp_fast_integers j, softfp_term_constants k) {
  softfp_fast_parts p;
  p.a = softfp_fast_integer_plus_fraction(j.ja, k.c1_frac2, k.c1_frac_bits);
  p.c = softfp_fast_integer_plus_fraction(j.jc, k.c1_frac2, k.c1_frac_bits);
  p.d = softfp_fast_integer_plus_fraction(j.jd, k.c2_frac2, k.c2_frac_bits);
  p.b = softfp_fast_b(j.jb, k);
  return p;
}

/* The term where softfp_term_fast_applies(m, k): the same bits as
 * softfp_term_with. Every integer part is exact (as in the integer shortcut),
 * c1 = mm_k1 * 2^32 and c2 = mm_k2 * 2^32 exactly, and wd * A = A * 2^16. */
SOFTFP_FN softfp softfp_term_fast(softfp_moments m, softfp_term_constants k) {
  SOFTFP_PATH(SOFTFP_PATH_TERM_FAST);
  const softfp_fast_parts p = softfp_fast_parts_of(softfp_fast_integers_of(m, k), k);
  return softfp_fast_quotient(p.a, p.b, p.c, p.d);
}

/* ---- the fast path for truncated windows -----------------------------------
 * A window a border truncates (w < 2^16, not a power of two in general) has
 * c1 = (mm_k1 * wd) * wd and c2 likewise, two rounded products each, which
 * depend on w alone; once they are formed (softfp_weight_constants), the term is
 * softfp_term_fast's sequence with w's products in place of its shifts and one
 * rounded product w * A in place of A's exponent moving by 16. */

/* The fast path's constants at weight w (1 <= w < 2^53): c1 and c2 formed as
 * binary64 forms them (softfp_fast_mul, exact for normal operands). */
SOFTFP_FN softfp_term_constants softfp_weight_constants(softfp_term_constants k, softfp_u64 w) {
  const softfp wd = softfp_from_u53(w);
  return softfp_fast_constants_of(k.mm_k1, k.mm_k2,
                                  softfp_fast_mul(softfp_fast_mul(k.mm_k1, wd), wd),
                                  softfp_fast_mul(softfp_fast_mul(k.mm_k2, wd), wd));
}

/* The integer shortcut's bounds (softfp_term_integer_shortcut_applies) with
 * room for softfp_fast_integers_of_weight's sums: every integer part exact and
 * below 2^54, products of w below 2^64. Checked before the constants are formed. */
SOFTFP_FN int softfp_term_fast_weight_moments(softfp_moments m) {
  const softfp_u64 limit = (softfp_u64)1 << 52;
  return m.w != 0 && m.w < ((softfp_u64)1 << 16) && m.mux < ((softfp_u64)1 << 26) &&
         m.muy < ((softfp_u64)1 << 26) && m.x2 < limit && m.xy < limit && m.y2 < limit &&
         m.x2 * m.w < limit && m.xy * m.w < limit && m.y2 * m.w < limit;
}

/* softfp_fast_integers_of at any weight w: x2, xy and y2 times w, not shifted. */
SOFTFP_FN softfp_fast_integers softfp_fast_integers_of_weight(softfp_moments m,
                                                              softfp_term_constants kw) {
  softfp_fast_integers r;
  const softfp_u64 mxy = m.mux * m.muy;
  r.ja = 2 * mxy + kw.c1_int;
  r.jc = m.mux * m.mux + m.muy * m.muy + kw.c1_int;
  r.jd = ((m.x2 + m.y2) * m.w + (kw.c1_int + kw.c2_int)) - r.jc;
  r.jb = 2 * (m.xy * m.w) + kw.c2_int - 2 * mxy;
  return r;
}

/* Whether softfp_term_fast_weight applies, with kw = softfp_weight_constants(k,
 * m.w) and softfp_term_fast_weight_moments(m): the constants allow it, D's
 * integer part is not negative, |w * xy - mux * muy| is below cov_limit (for
 * real windows both hold, as at w = 2^16), and B = jb + c2's fraction is not 0
 * (it is 0 only where c2 is an even integer and jb = 0). */
SOFTFP_FN int softfp_term_fast_weight_applies(softfp_moments m, softfp_term_constants kw) {
  const softfp_u64 mxy = m.mux * m.muy;
  const softfp_u64 cov = m.xy * m.w - mxy;
  const softfp_u64 cov_abs = (softfp_i64)cov < 0 ? ~cov + 1 : cov;
  const softfp_u64 dint = (m.x2 + m.y2) * m.w - (m.mux * m.mux + m.muy * m.muy);
  return kw.fast && (softfp_i64)dint >= 0 && cov_abs < kw.cov_limit &&
         (2 * cov + kw.c2_int != 0 || kw.c2_frac2 != 0);
}

/* The term of a truncated window where softfp_term_fast_weight_applies: the
 * same bits as softfp_term_with. */
SOFTFP_FN softfp softfp_term_fast_weight(softfp_moments m, softfp_term_constants kw) {
  SOFTFP_PATH(SOFTFP_PATH_TERM_FAST_WEIGHT);
  const softfp_fast_parts p = softfp_fast_parts_of(softfp_fast_integers_of_weight(m, kw), kw);
  const softfp wa = softfp_fast_mul(softfp_from_u53(m.w), p.a);
  return softfp_fast_div(softfp_fast_mul(wa, p.b), softfp_fast_mul(p.c, p.d));
}

/* The term of a window softfp_term_fast does not take (a truncated window, or
 * a depth or moments beyond its bounds): the truncated windows' fast path where
 * it applies, softfp_term_with elsewhere. */
SOFTFP_FN softfp softfp_term_beyond_fast(softfp_moments m, softfp_term_constants k) {
  if (softfp_term_fast_weight_moments(m)) {
    const softfp_term_constants kw = softfp_weight_constants(k, m.w);
    if (softfp_term_fast_weight_applies(m, kw)) return softfp_term_fast_weight(m, kw);
  }
  return softfp_term_with(m, k, softfp_term_integer_shortcut_applies(m));
}

/* The term; check softfp_is_valid() on it (false only for impossible input). */
SOFTFP_FN softfp softfp_term(softfp_moments m, softfp_term_constants k) {
  if (softfp_term_fast_applies(m, k)) return softfp_term_fast(m, k);
  return softfp_term_beyond_fast(m, k);
}

#endif /* EXACTVQ_METRICS_SSIM_SOFTFP_TERM_H */
