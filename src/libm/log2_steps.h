/* glibc 2.36's log2 (FMA variant) as one text for every arithmetic: native
 * binary64 on the host and on CUDA (libm/log2_double.h) and softfp where a
 * device has no fp64 (libm/log2_softfp.h). Included by those, with the number
 * type and its operations defined as macros; each operation rounds once, in
 * glibc's order, and EXACTVQ_LOG2_FMA is fused wherever the FMA build fuses
 * (docs/spec/libm.md). No include guard: each instantiation includes it once
 * and the macros are undefined at the end.
 *
 * Expects: EXACTVQ_LOG2_T (the number type), EXACTVQ_LOG2_CONST(bits) (a
 * binary64 bit pattern as T), EXACTVQ_LOG2_FROM_INT(k) (an int32, exactly),
 * EXACTVQ_LOG2_ADD, _SUB, _MUL (a op b), EXACTVQ_LOG2_FMA(a, b, c) (a * b + c,
 * one rounding), EXACTVQ_LOG2_NEG(a) (-a), and the two functions' names
 * EXACTVQ_LOG2_NEAR_ONE and EXACTVQ_LOG2_REDUCED.
 */
#include "core/portable.h"
#include "libm/log2_table.h"

/* log2(x) for x in the near-one interval, x != 1: r = x - 1, r/ln 2 in two
 * parts and a degree-11 polynomial. */
EXACTVQ_FN EXACTVQ_LOG2_T EXACTVQ_LOG2_NEAR_ONE(EXACTVQ_LOG2_T x) {
  const EXACTVQ_LOG2_T r = EXACTVQ_LOG2_SUB(x, EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_ONE));
  const EXACTVQ_LOG2_T inv_hi = EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_INV_LN2_HI);
  const EXACTVQ_LOG2_T hi = EXACTVQ_LOG2_MUL(r, inv_hi);
  EXACTVQ_LOG2_T lo = EXACTVQ_LOG2_FMA(r, EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_INV_LN2_LO),
                                       EXACTVQ_LOG2_FMA(r, inv_hi, EXACTVQ_LOG2_NEG(hi)));
  const EXACTVQ_LOG2_T r2 = EXACTVQ_LOG2_MUL(r, r);
  const EXACTVQ_LOG2_T r4 = EXACTVQ_LOG2_MUL(r2, r2);
  /* The FMA build folds hi + p into fused forms: p = r2 * (Q0 + r Q1). */
  const EXACTVQ_LOG2_T q01 =
      EXACTVQ_LOG2_FMA(r, EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_Q1), EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_Q0));
  const EXACTVQ_LOG2_T y = EXACTVQ_LOG2_FMA(q01, r2, hi);
  lo = EXACTVQ_LOG2_ADD(lo, EXACTVQ_LOG2_FMA(q01, r2, EXACTVQ_LOG2_SUB(hi, y)));
  const EXACTVQ_LOG2_T q23 =
      EXACTVQ_LOG2_FMA(r, EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_Q3), EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_Q2));
  const EXACTVQ_LOG2_T q45 =
      EXACTVQ_LOG2_FMA(r, EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_Q5), EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_Q4));
  const EXACTVQ_LOG2_T q67 =
      EXACTVQ_LOG2_FMA(r, EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_Q7), EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_Q6));
  const EXACTVQ_LOG2_T q89 =
      EXACTVQ_LOG2_FMA(r, EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_Q9), EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_Q8));
  const EXACTVQ_LOG2_T upper = EXACTVQ_LOG2_FMA(q89, r2, q67);
  const EXACTVQ_LOG2_T lower = EXACTVQ_LOG2_FMA(q45, r2, q23);
  const EXACTVQ_LOG2_T tail = EXACTVQ_LOG2_FMA(upper, r4, lower);
  lo = EXACTVQ_LOG2_FMA(tail, r4, lo);
  return EXACTVQ_LOG2_ADD(y, lo);
}

/* log2(x) for the bit pattern ix of a positive x outside the near-one interval
 * (a subnormal's pattern already rescaled, its exponent field below 1):
 * x = 2^k z with z in [0x1.6p-1, 0x1.6p0), r = z/c - 1 for the table's c near
 * z, log2(x) = k + log2(c) + r/ln 2 + r^2 p(r). */
EXACTVQ_FN EXACTVQ_LOG2_T EXACTVQ_LOG2_REDUCED(exactvq_u64 ix) {
  const exactvq_u64 offset = ix - EXACTVQ_LOG2_TABLE_ORIGIN;
  const exactvq_i32 i = (exactvq_i32)((offset >> 46) % 64);
  const exactvq_i32 k = (exactvq_i32)((exactvq_i64)offset >> 52);
  const exactvq_u64 iz = ix - (offset & (EXACTVQ_U64_C(0xfff) << 52));
  const EXACTVQ_LOG2_T z = EXACTVQ_LOG2_CONST(iz);
  const EXACTVQ_LOG2_T kd = EXACTVQ_LOG2_FROM_INT(k);
  const EXACTVQ_LOG2_T inv_c = EXACTVQ_LOG2_CONST(exactvq_log2_table_bits(2 * i));
  const EXACTVQ_LOG2_T log2_c = EXACTVQ_LOG2_CONST(exactvq_log2_table_bits(2 * i + 1));
  const EXACTVQ_LOG2_T inv_hi = EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_INV_LN2_HI);

  const EXACTVQ_LOG2_T r = EXACTVQ_LOG2_FMA(z, inv_c, EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_MINUS_ONE));
  const EXACTVQ_LOG2_T t1 = EXACTVQ_LOG2_MUL(r, inv_hi);
  const EXACTVQ_LOG2_T t2 = EXACTVQ_LOG2_FMA(r, EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_INV_LN2_LO),
                                             EXACTVQ_LOG2_FMA(inv_hi, r, EXACTVQ_LOG2_NEG(t1)));
  const EXACTVQ_LOG2_T t3 = EXACTVQ_LOG2_ADD(kd, log2_c);
  const EXACTVQ_LOG2_T hi = EXACTVQ_LOG2_ADD(t1, t3);
  const EXACTVQ_LOG2_T lo = EXACTVQ_LOG2_ADD(EXACTVQ_LOG2_ADD(EXACTVQ_LOG2_SUB(t3, hi), t1), t2);

  const EXACTVQ_LOG2_T r2 = EXACTVQ_LOG2_MUL(r, r);
  const EXACTVQ_LOG2_T r4 = EXACTVQ_LOG2_MUL(r2, r2);
  const EXACTVQ_LOG2_T p01 =
      EXACTVQ_LOG2_FMA(r, EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_P1), EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_P0));
  const EXACTVQ_LOG2_T p23 =
      EXACTVQ_LOG2_FMA(r, EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_P3), EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_P2));
  const EXACTVQ_LOG2_T p45 =
      EXACTVQ_LOG2_FMA(r, EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_P5), EXACTVQ_LOG2_CONST(EXACTVQ_LOG2_P4));
  const EXACTVQ_LOG2_T p = EXACTVQ_LOG2_FMA(p45, r4, EXACTVQ_LOG2_FMA(p23, r2, p01));
  const EXACTVQ_LOG2_T y = EXACTVQ_LOG2_FMA(r2, p, lo);
  return EXACTVQ_LOG2_ADD(y, hi);
}

#undef EXACTVQ_LOG2_T
#undef EXACTVQ_LOG2_CONST
#undef EXACTVQ_LOG2_FROM_INT
#undef EXACTVQ_LOG2_ADD
#undef EXACTVQ_LOG2_SUB
#undef EXACTVQ_LOG2_MUL
#undef EXACTVQ_LOG2_FMA
#undef EXACTVQ_LOG2_NEG
#undef EXACTVQ_LOG2_NEAR_ONE
#undef EXACTVQ_LOG2_REDUCED
