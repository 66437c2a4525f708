/* glibc 2.36's sin and cos (libm/sin.h, cos.h, sincos_core.h) on softfp, for
 * devices without fp64 (OpenCL): the same steps (the Taylor series below
 * 0.126, a table node and short polynomials below 0.8555, pi/2 - |x| through
 * the other kernel up to 2.4263, the reduction by pi/2 in four parts below
 * 105414350), each binary64 operation a correctly rounded softfp operation and
 * each fused one softfp_fma, so they return libm's bits for |x| < 105414350
 * (ciede: below 40; __branred's range is not needed). In the subset of
 * core/portable.h; the table is libm's own (detail::sincos_table(): 110
 * entries of four words), passed in device memory. Tested against libm:: bit
 * for bit (tests/libm/softfp_libm_test.cpp). */
#ifndef EXACTVQ_LIBM_SINCOS_SOFTFP_H
#define EXACTVQ_LIBM_SINCOS_SOFTFP_H

#include "libm/exp_softfp.h" /* exactvq_softfp_c, exactvq_softfp_negated */

/* libm/sincos_core.h's constants as bit patterns. */
#define EXACTVQ_SINCOS_NODE_SHIFT EXACTVQ_U64_C(0x42C8000000000000)
#define EXACTVQ_SINCOS_S3 EXACTVQ_U64_C(0xBFC5555555555515)
#define EXACTVQ_SINCOS_S5 EXACTVQ_U64_C(0x3F811110E829872F)
#define EXACTVQ_SINCOS_C2 EXACTVQ_U64_C(0x3FE0000000000000)
#define EXACTVQ_SINCOS_C4 EXACTVQ_U64_C(0xBFA5555555555535)
#define EXACTVQ_SINCOS_C6 EXACTVQ_U64_C(0x3F56C16BEDD9E239)
#define EXACTVQ_SINCOS_T1 EXACTVQ_U64_C(0xBFC5555555555555)
#define EXACTVQ_SINCOS_T2 EXACTVQ_U64_C(0x3F81111111110ECE)
#define EXACTVQ_SINCOS_T3 EXACTVQ_U64_C(0xBF2A01A019DB08B8)
#define EXACTVQ_SINCOS_T4 EXACTVQ_U64_C(0x3EC71DE27B9A7ED9)
#define EXACTVQ_SINCOS_T5 EXACTVQ_U64_C(0xBE5ADDFFC2FCDF59)
#define EXACTVQ_SINCOS_TWO_OVER_PI EXACTVQ_U64_C(0x3FE45F306DC9C883)
#define EXACTVQ_SINCOS_TO_INT EXACTVQ_U64_C(0x4338000000000000)
#define EXACTVQ_SINCOS_HALF_PI1 EXACTVQ_U64_C(0x3FF921FB58000000)
#define EXACTVQ_SINCOS_HALF_PI2 EXACTVQ_U64_C(0xBE4DDE973C000000)
#define EXACTVQ_SINCOS_HALF_PI3 EXACTVQ_U64_C(0xBC8CB3B398000000)
#define EXACTVQ_SINCOS_HALF_PI4 EXACTVQ_U64_C(0xBACD747F23E32ED7)
#define EXACTVQ_SINCOS_HALF_PI EXACTVQ_U64_C(0x3FF921FB54442D18)
#define EXACTVQ_SINCOS_HALF_PI_LO EXACTVQ_U64_C(0x3C91A62633145C07)
#define EXACTVQ_SINCOS_SMALL EXACTVQ_U64_C(0x3FC020C49BA5E354) /* 0.126 */

SOFTFP_FN softfp exactvq_softfp_abs(softfp a) {
  a.neg = 0;
  return a;
}

/* x with y's sign. */
SOFTFP_FN softfp exactvq_softfp_with_sign_of(softfp x, softfp y) {
  x.neg = y.neg;
  return x;
}

/* The table node nearest abs_x: its index, and abs_x less the node. */
SOFTFP_FN softfp_i32 exactvq_softfp_nearest_node(softfp abs_x, softfp* offset) {
  const softfp shift = exactvq_softfp_c(EXACTVQ_SINCOS_NODE_SHIFT);
  const softfp u = softfp_add(abs_x, shift);
  *offset = softfp_sub(abs_x, softfp_sub(u, shift));
  return (softfp_i32)(softfp_u32)softfp_to_bits(u);
}

/* sin(x + dx) for |x| < 0.8555 (|dx| tiny); its sign follows x. */
EXACTVQ_SOFTFP_CALL_FN softfp exactvq_softfp_sin_kernel(softfp x, softfp dx,
                                                        const EXACTVQ_GLOBAL exactvq_u64* table) {
  const softfp x_in = x;
  if (softfp_magnitude_less(x, exactvq_softfp_c(EXACTVQ_SINCOS_SMALL))) {
    const softfp xx = softfp_mul(x, x);
    softfp p =
        softfp_fma(xx, exactvq_softfp_c(EXACTVQ_SINCOS_T5), exactvq_softfp_c(EXACTVQ_SINCOS_T4));
    p = softfp_fma(xx, p, exactvq_softfp_c(EXACTVQ_SINCOS_T3));
    p = softfp_fma(xx, p, exactvq_softfp_c(EXACTVQ_SINCOS_T2));
    p = softfp_fma(xx, p, exactvq_softfp_c(EXACTVQ_SINCOS_T1));
    const softfp half_dx = softfp_mul(exactvq_softfp_c(EXACTVQ_SINCOS_C2), dx);
    const softfp t1 = softfp_fma(p, x, exactvq_softfp_negated(half_dx));
    const softfp t = softfp_fma(xx, t1, dx);
    return softfp_add(x, t);
  }
  if (!softfp_less(softfp_make(0, 0, 0), x)) dx = exactvq_softfp_negated(dx); /* x <= 0 */
  softfp offset;
  const softfp_i32 node = exactvq_softfp_nearest_node(exactvq_softfp_abs(x), &offset);
  const softfp sin_hi = exactvq_softfp_c(table[4 * node]);
  const softfp sin_lo = exactvq_softfp_c(table[4 * node + 1]);
  const softfp cos_hi = exactvq_softfp_c(table[4 * node + 2]);
  const softfp cos_lo = exactvq_softfp_c(table[4 * node + 3]);
  const softfp xx = softfp_mul(offset, offset);
  const softfp s_poly =
      softfp_fma(xx, exactvq_softfp_c(EXACTVQ_SINCOS_S5), exactvq_softfp_c(EXACTVQ_SINCOS_S3));
  const softfp s = softfp_add(offset, softfp_fma(softfp_mul(offset, xx), s_poly, dx));
  softfp c_poly =
      softfp_fma(xx, exactvq_softfp_c(EXACTVQ_SINCOS_C6), exactvq_softfp_c(EXACTVQ_SINCOS_C4));
  c_poly = softfp_fma(xx, c_poly, exactvq_softfp_c(EXACTVQ_SINCOS_C2));
  const softfp c = softfp_fma(offset, dx, softfp_mul(xx, c_poly));
  softfp cor = softfp_fma(s, cos_lo, sin_lo);
  cor = softfp_fma(exactvq_softfp_negated(c), sin_hi, cor);
  cor = softfp_fma(s, cos_hi, cor);
  return exactvq_softfp_with_sign_of(softfp_add(sin_hi, cor), x_in);
}

/* cos(x + dx) for |x| < 0.8555 (|dx| tiny). */
EXACTVQ_SOFTFP_CALL_FN softfp exactvq_softfp_cos_kernel(softfp x, softfp dx,
                                                        const EXACTVQ_GLOBAL exactvq_u64* table) {
  if (softfp_less(x, softfp_make(0, 0, 0))) dx = exactvq_softfp_negated(dx);
  softfp offset;
  const softfp_i32 node = exactvq_softfp_nearest_node(exactvq_softfp_abs(x), &offset);
  offset = softfp_add(offset, dx);
  const softfp sin_hi = exactvq_softfp_c(table[4 * node]);
  const softfp sin_lo = exactvq_softfp_c(table[4 * node + 1]);
  const softfp cos_hi = exactvq_softfp_c(table[4 * node + 2]);
  const softfp cos_lo = exactvq_softfp_c(table[4 * node + 3]);
  const softfp xx = softfp_mul(offset, offset);
  const softfp s_poly =
      softfp_fma(xx, exactvq_softfp_c(EXACTVQ_SINCOS_S5), exactvq_softfp_c(EXACTVQ_SINCOS_S3));
  const softfp s = softfp_fma(softfp_mul(offset, xx), s_poly, offset);
  softfp c_poly =
      softfp_fma(xx, exactvq_softfp_c(EXACTVQ_SINCOS_C6), exactvq_softfp_c(EXACTVQ_SINCOS_C4));
  c_poly = softfp_fma(xx, c_poly, exactvq_softfp_c(EXACTVQ_SINCOS_C2));
  const softfp c = softfp_mul(xx, c_poly);
  softfp cor = softfp_fma(exactvq_softfp_negated(s), sin_lo, cos_lo);
  cor = softfp_fma(exactvq_softfp_negated(c), cos_hi, cor);
  cor = softfp_fma(exactvq_softfp_negated(s), sin_hi, cor);
  return softfp_add(cos_hi, cor);
}

/* x = n pi/2 + (a + da), returning n mod 4, for |x| < 105414350. */
EXACTVQ_SOFTFP_CALL_FN softfp_i32 exactvq_softfp_reduce_by_half_pi(softfp x, softfp* a,
                                                                   softfp* da) {
  const softfp to_int = exactvq_softfp_c(EXACTVQ_SINCOS_TO_INT);
  const softfp t = softfp_fma(x, exactvq_softfp_c(EXACTVQ_SINCOS_TWO_OVER_PI), to_int);
  const softfp xn = softfp_sub(t, to_int);
  const softfp_i32 n = (softfp_i32)((softfp_u32)softfp_to_bits(t) & 3);
  const softfp minus_xn = exactvq_softfp_negated(xn);
  const softfp hp3 = exactvq_softfp_c(EXACTVQ_SINCOS_HALF_PI3);
  const softfp hp4 = exactvq_softfp_c(EXACTVQ_SINCOS_HALF_PI4);
  softfp y = softfp_fma(minus_xn, exactvq_softfp_c(EXACTVQ_SINCOS_HALF_PI1), x);
  y = softfp_fma(minus_xn, exactvq_softfp_c(EXACTVQ_SINCOS_HALF_PI2), y);
  const softfp t2 = softfp_fma(minus_xn, hp3, y);
  softfp db = softfp_fma(exactvq_softfp_negated(hp3), xn, softfp_sub(y, t2));
  const softfp b = softfp_fma(minus_xn, hp4, t2);
  db = softfp_add(db, softfp_fma(minus_xn, hp4, softfp_sub(t2, b)));
  *a = b;
  *da = db;
  return n;
}

/* sin (n even) or cos (n odd) of a + da, negated for quadrants 2 and 3. */
SOFTFP_FN softfp exactvq_softfp_sin_cos_in_quadrant(softfp a, softfp da, softfp_i32 n,
                                                    const EXACTVQ_GLOBAL exactvq_u64* table) {
  const softfp v = (n & 1) != 0 ? exactvq_softfp_cos_kernel(a, da, table)
                                : exactvq_softfp_sin_kernel(a, da, table);
  return (n & 2) != 0 ? exactvq_softfp_negated(v) : v;
}

/* |x|'s high word, as glibc's branches read it. */
SOFTFP_FN softfp_u32 exactvq_softfp_high_word(softfp x) {
  return (softfp_u32)(softfp_to_bits(x) >> 32) & 0x7FFFFFFFu;
}

/* sin(x) for |x| < 105414350. */
EXACTVQ_SOFTFP_CALL_FN softfp softfp_sin(softfp x, const EXACTVQ_GLOBAL exactvq_u64* table) {
  const softfp_u32 k = exactvq_softfp_high_word(x);
  const softfp zero = softfp_make(0, 0, 0);
  if (k < 0x3E500000u) return x; /* |x| < 2^-26 */
  if (k < 0x3FEB6000u) return exactvq_softfp_sin_kernel(x, zero, table);
  if (k < 0x400368FDu) {
    const softfp t = softfp_sub(exactvq_softfp_c(EXACTVQ_SINCOS_HALF_PI), exactvq_softfp_abs(x));
    return exactvq_softfp_with_sign_of(
        exactvq_softfp_cos_kernel(t, exactvq_softfp_c(EXACTVQ_SINCOS_HALF_PI_LO), table), x);
  }
  softfp a, da;
  const softfp_i32 n = exactvq_softfp_reduce_by_half_pi(x, &a, &da);
  return exactvq_softfp_sin_cos_in_quadrant(a, da, n, table);
}

/* cos(x) for |x| < 105414350. */
EXACTVQ_SOFTFP_CALL_FN softfp softfp_cos(softfp x, const EXACTVQ_GLOBAL exactvq_u64* table) {
  const softfp_u32 k = exactvq_softfp_high_word(x);
  if (k < 0x3E400000u) return exactvq_softfp_c(EXACTVQ_SOFTFP_ONE); /* |x| < 2^-27 */
  if (k < 0x3FEB6000u) return exactvq_softfp_cos_kernel(x, softfp_make(0, 0, 0), table);
  if (k < 0x400368FDu) {
    const softfp hp_lo = exactvq_softfp_c(EXACTVQ_SINCOS_HALF_PI_LO);
    const softfp y = softfp_sub(exactvq_softfp_c(EXACTVQ_SINCOS_HALF_PI), exactvq_softfp_abs(x));
    const softfp a = softfp_add(y, hp_lo);
    const softfp da = softfp_add(softfp_sub(y, a), hp_lo);
    return exactvq_softfp_sin_kernel(a, da, table);
  }
  softfp a, da;
  const softfp_i32 n = exactvq_softfp_reduce_by_half_pi(x, &a, &da);
  return exactvq_softfp_sin_cos_in_quadrant(a, da, n + 1, table);
}

#endif /* EXACTVQ_LIBM_SINCOS_SOFTFP_H */
