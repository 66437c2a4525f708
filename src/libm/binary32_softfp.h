/* binary32 on softfp, for the float steps of a definition on a device whose
 * float arithmetic may not be IEEE's (OpenCL 1.2 allows 2.5 ulp for a float
 * division and may flush subnormals): a float operation is the binary64
 * operation on the widened operands, rounded once to float, which is the
 * correctly rounded float result for +, -, * and / (binary64's 53 bits are at
 * least 2 * 24 + 2, so the double rounding is innocuous), and the rounding to
 * float here covers subnormal floats and zero. Floats travel as their bit
 * patterns (softfp_u32); infinities and NaN are not modelled. In the subset of
 * core/portable.h. Tested against the host's float arithmetic
 * (tests/libm/softfp_libm_test.cpp). */
#ifndef EXACTVQ_LIBM_BINARY32_SOFTFP_H
#define EXACTVQ_LIBM_BINARY32_SOFTFP_H

#include "softfp/softfp.h"
#include "softfp/softfp_sqrt.h" /* softfp_from_f32_bits */

#ifndef EXACTVQ_SOFTFP_CALL_FN
#if defined(__CUDACC__)
#define EXACTVQ_SOFTFP_CALL_FN static __host__ __device__ __noinline__ __attribute__((unused))
#else
#define EXACTVQ_SOFTFP_CALL_FN SOFTFP_FN
#endif
#endif

/* x rounded to binary32, nearest even, as its bit pattern: zero, subnormal or
 * normal (x below 2^128 in magnitude once rounded). */
EXACTVQ_SOFTFP_CALL_FN softfp_u32 exactvq_softfp_to_f32(softfp x) {
  const softfp_u32 sign_bit = (softfp_u32)x.neg << 31;
  if (x.sig == 0) return sign_bit;
  const softfp_i32 e = x.exp + 52; /* 2^e <= |x| < 2^(e + 1) */
  /* Bits of sig dropped: 29 for a normal float, more below 2^-126. */
  const softfp_i32 drop = e >= -126 ? 29 : 29 + (-126 - e);
  if (drop > 54) return sign_bit; /* |x| < 2^-150: rounds to zero */
  const softfp_u64 kept = x.sig >> drop;
  const softfp_u64 rest = x.sig & ((SOFTFP_U64_C(1) << drop) - 1);
  const softfp_u64 halfway = SOFTFP_U64_C(1) << (drop - 1);
  softfp_u64 q = kept;
  if (rest > halfway || (rest == halfway && (kept & 1))) q += 1;
  if (e < -126) return sign_bit | (softfp_u32)q; /* a subnormal, or 2^-126 after a carry */
  /* q in [2^23, 2^24]; a carry to 2^24 moves to the next binade. */
  softfp_i32 biased = e + 127;
  if (q == (SOFTFP_U64_C(1) << 24)) {
    q >>= 1;
    biased += 1;
  }
  return sign_bit | ((softfp_u32)biased << 23) | ((softfp_u32)q & 0x7FFFFFu);
}

SOFTFP_FN softfp exactvq_softfp_of_f32(softfp_u32 bits) { return softfp_from_f32_bits(bits); }

/* Float a + b, a - b, a * b, a / b (b not zero), correctly rounded. */
EXACTVQ_SOFTFP_CALL_FN softfp_u32 exactvq_f32_add(softfp_u32 a, softfp_u32 b) {
  return exactvq_softfp_to_f32(softfp_add(softfp_from_f32_bits(a), softfp_from_f32_bits(b)));
}
EXACTVQ_SOFTFP_CALL_FN softfp_u32 exactvq_f32_sub(softfp_u32 a, softfp_u32 b) {
  return exactvq_softfp_to_f32(softfp_sub(softfp_from_f32_bits(a), softfp_from_f32_bits(b)));
}
EXACTVQ_SOFTFP_CALL_FN softfp_u32 exactvq_f32_mul(softfp_u32 a, softfp_u32 b) {
  return exactvq_softfp_to_f32(softfp_mul(softfp_from_f32_bits(a), softfp_from_f32_bits(b)));
}
EXACTVQ_SOFTFP_CALL_FN softfp_u32 exactvq_f32_div(softfp_u32 a, softfp_u32 b) {
  return exactvq_softfp_to_f32(softfp_div(softfp_from_f32_bits(a), softfp_from_f32_bits(b)));
}

#endif /* EXACTVQ_LIBM_BINARY32_SOFTFP_H */
