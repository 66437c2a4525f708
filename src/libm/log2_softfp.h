/* glibc 2.36's log2 on softfp, for devices without fp64 (OpenCL, CUDA under
 * fp64=emulate): the same text as the native one (libm/log2_steps.h), each
 * binary64 operation a correctly rounded softfp operation and each fused one
 * softfp_fma, so it returns glibc's bits wherever softfp can hold the result.
 * Operands: positive numbers in binary64's range (normal or subnormal);
 * zero, negative or out-of-range operands, whose logarithms are -inf or NaN,
 * give an invalid result (softfp_is_valid() is false). Tested against
 * libm::log2 bit for bit (tests/libm/log2_softfp_test.cpp). */
#ifndef EXACTVQ_LIBM_LOG2_SOFTFP_H
#define EXACTVQ_LIBM_LOG2_SOFTFP_H

#include "softfp/softfp.h"
#include "libm/log2_table.h"

EXACTVQ_FN softfp softfp_negate(softfp a) {
  a.neg ^= 1;
  return a;
}

#define EXACTVQ_LOG2_T softfp
#define EXACTVQ_LOG2_CONST(bits) softfp_from_bits(bits)
#define EXACTVQ_LOG2_FROM_INT(k) softfp_from_i53((softfp_i64)(k))
#define EXACTVQ_LOG2_NEG(a) softfp_negate(a)
#define EXACTVQ_LOG2_ADD(a, b) softfp_add((a), (b))
#define EXACTVQ_LOG2_SUB(a, b) softfp_sub((a), (b))
#define EXACTVQ_LOG2_MUL(a, b) softfp_mul((a), (b))
#define EXACTVQ_LOG2_FMA(a, b, c) softfp_fma((a), (b), (c))
#define EXACTVQ_LOG2_NEAR_ONE softfp_log2_near_one
#define EXACTVQ_LOG2_REDUCED softfp_log2_reduced
#include "libm/log2_steps.h"

/* log2(x). softfp_to_bits of a number below binary64's normal range gives
 * the pattern glibc forms for a subnormal (scaled by 2^52, its exponent field
 * taken down by 52 modulo 2^64): the table's reduction reads both alike. */
SOFTFP_FN softfp softfp_log2(softfp x) {
  if (x.sig == 0 || x.neg || x.sig < SOFTFP_HIDDEN || x.sig >= SOFTFP_LIMIT || x.exp > 971 ||
      x.exp < -1074 - 52)
    return softfp_make(1, SOFTFP_INVALID_EXP, 0); /* invalid */
  const softfp_u64 ix = softfp_to_bits(x);
  if (ix - EXACTVQ_LOG2_NEAR_ONE_LOW < EXACTVQ_LOG2_NEAR_ONE_HIGH - EXACTVQ_LOG2_NEAR_ONE_LOW) {
    if (ix == EXACTVQ_LOG2_ONE) return softfp_make(0, 0, 0);
    return softfp_log2_near_one(x);
  }
  return softfp_log2_reduced(ix);
}

#endif /* EXACTVQ_LIBM_LOG2_SOFTFP_H */
