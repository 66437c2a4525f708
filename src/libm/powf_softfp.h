/* glibc 2.36's powf (libm/powf.h) on softfp, for devices without fp64
 * (OpenCL): the same steps (log2 x in binary64 from the 16-entry table and a
 * degree-5 polynomial, times y, 2^(y log2 x) from the 32-entry table and a
 * cubic, rounded once to float, subnormal floats included), each binary64
 * operation a correctly rounded softfp operation and each fused one
 * softfp_fma, so it returns libm::powf's bits for x = +0 or a normal float
 * x > 0 and a finite y > 0 with y log2 x < 126 (no overflow; ciede: x in
 * [0, 1300], y = 7). Floats as bit patterns. In the subset of core/portable.h;
 * the tables are libm's own (detail::powf_log2_table(): 16 entries of two
 * words; detail::powf_exp2_table(): 32 words), passed in device memory. Tested
 * against libm::powf bit for bit (tests/libm/softfp_libm_test.cpp). */
#ifndef EXACTVQ_LIBM_POWF_SOFTFP_H
#define EXACTVQ_LIBM_POWF_SOFTFP_H

#include "libm/binary32_softfp.h"
#include "libm/exp_softfp.h" /* exactvq_softfp_c */

/* libm/powf.h's constants as bit patterns. */
#define EXACTVQ_POWF_LOG2_A0 EXACTVQ_U64_C(0x3FD27616C9496E0B)
#define EXACTVQ_POWF_LOG2_A1 EXACTVQ_U64_C(0xBFD71969A075C67A)
#define EXACTVQ_POWF_LOG2_A2 EXACTVQ_U64_C(0x3FDEC70A6CA7BADD)
#define EXACTVQ_POWF_LOG2_A3 EXACTVQ_U64_C(0xBFE7154748BEF6C8)
#define EXACTVQ_POWF_LOG2_A4 EXACTVQ_U64_C(0x3FF71547652AB82B)
#define EXACTVQ_POWF_EXP2_SHIFT EXACTVQ_U64_C(0x42E8000000000000)
#define EXACTVQ_POWF_EXP2_C0 EXACTVQ_U64_C(0x3FAC6AF84B912394)
#define EXACTVQ_POWF_EXP2_C1 EXACTVQ_U64_C(0x3FCEBFCE50FAC4F3)
#define EXACTVQ_POWF_EXP2_C2 EXACTVQ_U64_C(0x3FE62E42FF0C52D6)
#define EXACTVQ_POWF_MINUS150 EXACTVQ_U64_C(0xC062C00000000000)
#define EXACTVQ_POWF_MINUS149 EXACTVQ_U64_C(0xC062A00000000000)
#define EXACTVQ_POWF_TABLE_ORIGIN 0x3F330000u

/* log2 of the normal float whose bits are ix (powf_log2_of_bits). */
EXACTVQ_SOFTFP_CALL_FN softfp
exactvq_softfp_powf_log2(softfp_u32 ix, const EXACTVQ_GLOBAL exactvq_u64* log2_table) {
  const softfp_u32 offset = ix - EXACTVQ_POWF_TABLE_ORIGIN;
  const softfp_i32 i = (softfp_i32)((offset >> 19) % 16);
  const softfp_u32 top = offset & 0xFF800000u;
  const softfp_u32 iz = ix - top;
  const softfp_i32 k = (softfp_i32)top >> 23;
  const softfp z = softfp_from_f32_bits(iz);
  const softfp r = softfp_fma(z, exactvq_softfp_c(log2_table[2 * i]),
                              exactvq_softfp_negated(exactvq_softfp_c(EXACTVQ_SOFTFP_ONE)));
  const softfp y0 =
      softfp_add(softfp_from_i53((softfp_i64)k), exactvq_softfp_c(log2_table[2 * i + 1]));
  const softfp a01 =
      softfp_fma(r, exactvq_softfp_c(EXACTVQ_POWF_LOG2_A0), exactvq_softfp_c(EXACTVQ_POWF_LOG2_A1));
  const softfp a23 =
      softfp_fma(r, exactvq_softfp_c(EXACTVQ_POWF_LOG2_A2), exactvq_softfp_c(EXACTVQ_POWF_LOG2_A3));
  const softfp r2 = softfp_mul(r, r);
  const softfp q = softfp_fma(r, exactvq_softfp_c(EXACTVQ_POWF_LOG2_A4), y0);
  const softfp r4 = softfp_mul(r2, r2);
  const softfp low = softfp_fma(r2, a23, q);
  return softfp_fma(a01, r4, low);
}

/* 2^xd as a binary64 (powf_exp2_with_sign, sign +). */
EXACTVQ_SOFTFP_CALL_FN softfp
exactvq_softfp_powf_exp2(softfp xd, const EXACTVQ_GLOBAL exactvq_u64* exp2_table) {
  const softfp shift = exactvq_softfp_c(EXACTVQ_POWF_EXP2_SHIFT);
  softfp kd = softfp_add(xd, shift);
  const softfp_u64 ki = softfp_to_bits(kd);
  kd = softfp_sub(kd, shift);
  const softfp r = softfp_sub(xd, kd);
  const softfp s = exactvq_softfp_c(exp2_table[ki % 32] + (ki << 47));
  const softfp z =
      softfp_fma(r, exactvq_softfp_c(EXACTVQ_POWF_EXP2_C0), exactvq_softfp_c(EXACTVQ_POWF_EXP2_C1));
  const softfp r2 = softfp_mul(r, r);
  const softfp y =
      softfp_fma(r, exactvq_softfp_c(EXACTVQ_POWF_EXP2_C2), exactvq_softfp_c(EXACTVQ_SOFTFP_ONE));
  return softfp_mul(softfp_fma(z, r2, y), s);
}

/* powf(x, y) on the domain above, floats as bit patterns. */
EXACTVQ_SOFTFP_CALL_FN softfp_u32 softfp_powf(softfp_u32 x, softfp_u32 y,
                                              const EXACTVQ_GLOBAL exactvq_u64* log2_table,
                                              const EXACTVQ_GLOBAL exactvq_u64* exp2_table) {
  if ((x & 0x7FFFFFFFu) == 0) return 0; /* +0 to a positive y */
  const softfp ylogx = softfp_mul(softfp_from_f32_bits(y), exactvq_softfp_powf_log2(x, log2_table));
  /* |y log2 x| >= 126 is glibc's slow branch; below -126 only underflow is possible here. */
  if (!softfp_magnitude_less(ylogx, softfp_from_i53(126))) {
    if (!softfp_less(exactvq_softfp_c(EXACTVQ_POWF_MINUS150), ylogx)) return 0;
    if (softfp_less(ylogx, exactvq_softfp_c(EXACTVQ_POWF_MINUS149))) return 1;
  }
  return exactvq_softfp_to_f32(exactvq_softfp_powf_exp2(ylogx, exp2_table));
}

#endif /* EXACTVQ_LIBM_POWF_SOFTFP_H */
