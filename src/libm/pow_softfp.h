/* glibc 2.36's pow (libm/pow.h) on softfp, for devices without fp64 (OpenCL):
 * the same steps (log x as a double-double from the 128-entry table and a
 * degree-8 polynomial, times y with the product's fma error, then exp of the
 * sum, exp_softfp.h), so it returns libm::pow's bits on the domain below (the
 * one ciede gives it, docs/spec/ciede.md). In the subset of core/portable.h;
 * the tables are libm's own (detail::pow_log_table(): 128 entries of three
 * words; detail::exp_table()), passed in device memory. Tested against
 * libm::pow bit for bit (tests/libm/softfp_libm_test.cpp). */
#ifndef EXACTVQ_LIBM_POW_SOFTFP_H
#define EXACTVQ_LIBM_POW_SOFTFP_H

#include "libm/exp_softfp.h"

/* libm/pow.h's constants as bit patterns. */
#define EXACTVQ_POW_LN2_HI EXACTVQ_U64_C(0x3FE62E42FEFA3800)
#define EXACTVQ_POW_LN2_LO EXACTVQ_U64_C(0x3D2EF35793C76730)
#define EXACTVQ_POW_A0 EXACTVQ_U64_C(0xBFE0000000000000)
#define EXACTVQ_POW_A1 EXACTVQ_U64_C(0xBFE5555555555560)
#define EXACTVQ_POW_A2 EXACTVQ_U64_C(0x3FE0000000000006)
#define EXACTVQ_POW_A3 EXACTVQ_U64_C(0x3FE999999959554E)
#define EXACTVQ_POW_A4 EXACTVQ_U64_C(0xBFE555555529A47A)
#define EXACTVQ_POW_A5 EXACTVQ_U64_C(0xBFF2495B9B4845E9)
#define EXACTVQ_POW_A6 EXACTVQ_U64_C(0x3FF0002B8B263FC3)
#define EXACTVQ_POW_TABLE_ORIGIN EXACTVQ_U64_C(0x3FE6955500000000)

/* log(x) = hi + *lo for the bits ix of a normal x > 0 (pow_log_double_double). */
EXACTVQ_SOFTFP_CALL_FN softfp exactvq_softfp_pow_log(softfp_u64 ix, softfp* lo_out,
                                                     const EXACTVQ_GLOBAL exactvq_u64* log_table) {
  const softfp_u64 offset = ix - EXACTVQ_POW_TABLE_ORIGIN;
  const softfp_i32 i = (softfp_i32)((offset >> 45) % 128);
  const softfp_i32 k = (softfp_i32)((softfp_i64)offset >> 52);
  const softfp_u64 iz = ix - (offset & (SOFTFP_U64_C(0xfff) << 52));
  const softfp z = exactvq_softfp_c(iz);
  const softfp kd = softfp_from_i53((softfp_i64)k);
  const softfp inv_c = exactvq_softfp_c(log_table[3 * i]);
  const softfp log_c = exactvq_softfp_c(log_table[3 * i + 1]);
  const softfp log_c_tail = exactvq_softfp_c(log_table[3 * i + 2]);

  const softfp t1 = softfp_fma(kd, exactvq_softfp_c(EXACTVQ_POW_LN2_HI), log_c);
  const softfp lo1 = softfp_fma(kd, exactvq_softfp_c(EXACTVQ_POW_LN2_LO), log_c_tail);
  const softfp r =
      softfp_fma(z, inv_c, exactvq_softfp_negated(exactvq_softfp_c(EXACTVQ_SOFTFP_ONE)));
  const softfp ar = softfp_mul(r, exactvq_softfp_c(EXACTVQ_POW_A0));
  const softfp a12 =
      softfp_fma(r, exactvq_softfp_c(EXACTVQ_POW_A2), exactvq_softfp_c(EXACTVQ_POW_A1));
  const softfp a34 =
      softfp_fma(r, exactvq_softfp_c(EXACTVQ_POW_A4), exactvq_softfp_c(EXACTVQ_POW_A3));
  const softfp t2 = softfp_add(r, t1);
  const softfp ar2 = softfp_mul(r, ar);
  const softfp ar3 = softfp_mul(r, ar2);
  const softfp lo3 = softfp_fma(ar, r, exactvq_softfp_negated(ar2));
  const softfp lo2 = softfp_add(softfp_sub(t1, t2), r);
  const softfp a56 =
      softfp_fma(r, exactvq_softfp_c(EXACTVQ_POW_A6), exactvq_softfp_c(EXACTVQ_POW_A5));
  const softfp hi = softfp_add(t2, ar2);
  const softfp inner = softfp_fma(a56, ar2, a34);
  const softfp lo4 = softfp_add(softfp_sub(t2, hi), ar2);
  const softfp p = softfp_fma(ar2, inner, a12);
  softfp lo = softfp_add(lo1, lo2);
  lo = softfp_add(lo, lo3);
  lo = softfp_add(lo, lo4);
  lo = softfp_fma(ar3, p, lo);
  const softfp y = softfp_add(hi, lo);
  *lo_out = softfp_add(softfp_sub(hi, y), lo);
  return y;
}

/* x^y for x = +0 or a normal x > 0, and y with 2^-65 <= |y| < 2^63, where
 * |y log x| < 512 and the result is 1 or normal (ciede: x in (0.088, 2.25]
 * to 2.4, (0.0088, 7.5) to 1/3, 0 or [4e-22, 1300] to 7). +0 to a positive y
 * is +0. */
EXACTVQ_SOFTFP_CALL_FN softfp softfp_pow(softfp x, softfp y,
                                         const EXACTVQ_GLOBAL exactvq_u64* log_table,
                                         const EXACTVQ_GLOBAL exactvq_u64* exp_table) {
  if (x.sig == 0) return softfp_make(0, 0, 0);
  softfp lo;
  const softfp hi = exactvq_softfp_pow_log(softfp_to_bits(x), &lo, log_table);
  const softfp ehi = softfp_mul(y, hi);
  const softfp elo = softfp_fma(y, lo, softfp_fma(hi, y, exactvq_softfp_negated(ehi)));
  if ((exactvq_softfp_top12(ehi) & 0x7FF) < 0x3C9) /* |ehi| < 2^-54: sign * (1 + ehi) */
    return softfp_add(exactvq_softfp_c(EXACTVQ_SOFTFP_ONE), ehi);
  return exactvq_softfp_exp_main(ehi, elo, 0, exp_table);
}

#endif /* EXACTVQ_LIBM_POW_SOFTFP_H */
