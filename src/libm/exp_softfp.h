/* glibc 2.36's exp and pow's exp of a double-double (libm/exp.h, libm/pow.h)
 * on softfp, for devices without fp64 (OpenCL): the same steps, each binary64
 * operation a correctly rounded softfp operation and each fused one softfp_fma,
 * so they return libm's bits where the operands keep to the domain below (the
 * domain ciede gives them, docs/spec/ciede.md). In the subset of
 * core/portable.h. The table is libm's own (detail::exp_table(), 256 words),
 * passed in device memory. Tested against libm:: bit for bit
 * (tests/libm/softfp_libm_test.cpp). */
#ifndef EXACTVQ_LIBM_EXP_SOFTFP_H
#define EXACTVQ_LIBM_EXP_SOFTFP_H

#include "softfp/softfp.h"
#include "softfp/softfp_call.h"
#include "softfp/softfp_fma.h"

/* libm/exp_core.h's constants as bit patterns. */
#define EXACTVQ_EXP_INV_LN2_N EXACTVQ_U64_C(0x40671547652B82FE)
#define EXACTVQ_EXP_NEG_LN2_HI_N EXACTVQ_U64_C(0xBF762E42FEFA0000)
#define EXACTVQ_EXP_NEG_LN2_LO_N EXACTVQ_U64_C(0xBD0CF79ABC9E3B3A)
#define EXACTVQ_EXP_SHIFT EXACTVQ_U64_C(0x4338000000000000)
#define EXACTVQ_EXP_C2 EXACTVQ_U64_C(0x3FDFFFFFFFFFFDBD)
#define EXACTVQ_EXP_C3 EXACTVQ_U64_C(0x3FC555555555543C)
#define EXACTVQ_EXP_C4 EXACTVQ_U64_C(0x3FA55555CF172B91)
#define EXACTVQ_EXP_C5 EXACTVQ_U64_C(0x3F81111167A4D017)
#define EXACTVQ_SOFTFP_ONE EXACTVQ_U64_C(0x3FF0000000000000)

SOFTFP_FN softfp exactvq_softfp_negated(softfp a) {
  a.neg ^= 1;
  return a;
}

SOFTFP_FN softfp exactvq_softfp_c(softfp_u64 bits) { return softfp_from_bits(bits); }

/* The top 12 bits (sign and biased exponent) of x's binary64 pattern. */
SOFTFP_FN softfp_u32 exactvq_softfp_top12(softfp x) {
  return (softfp_u32)(softfp_to_bits(x) >> 52);
}

/* sign * exp(x + xtail) for 2^-54 <= |x| < 512 (glibc's main path; sign_bias
 * 0 or the sign bit >> 45), with the result a normal binary64 number: the
 * reduction x = k ln2/128 + r, the table's 2^(k/128), a degree-5 polynomial,
 * scale + scale * tmp in one fma. */
EXACTVQ_SOFTFP_CALL_FN softfp exactvq_softfp_exp_main(softfp x, softfp xtail, softfp_u64 sign_bias,
                                                      const EXACTVQ_GLOBAL exactvq_u64* table) {
  const softfp shift = exactvq_softfp_c(EXACTVQ_EXP_SHIFT);
  softfp kd = softfp_fma(x, exactvq_softfp_c(EXACTVQ_EXP_INV_LN2_N), shift);
  const softfp_u64 ki = softfp_to_bits(kd);
  kd = softfp_sub(kd, shift);
  softfp r = softfp_fma(kd, exactvq_softfp_c(EXACTVQ_EXP_NEG_LN2_HI_N), x);
  r = softfp_fma(kd, exactvq_softfp_c(EXACTVQ_EXP_NEG_LN2_LO_N), r);
  r = softfp_add(xtail, r);
  const softfp_u64 index = 2 * (ki % 128);
  const softfp_u64 top = (ki + sign_bias) << 45;
  const softfp tail = exactvq_softfp_c(table[index]);
  const softfp_u64 sbits = table[index + 1] + top;
  const softfp c23 =
      softfp_fma(r, exactvq_softfp_c(EXACTVQ_EXP_C3), exactvq_softfp_c(EXACTVQ_EXP_C2));
  const softfp tail_r = softfp_add(r, tail);
  const softfp r2 = softfp_mul(r, r);
  const softfp c45 =
      softfp_fma(r, exactvq_softfp_c(EXACTVQ_EXP_C5), exactvq_softfp_c(EXACTVQ_EXP_C4));
  const softfp low = softfp_fma(c23, r2, tail_r);
  const softfp r4 = softfp_mul(r2, r2);
  const softfp tmp = softfp_fma(r4, c45, low);
  const softfp scale = exactvq_softfp_c(sbits);
  return softfp_fma(scale, tmp, scale);
}

/* exp(x) for |x| < 512 (glibc rescales beyond; ciede: -d^2 in [-320, 0]).
 * exp's xtail is absent: adding +0 to r changes nothing (r = -0 only for
 * x = -0, which the first branch answers). */
EXACTVQ_SOFTFP_CALL_FN softfp softfp_exp(softfp x, const EXACTVQ_GLOBAL exactvq_u64* table) {
  const softfp_u32 abstop = exactvq_softfp_top12(x) & 0x7FF;
  if (abstop < 0x3C9) /* |x| < 2^-54 */
    return softfp_add(exactvq_softfp_c(EXACTVQ_SOFTFP_ONE), x);
  return exactvq_softfp_exp_main(x, softfp_make(0, 0, 0), 0, table);
}

#endif /* EXACTVQ_LIBM_EXP_SOFTFP_H */
